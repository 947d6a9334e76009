import Dispatch
import Synchronization
import WallCore

/// Threads preparing tiles in a fixed order, at most `window` ahead of the consumer, which
/// takes them in the same order. Because both follow one order, a tile the consumer waits for
/// has always been started or can be: no deadlock, and memory holds at most `window` tiles
/// that were prepared but not yet taken.
final class TileWorkers: Sendable {
    private let order: [Int]
    private let prepare: @Sendable (Int) throws -> Bitmap
    private let slots: Locked<[Int: Result<Bitmap, any Error>]>
    private let ready: [DispatchSemaphore]
    private let room: DispatchSemaphore
    private let next = Atomic<Int>(0)
    /// Window permits held by tiles started but not yet taken.
    private let outstanding = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)
    private let group = DispatchGroup()
    private let threads: Int

    init(order: [Int], threads: Int, window: Int, prepare: @escaping @Sendable (Int) throws -> Bitmap) {
        self.order = order
        self.prepare = prepare
        self.threads = max(1, threads)
        slots = Locked([:])
        ready = order.map { _ in DispatchSemaphore(value: 0) }
        room = DispatchSemaphore(value: max(1, window))
        for _ in 0..<self.threads {
            group.enter()
            DispatchQueue.global().async { [self] in
                defer { group.leave() }
                work()
            }
        }
    }

    private func work() {
        while true {
            room.wait()
            let position = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard position < order.count, !cancelled.load(ordering: .relaxed) else {
                room.signal()
                return
            }
            outstanding.add(1, ordering: .relaxed)
            let result = Result { try prepare(order[position]) }
            slots.withLock { $0[position] = result }
            ready[position].signal()
        }
    }

    /// The tile at `position` in the order, waiting for it if need be.
    func take(_ position: Int) throws -> Bitmap {
        ready[position].wait()
        let result = slots.withLock { $0.removeValue(forKey: position)! }
        outstanding.subtract(1, ordering: .relaxed)
        room.signal()
        return try result.get()
    }

    /// Stops the workers (after an error or at the end) and waits for them. Permits of tiles
    /// that were prepared but never taken are given back: libdispatch traps when a semaphore
    /// is destroyed below its initial value.
    func finish() {
        cancelled.store(true, ordering: .relaxed)
        for _ in 0..<threads { room.signal() }
        group.wait()
        for _ in 0..<outstanding.exchange(0, ordering: .relaxed) { room.signal() }
    }
}
