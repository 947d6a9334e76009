import Testing
import WallCore

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
}
