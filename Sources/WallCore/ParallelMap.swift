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

/// Runs `body` for `0..<count` on up to `threads` threads and hands each result to `consume` in
/// index order, as soon as those before it were consumed: a long run of results (a million tiles'
/// text) is consumed while the rest are made, no more than about `threads` of them held at once,
/// and no thread waits for a round of others to finish. `consume` is called by one thread at a
/// time. When calls throw, the error of the lowest index is rethrown, and nothing after it is
/// consumed.
public func parallelForEach<T>(
    _ count: Int, threads: Int, _ body: @Sendable (Int) throws -> T, consume: (T) throws -> Void
) throws {
    if threads <= 1 || count <= 1 {
        for index in 0..<count { try consume(try body(index)) }
        return
    }
    // Result i is consumed once turn i comes: result i - 1 was consumed (or failed).
    let turns = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    turns[0].signal()
    let next = Atomic<Int>(0)
    let failure = Locked<(any Error)?>(nil)
    try withoutActuallyEscaping(consume) { consume in
        let inTurn = InTurn(consume: consume)
        DispatchQueue.concurrentPerform(iterations: min(threads, count)) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                let result = Result { try body(index) }
                turns[index].wait()
                // Only the thread whose turn it is gets here: the lock only makes that visible.
                failure.withLock { failed in
                    guard failed == nil else { return }
                    do { try inTurn.consume(result.get()) } catch { failed = error }
                }
                if index + 1 < count { turns[index + 1].signal() }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }
}

/// What consumes results in turn: called by one thread at a time, each call after the one before
/// it returned (a semaphore passes the turn), so it needs no more than that.
private struct InTurn<T>: @unchecked Sendable {
    let consume: (T) throws -> Void
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
