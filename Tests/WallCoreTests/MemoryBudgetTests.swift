import Dispatch
import Synchronization
import Testing
import WallCore

@Suite("Memory budget")
struct MemoryBudgetTests {
    @Test("reservations that do not fit together never overlap; one bigger than the budget runs alone")
    func bounded() {
        let budget = MemoryBudget(limit: 100)
        let holding = Mutex(0)
        let peak = Mutex(0)
        let sizes = [60, 30, 60, 150, 10, 40, 60, 30, 90, 20, 60, 150]
        DispatchQueue.concurrentPerform(iterations: sizes.count * 4) { i in
            let bytes = sizes[i % sizes.count]
            budget.withReservation(bytes) {
                let now = holding.withLock {
                    $0 += bytes; return $0
                }
                peak.withLock { $0 = max($0, now) }
                // Alone, or within the budget.
                #expect(now == bytes || now <= 100, "\(now) held with a \(bytes) reservation")
                for _ in 0..<2000 { _ = holding.withLock { $0 } }
                holding.withLock { $0 -= bytes }
            }
        }
        #expect(budget.inUse == 0)
        #expect(peak.withLock { $0 } <= 150)
    }

    @Test("a reservation is given back when its work throws")
    func throwing() {
        struct Failure: Error {}
        let budget = MemoryBudget(limit: 10)
        #expect(throws: Failure.self) { try budget.withReservation(8) { throw Failure() } }
        #expect(budget.inUse == 0)
        #expect(budget.withReservation(10) { budget.inUse } == 10)
    }
}
