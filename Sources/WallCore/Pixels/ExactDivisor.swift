/// Division by a fixed divisor with a multiply and a shift instead of a division instruction
/// (several times slower; box averaging needs one a channel of every output pixel). Exact:
/// the multiplier is Granlund and Montgomery's, rounded up, for dividends below 2^24.
public struct ExactDivisor: Sendable {
    /// What it divides by.
    public let divisor: UInt32
    private let multiplier: UInt64
    private let shift: UInt64

    /// A divisor of 1 or more; above 65,536 it divides the ordinary way.
    public init(_ divisor: UInt32) {
        precondition(divisor >= 1)
        self.divisor = divisor
        if divisor > 1 << 16 {
            multiplier = 0
            shift = 0
        } else {
            let log = UInt64(32 - (divisor - 1).leadingZeroBitCount)  // ceil(log2(divisor))
            shift = 24 + log
            multiplier = ((1 << shift) + UInt64(divisor) - 1) / UInt64(divisor)
        }
    }

    /// `n / divisor`, rounded down. Exact for every `n` below 2^24 (and for any `n` when the
    /// divisor is above 65,536); sums of at most 65,536 bytes stay below that.
    @inline(__always)
    public func quotient(_ n: UInt32) -> UInt32 {
        multiplier == 0 ? n / divisor : UInt32(truncatingIfNeeded: (UInt64(n) &* multiplier) &>> shift)
    }

    /// `n / divisor`, rounded to nearest, halves up: the mean of a block summing to `n`.
    @inline(__always)
    public func rounded(_ n: UInt32) -> UInt32 { quotient(n &+ divisor / 2) }
}
