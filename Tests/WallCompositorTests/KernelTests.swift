import CKernels
import Testing
import WallCore

@testable import WallCompositor

/// The resampler's inner loop: its Swift definition and the C twin's three versions (plain C,
/// SSE2, AVX2 where this CPU has it; `make check-portable` runs the sheets where it has not)
/// give the same sums, for every number of lines and every length, the largest and the most
/// negative weights included.
@Suite("Resampling kernels, three ways")
struct KernelTests {
    @Test("plain, SSE2 and AVX2 give the Swift definition's sums", arguments: [1, 2, 3, 4, 5, 7, 12])
    func sameSums(lines count: Int) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(count)
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for length in [1, 15, 16, 17, 31, 33, 64, 100, 257] {
            let lineBytes = length + Int(next() % 5)
            let lines = (0..<(count * lineBytes)).map { i in i % 11 == 0 ? 255 : UInt8(truncatingIfNeeded: next()) }
            var weights = (0..<count).map { _ in Int16(truncatingIfNeeded: next()) }
            weights[0] = count > 2 ? Int16.min : Int16.max
            let half = Contributions.half
            var expected = [Int32](repeating: 0, count: length)
            let splat = UnsafeMutablePointer<Int16>.allocate(capacity: 64)
            defer { splat.deallocate() }
            lines.withUnsafeBufferPointer { l in
                weights.withUnsafeBufferPointer { w in
                    Resampler.add(
                        lines: l.baseAddress!, lineBytes: lineBytes, weights: w, into: &expected, length: length,
                        splat: splat)
                }
            }
            for kernel in [IW_KERNEL_PLAIN, IW_KERNEL_SSE2, IW_KERNEL_AVX2, IW_KERNEL_BEST] {
                var sums = [Int32](repeating: -1, count: length)
                iw_add_lines(kernel, lines, lineBytes, weights, count, &sums, length, half)
                #expect(sums == expected, "\(count) lines of \(length), kernel \(kernel.rawValue)")
            }
        }
    }

    @Test("the version chosen is one this CPU runs: AVX2 where it has it, else SSE2")
    func chosen() {
        let best = iw_best_kernel()
        #expect(best == IW_KERNEL_AVX2 || best == IW_KERNEL_SSE2)
    }
}
