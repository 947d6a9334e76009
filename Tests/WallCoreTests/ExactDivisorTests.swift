import Testing
import WallCore

@Suite("Exact division")
struct ExactDivisorTests {
    @Test("multiply-and-shift quotients equal the division's, for every divisor a box can have")
    func quotients() {
        var divisors = Array(UInt32(1)...UInt32(600))
        divisors += [1023, 1024, 1025, 4095, 65_535, 65_536, 65_537, 1_000_000]
        for d in divisors {
            let divisor = ExactDivisor(d)
            // Every multiple of the divisor and its neighbours up to 256 blocks of bytes, and
            // a spread of others up to the top of the range.
            var dividends: [UInt32] = [0, 1, (1 << 24) - 1, (1 << 24) - d]
            for k in stride(from: UInt32(0), through: 256, by: 1) {
                let multiple = k * d
                dividends += [multiple, multiple &+ d / 2, multiple &+ d - 1]
                if multiple > 0 { dividends.append(multiple - 1) }
            }
            dividends += stride(from: UInt32(0), to: 1 << 24, by: 65_521).map { $0 }
            for n in dividends where n < 1 << 24 {
                #expect(divisor.quotient(n) == n / d, "\(n) / \(d)")
                if n + d / 2 < 1 << 24 { #expect(divisor.rounded(n) == (n + d / 2) / d, "round(\(n) / \(d))") }
            }
        }
    }

    @Test("above 65,536 it divides the ordinary way, over the whole range")
    func large() {
        let divisor = ExactDivisor(70_001)
        let dividends: [UInt32] = [0, 70_000, 70_001, 1 << 30, UInt32.max - 35_000]
        for n in dividends { #expect(divisor.quotient(n) == n / 70_001) }
    }
}
