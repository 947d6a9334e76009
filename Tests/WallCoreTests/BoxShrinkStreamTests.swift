import Testing
import WallCore

@Suite("Box shrinking as rows arrive")
struct BoxShrinkStreamTests {
    /// Each block's mean computed from the whole image, the way the stream's documentation
    /// defines it: RGBA averaged premultiplied and given back straight, other channels each alone.
    static func expected(
        _ pixels: [UInt8], size: Size, channels: Int, fourthIsAlpha: Bool, factors: (x: Int, y: Int), rows: Int
    ) -> [UInt8] {
        let out = BoxShrinkStream.shrunk(size, by: factors)
        var result = [UInt8]()
        for by in 0..<out.height {
            let top = by * factors.y, bottom = min(top + factors.y, rows)
            guard top < bottom else {  // never arrived: mid-grey
                for _ in 0..<out.width { result += channels == 4 ? [128, 128, 128, 255] : [128, 128, 128] }
                continue
            }
            for bx in 0..<out.width {
                let left = bx * factors.x, right = min(left + factors.x, size.width)
                var sums = [UInt64](repeating: 0, count: channels)
                for y in top..<bottom {
                    for x in left..<right {
                        let p = (y * size.width + x) * channels
                        let alpha = channels == 4 ? UInt64(pixels[p + 3]) : 0
                        for c in 0..<channels {
                            let value = UInt64(pixels[p + c])
                            sums[c] += channels == 4 && fourthIsAlpha && c < 3 ? value * alpha : value
                        }
                    }
                }
                let count = UInt64((bottom - top) * (right - left))
                for c in 0..<channels {
                    if channels == 4 && fourthIsAlpha && c < 3 {
                        let alpha = sums[3]
                        result.append(alpha == 0 ? 0 : UInt8(min(255, (sums[c] + alpha / 2) / alpha)))
                    } else {
                        result.append(UInt8((sums[c] + count / 2) / count))
                    }
                }
            }
        }
        return result
    }

    /// Bytes with the extremes a box meets: a quarter of them 0 or 255 (transparent and opaque
    /// pixels among them), the rest random.
    static func image(_ size: Size, channels: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<size.width * size.height * channels).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let r = UInt8(truncatingIfNeeded: state >> 33)
            switch state >> 61 {
            case 0: return 0
            case 1: return 255
            default: return r
            }
        }
    }

    static func shrink(
        _ pixels: [UInt8], size: Size, channels: Int, fourthIsAlpha: Bool, factors: (x: Int, y: Int), rows: Int
    ) -> [UInt8] {
        var stream = BoxShrinkStream(
            sourceSize: size, channels: channels, factorX: factors.x, factorY: factors.y, fourthIsAlpha: fourthIsAlpha)
        pixels.withUnsafeBufferPointer { p in
            for y in 0..<rows { stream.add(row: p.baseAddress! + y * size.width * channels) }
        }
        #expect(stream.rowsConsumed == rows)
        stream.finish()
        return stream.result.pixels
    }

    @Test(
        "every block's mean, for RGB, RGBA and four plain channels, blocks cut by either edge, rows of any length",
        arguments: [3, 4])
    func means(channels: Int) {
        let factors = [(1, 2), (2, 1), (2, 2), (3, 3), (5, 4), (7, 7), (4, 9), (16, 3), (64, 64)]
        let widths = [1, 3, 5, 6, 17, 33, 130]
        var seed: UInt64 = 1
        for (fx, fy) in factors {
            for width in widths {
                let size = Size(width: width, height: fy * 2 + 1)
                for fourthIsAlpha in channels == 4 ? [true, false] : [true] {
                    seed += 1
                    let pixels = Self.image(size, channels: channels, seed: seed)
                    let got = Self.shrink(
                        pixels, size: size, channels: channels, fourthIsAlpha: fourthIsAlpha, factors: (fx, fy),
                        rows: size.height)
                    let want = Self.expected(
                        pixels, size: size, channels: channels, fourthIsAlpha: fourthIsAlpha, factors: (fx, fy),
                        rows: size.height)
                    #expect(got == want, "\(width) px, \(channels) channels, alpha \(fourthIsAlpha), \(fx)×\(fy)")
                }
            }
        }
    }

    @Test("a stream cut short keeps the rows that came, its last block partial, and fills the rest grey")
    func cutShort() {
        let size = Size(width: 41, height: 20)
        for channels in [3, 4] {
            let pixels = Self.image(size, channels: channels, seed: 99)
            for rows in [0, 1, 4, 7, 19] {
                let got = Self.shrink(
                    pixels, size: size, channels: channels, fourthIsAlpha: true, factors: (3, 4), rows: rows)
                let want = Self.expected(
                    pixels, size: size, channels: channels, fourthIsAlpha: true, factors: (3, 4), rows: rows)
                #expect(got == want, "\(channels) channels, \(rows) rows")
            }
        }
    }

    @Test("blocks at and past the edge of 32-bit sums (256 × 256 and 300 × 300 pixels of white) keep their means")
    func largeBlocks() {
        let size = Size(width: 601, height: 300)
        for factor in [256, 300] {
            for channels in [3, 4] {
                var pixels = Self.image(size, channels: channels, seed: 7)
                // The left block all opaque white: at 300 × 300 its premultiplied sums reach 5.9
                // billion.
                for y in 0..<size.height {
                    for x in 0..<factor {
                        for c in 0..<channels { pixels[(y * size.width + x) * channels + c] = 255 }
                    }
                }
                let factors = (factor, factor)
                let got = Self.shrink(
                    pixels, size: size, channels: channels, fourthIsAlpha: true, factors: factors, rows: size.height)
                let want = Self.expected(
                    pixels, size: size, channels: channels, fourthIsAlpha: true, factors: factors, rows: size.height)
                #expect(got == want, "\(factor) × \(factor), \(channels) channels")
                #expect(Array(got.prefix(channels)) == [UInt8](repeating: 255, count: channels))
            }
        }
    }

    @Test("a fully transparent block is transparent black; an opaque one keeps its colours")
    func transparency() {
        let size = Size(width: 4, height: 2)
        // Left block transparent with colours that must not show; right block opaque.
        var pixels = [UInt8]()
        for y in 0..<2 {
            for x in 0..<4 { pixels += x < 2 ? [200, 100, 50, 0] : [10 + UInt8(y), 20, 30, 255] }
        }
        let got = Self.shrink(pixels, size: size, channels: 4, fourthIsAlpha: true, factors: (2, 2), rows: 2)
        #expect(got == [0, 0, 0, 0, 11, 20, 30, 255])
    }
}
