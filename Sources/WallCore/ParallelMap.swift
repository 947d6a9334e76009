import Dispatch
import Synchronization

/// Runs `body` for `0..<count` on up to `threads` threads and returns the results in index
/// order, so the outcome never depends on scheduling. When calls throw, the error of the lowest
/// index is rethrown.
public func parallelMap<T: Sendable>(
    _ count: Int, threads: Int, _ body: @Sendable (Int) throws -> T
) throws -> [T] {
    if count == 0 { return [] }
    if threads <= 1 || count == 1 { return try (0..<count).map(body) }
    let slots = ResultSlots<T>(count: count)
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: min(threads, count)) { _ in
        while true {
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < count else { return }
            slots.store(Result { try body(index) }, at: index)
        }
    }
    return try slots.collect()
}

/// One result slot per index; each slot is written by exactly one worker before `collect`.
private final class ResultSlots<T>: @unchecked Sendable {
    private let results: UnsafeMutableBufferPointer<Result<T, any Error>?>

    init(count: Int) {
        results = .allocate(capacity: count)
        results.initialize(repeating: nil)
    }

    deinit {
        results.deinitialize()
        results.deallocate()
    }

    func store(_ result: Result<T, any Error>, at index: Int) { results[index] = result }

    func collect() throws -> [T] {
        try results.map { try $0!.get() }
    }
}
