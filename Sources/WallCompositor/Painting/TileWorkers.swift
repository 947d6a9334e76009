import Dispatch
import Synchronization
import WallCore

/// Tiles prepared in a fixed order, at most `window` ahead of the consumer, which takes them
/// in the same order. `threads - 1` helper threads prepare tiles, and the consumer prepares the
/// next one itself whenever the tile it wants is not ready yet, so `threads` threads are busy
/// and one thread means no helper at all. Because everyone follows one order, a tile the
/// consumer waits for has always been started or can be: no deadlock, and memory holds at most
/// `window` tiles that were prepared but not yet taken.
final class TileWorkers: Sendable {
    private let order: [Int]
    private let prepare: @Sendable (Int) throws -> Bitmap
    private let slots: Locked<[Int: Result<Bitmap, any Error>]>
    private let ready: [DispatchSemaphore]
    private let room: DispatchSemaphore
    private let next = Atomic<Int>(0)
    /// Window permits held by tiles started but not yet taken.
    private let outstanding = Atomic<Int>(0)
    /// Whether the workers were stopped; helpers join `group` under this lock, so `finish`
    /// waits only for helpers that started (a busy thread pool may start one late, or never).
    private let stopped = Locked(false)
    private let group = DispatchGroup()
    private let helpers: Int

    init(order: [Int], threads: Int, window: Int, prepare: @escaping @Sendable (Int) throws -> Bitmap) {
        self.order = order
        self.prepare = prepare
        self.helpers = max(0, threads - 1)
        slots = Locked([:])
        ready = order.map { _ in DispatchSemaphore(value: 0) }
        room = DispatchSemaphore(value: max(1, window))
        for _ in 0..<helpers {
            startOwnThread { [self] in
                let joined = stopped.withLock { stopped in
                    if !stopped { group.enter() }
                    return !stopped
                }
                guard joined else { return }
                defer { group.leave() }
                while prepareNext(waitingForRoom: true) {}
            }
        }
    }

    /// Claims the next tile in the order and prepares it. Returns `false` when every tile has
    /// been claimed, the workers were stopped, or (without `waitingForRoom`) the window is full.
    private func prepareNext(waitingForRoom: Bool) -> Bool {
        if waitingForRoom {
            room.wait()
        } else if room.wait(timeout: .now()) != .success {
            return false
        }
        let position = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard position < order.count, !stopped.withLock({ $0 }) else {
            room.signal()
            return false
        }
        outstanding.add(1, ordering: .relaxed)
        let result = Result { try prepare(order[position]) }
        slots.withLock { $0[position] = result }
        ready[position].signal()
        return true
    }

    /// The tile at `position` in the order; while it is not ready, the caller prepares later
    /// tiles instead of waiting idle.
    func take(_ position: Int) throws -> Bitmap {
        while ready[position].wait(timeout: .now()) != .success {
            if !prepareNext(waitingForRoom: false) {
                ready[position].wait()
                break
            }
        }
        let result = slots.withLock { $0.removeValue(forKey: position)! }
        outstanding.subtract(1, ordering: .relaxed)
        room.signal()
        return try result.get()
    }

    /// Stops the helpers (after an error or at the end) and waits for those that started.
    /// Permits of tiles that were prepared but never taken are given back: libdispatch traps
    /// when a semaphore is destroyed below its initial value.
    func finish() {
        stopped.withLock { $0 = true }
        for _ in 0..<helpers { room.signal() }
        group.wait()
        for _ in 0..<outstanding.exchange(0, ordering: .relaxed) { room.signal() }
    }
}
