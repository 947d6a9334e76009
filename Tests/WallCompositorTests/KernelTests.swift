import CKernels
import Testing
import WallCore
import _WallTestSupport

@testable import WallCompositor

/// The resampler's inner loops, the PNG encoder's Paeth filter and colour planes made pixels:
/// their definitions (in Swift; the filter's from the PNG specification) and the C twins' three
/// versions (plain C, SSE2, AVX2 where this CPU has it; `make check-portable` runs the sheets where
/// it has not) give the same sums and bytes, for every number of lines and every length, the
/// largest and the most negative weights and sums out of range included.
@Suite("Resampling kernels, three ways")
struct KernelTests {
    @Test("plain, SSE2 and AVX2 give the Swift definition's sums", arguments: [1, 2, 3, 4, 5, 7, 12, 129])
    func sameSums(lines count: Int) {
        var random = SeededGenerator(seed: 0x9E37_79B9_7F4A_7C15 &* UInt64(count))
        func next() -> UInt64 { random.next() >> 33 }
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

    @Test("plain, SSE2 and AVX2 halve rows as the Swift definition does", arguments: [1, 2, 3, 4])
    func sameHalves(channels: Int) {
        var random = SeededGenerator(seed: 0xD1B5_4A32_D192_ED03 &* UInt64(channels))
        func next() -> UInt8 { UInt8(truncatingIfNeeded: random.next() >> 33) }
        for width in [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 17, 21, 22, 31, 33, 64, 101, 1000, 2001] {
            let length = width * channels
            // Bytes at the extremes where the sums would overflow a byte or saturate.
            let top = (0..<length).map { i in i % 7 == 0 ? 255 : next() }
            let bottom = (0..<length).map { i in i % 5 == 0 ? 255 : i % 9 == 0 ? 0 : next() }
            let half = (width + 1) / 2 * channels
            var expected = [UInt8](repeating: 0, count: half)
            top.withUnsafeBufferPointer { t in
                bottom.withUnsafeBufferPointer { b in
                    BoxShrink.halve(
                        top: t.baseAddress!, bottom: b.baseAddress!, width: width, channels: channels,
                        into: &expected)
                }
            }
            // A mean by hand for the first pixel: the definition itself is held to something.
            let right = width > 1 ? channels : 0
            let first = (Int(top[0]) + Int(bottom[0]) + Int(top[right]) + Int(bottom[right]) + 2) / 4
            #expect(Int(expected[0]) == first)
            for kernel in [IW_KERNEL_PLAIN, IW_KERNEL_SSE2, IW_KERNEL_AVX2, IW_KERNEL_BEST] {
                // One byte past the row, which no version may write.
                var out = [UInt8](repeating: 0xA5, count: half + 1)
                var scratch = [UInt8](repeating: 0, count: length + 32)
                iw_halve_row(kernel, top, bottom, width, channels, &out, &scratch)
                #expect(Array(out[..<half]) == expected, "\(width) pixels of \(channels), kernel \(kernel.rawValue)")
                #expect(out[half] == 0xA5, "wrote past the row: \(width) pixels of \(channels)")
            }
        }
    }

    @Test("plain, SSE2 and AVX2 store sums as the Swift definition does", arguments: [3, 4])
    func sameStores(channels: Int) {
        var random = SeededGenerator(seed: 0x2545_F491_4F6C_DD1D &* UInt64(channels))
        func next() -> Int32 { Int32(truncatingIfNeeded: random.next() >> 32) }
        let precision = Int(Contributions.precision)
        for rows in 1...4 {
            for pixels in [1, 2, 5, 6, 7, 16, 21, 33] {
                let length = pixels * channels
                // Sums below 0, above 255 after the shift, and every value between.
                let sums = (0..<(rows * length)).map { i -> Int32 in
                    switch i % 5 {
                    case 0: return -(next() & 0xFFFFF)
                    case 1: return (next() & 0x3FFFF) | (256 << precision)
                    default: return (next() & 0xFF) << precision | (next() & 0x3FFF)
                    }
                }
                // Lines turned as the passes write them: pixel p of line q at q * channels + p * pixelBytes,
                // each pixel's run of lines a line of `rows + 1` pixels, the last one left as it was.
                let pixelBytes = (rows + 1) * channels
                var expected = [UInt8](repeating: 0xA5, count: pixels * pixelBytes)
                sums.withUnsafeBufferPointer { s in
                    Resampler.store(
                        sums: s.baseAddress!, rows: rows, length: length, channels: channels, into: &expected,
                        pixelBytes: pixelBytes)
                }
                // The definition held to a pixel worked out by hand.
                let first = sums[0] >> Contributions.precision
                #expect(Int(expected[0]) == min(max(Int(first), 0), channels == 4 ? Int(expected[3]) : 255))
                for kernel in [IW_KERNEL_PLAIN, IW_KERNEL_SSE2, IW_KERNEL_AVX2, IW_KERNEL_BEST] {
                    for last in [0, 1] {
                        var out = [UInt8](repeating: 0xA5, count: pixels * pixelBytes)
                        var scratch = [UInt8](repeating: 0, count: rows * length + 4)
                        iw_store_lines(
                            kernel, sums, rows, length, channels, &out, pixelBytes, Int32(precision), Int32(last),
                            &scratch)
                        for p in 0..<pixels {
                            let line = p * pixelBytes, written = rows * channels
                            let what = "\(rows) lines of \(pixels) pixels of \(channels), kernel \(kernel.rawValue)"
                            #expect(
                                Array(out[line..<line + written]) == Array(expected[line..<line + written]), "\(what)")
                            // The next line's first byte may be written (it is written after), and
                            // must not be when these are the last lines; nothing beyond it.
                            let spill = channels == 3 && last == 0 ? 1 : 0
                            #expect(
                                out[(line + written + spill)..<(line + pixelBytes)].allSatisfy { $0 == 0xA5 },
                                "wrote past the lines: \(what), last \(last)")
                        }
                    }
                }
            }
        }
    }

    @Test("plain, SSE2 and AVX2 Paeth-filter rows as the PNG specification defines", arguments: [1, 2, 3, 4, 6, 8])
    func samePaeth(bytesPerPixel bpp: Int) {
        var random = SeededGenerator(seed: 0x94D0_49BB_1331_11EB &* UInt64(bpp))
        func next() -> UInt8 { UInt8(truncatingIfNeeded: random.next() >> 33) }
        // ISO 15948, 9.4: the predictor of a (left), b (above) and c (above left), 0 beyond the left edge.
        func predictor(_ a: Int, _ b: Int, _ c: Int) -> Int {
            let p = a + b - c
            let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
            return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
        }
        for n in [1, 2, 3, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 47, 64, 100, 6000] where n >= bpp {
            // Runs of equal bytes, the extremes and noise, so that every branch of the predictor is taken.
            let row = (0..<n).map { i -> UInt8 in
                if i % 13 < 3 { return 0 }
                if i % 17 < 2 { return 255 }
                return i % 29 < 6 ? 128 : next()
            }
            let up = (0..<n).map { i -> UInt8 in
                if i % 11 < 2 { return 255 }
                if i % 19 < 4 { return 0 }
                return i % 23 < 6 ? row[i] : next()
            }
            let expected = (0..<n).map { i in
                let a = i >= bpp ? Int(row[i - bpp]) : 0, c = i >= bpp ? Int(up[i - bpp]) : 0
                return UInt8(truncatingIfNeeded: Int(row[i]) - predictor(a, Int(up[i]), c))
            }
            for kernel in [IW_KERNEL_PLAIN, IW_KERNEL_SSE2, IW_KERNEL_AVX2, IW_KERNEL_BEST] {
                // One byte past the row, which no version may write.
                var out = [UInt8](repeating: 0xA5, count: n + 1)
                iw_paeth_row(kernel, row, up, &out, n, bpp)
                #expect(Array(out[..<n]) == expected, "\(n) bytes, \(bpp) a pixel, kernel \(kernel.rawValue)")
                #expect(out[n] == 0xA5, "wrote past the row: \(n) bytes, \(bpp) a pixel")
            }
        }
    }

    @Test("plain, SSE2 and AVX2 make colour planes pixels, byte for byte", arguments: [3, 4])
    func sameInterleaving(channels: Int) {
        var random = SeededGenerator(seed: UInt64(channels))
        for width in [0, 1, 2, 15, 16, 17, 31, 32, 33, 47, 48, 49, 512, 1001] {
            let planes = (0..<channels).map { _ in (0..<width).map { _ in UInt8.random(in: 0...255, using: &random) } }
            let expected = (0..<(width * channels)).map { planes[$0 % channels][$0 / channels] }
            // The planes one after another, handed over as a list of four pointers into them (nil
            // past the channels), as a decoder's are.
            let joined = Array(planes.joined())
            for kernel in [IW_KERNEL_PLAIN, IW_KERNEL_SSE2, IW_KERNEL_AVX2, IW_KERNEL_BEST] {
                // One byte past the row, which no version may write.
                var out = [UInt8](repeating: 0xA5, count: width * channels + 1)
                joined.withUnsafeBufferPointer { all in
                    let list = (0..<4).map { c in c < channels ? all.baseAddress.map { $0 + c * width } : nil }
                    list.withUnsafeBufferPointer { iw_interleave_row(kernel, $0.baseAddress, width, channels, &out) }
                }
                #expect(Array(out[..<(width * channels)]) == expected, "\(width) pixels, kernel \(kernel.rawValue)")
                #expect(out[width * channels] == 0xA5, "wrote past the row: \(width) pixels")
            }
        }
    }

    @Test("a halved bitmap is its rows halved, the last odd row alone")
    func halvedBitmap() {
        let size = Size(width: 37, height: 9)
        let pixels = (0..<(size.width * size.height * 3)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ $0 >> 3) }
        let image = Bitmap(size: size, alpha: .none, pixels: pixels)
        let halved = BoxShrink.halved(image)
        #expect(halved.size == Size(width: 19, height: 5))
        var expected: [UInt8] = []
        for y in 0..<5 {
            var row = [UInt8](repeating: 0, count: 19 * 3)
            pixels.withUnsafeBufferPointer { p in
                let top = p.baseAddress! + 2 * y * 37 * 3
                BoxShrink.halve(
                    top: top, bottom: 2 * y + 1 < 9 ? top + 37 * 3 : top, width: 37, channels: 3, into: &row)
            }
            expected += row
        }
        #expect(halved.pixels == expected)
    }

    @Test("a halved bitmap made a few rows at a time is the whole one halved", arguments: [3, 4])
    func halvedInBands(channels: Int) {
        for height in [1, 2, 9, 16, 17] {
            let size = Size(width: 23, height: height)
            let pixels = (0..<(size.width * height * channels)).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ $0 >> 2) }
            let image = Bitmap(size: size, alpha: channels == 4 ? .premultiplied : .none, pixels: pixels)
            let whole = Resampler.halved(image)
            var banded = Bitmap(size: whole.size, alpha: image.alpha, fill: [UInt8](repeating: 7, count: channels))
            var row = 0
            for band in [1, 3, 2, 5, 4, 8] where row < whole.size.height {
                let rows = row..<min(row + band, whole.size.height)
                banded.pixels.withUnsafeMutableBufferPointer { out in
                    Resampler.halve(image, rows: rows, into: out.baseAddress! + row * whole.rowBytes)
                }
                row = rows.upperBound
            }
            #expect(row == whole.size.height && banded == whole, "\(height) rows of \(channels) channels")
        }
    }

    @Test("the version chosen is one this CPU runs: AVX2 where it has it, else SSE2")
    func chosen() {
        let best = iw_best_kernel()
        #expect(best == IW_KERNEL_AVX2 || best == IW_KERNEL_SSE2)
    }
}
