import Testing
import WallCore

#if canImport(Glibc)
    import Glibc
#endif

@Suite("parallelMap")
struct ParallelMapTests {
    @Test("results come back in index order whatever the thread count", arguments: [1, 2, 4])
    func ordered(threads: Int) throws {
        let result = try parallelMap(1000, threads: threads) { $0 * $0 }
        #expect(result == (0..<1000).map { $0 * $0 })
    }

    struct Failure: Error, Equatable { let index: Int }

    @Test("the lowest failing index wins")
    func lowestError() {
        #expect(throws: Failure(index: 3)) {
            _ = try parallelMap(100, threads: 4) { i in
                if i == 3 || i == 50 { throw Failure(index: i) }
                return i
            }
        }
    }

    @Test("parallelForEach consumes the results in index order, one at a time", arguments: [1, 2, 3, 8])
    func consumedInOrder(threads: Int) throws {
        var consumed: [Int] = []
        try parallelForEach(
            2_000, threads: threads,
            { i in
                // Uneven work (a pause of up to 60 µs), so that results are made out of order.
                usleep(UInt32(i % 4) * 20)
                return i
            }
        ) { consumed.append($0) }
        #expect(consumed == Array(0..<2_000))
    }

    @Test("parallelForEach stops at the lowest failure, made or consumed, nothing after it consumed")
    func consumedUntilFailure() {
        for threads in [1, 4] {
            var consumed: [Int] = []
            #expect(throws: Failure(index: 30)) {
                try parallelForEach(
                    100, threads: threads,
                    { i in
                        if i == 30 || i == 70 { throw Failure(index: i) }
                        return i
                    }
                ) { consumed.append($0) }
            }
            #expect(consumed == Array(0..<30))
            consumed = []
            #expect(throws: Failure(index: 12)) {
                try parallelForEach(100, threads: threads, { $0 }) { i in
                    if i == 12 { throw Failure(index: i) }
                    consumed.append(i)
                }
            }
            #expect(consumed == Array(0..<12))
        }
    }
}
