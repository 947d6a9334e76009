import Dispatch
import Synchronization
import Testing

@testable import WallCore

@Suite("Threads of their own")
struct OwnThreadTests {
    @Test("work on threads of its own runs side by side however much of it waits")
    func manyWaitingAtOnce() {
        // Each body waits until every other has started: on libdispatch's pool, about one
        // thread a core, the later ones are left queued behind the first ones' waits, and the
        // pool adds a thread about once a second (32 took 31 s here). Threads of their own all
        // start at once (in milliseconds); the bound below is only how long a failure takes.
        let count = 4 * 8
        let started = Atomic<Int>(0)
        let everyoneStarted = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            startOwnThread {
                if started.wrappingAdd(1, ordering: .relaxed).newValue == count {
                    for _ in 0..<count { everyoneStarted.signal() }
                }
                let met = everyoneStarted.wait(timeout: .now() + .seconds(10)) == .success
                if met { finished.signal() }
            }
        }
        var ended = 0
        while ended < count, finished.wait(timeout: .now() + .seconds(15)) == .success { ended += 1 }
        #expect(ended == count)
        #expect(started.load(ordering: .relaxed) == count)
    }
}
