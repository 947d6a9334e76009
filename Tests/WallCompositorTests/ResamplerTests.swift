import Synchronization
import Testing
import WallCore
import _WallTestSupport

@testable import WallCompositor

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Resampler")
struct ResamplerTests {
    static let sizes: [(Size, Size)] = [
        (Size(width: 100, height: 80), Size(width: 33, height: 27)),  // mild reduction
        (Size(width: 1000, height: 700), Size(width: 37, height: 26)),  // box then Lanczos
        (Size(width: 40, height: 30), Size(width: 97, height: 71)),  // enlargement
        (Size(width: 5, height: 5), Size(width: 1, height: 1)),
    ]

    @Test("a constant image stays exactly constant", arguments: sizes)
    func constant(from: Size, to: Size) {
        let image = Bitmap(size: from, alpha: .none, fill: [200, 17, 99])
        let result = Resampler.resize(image, to: to)
        #expect(result.size == to)
        #expect(
            Set(
                stride(from: 0, to: result.pixels.count, by: 3).map {
                    result.pixel(x: ($0 / 3) % to.width, y: ($0 / 3) / to.width)
                }) == [[200, 17, 99]])
    }

    @Test("a fine checkerboard averages to mid-grey")
    func checkerboard() {
        var image = Bitmap(size: Size(width: 512, height: 512), alpha: .none)
        for y in 0..<512 {
            for x in 0..<512 where (x + y) % 2 == 0 {
                for c in 0..<3 { image.pixels[(y * 512 + x) * 3 + c] = 255 }
            }
        }
        for target in [Size(width: 64, height: 64), Size(width: 100, height: 37), Size(width: 200, height: 200)] {
            let result = Resampler.resize(image, to: target)
            let values = result.pixels.map(Int.init)
            // Lanczos3 lets a trace of the source's Nyquist pattern through at odd ratios.
            #expect(values.allSatisfy { abs($0 - 128) <= 3 }, "\(target): \(values.min()!)...\(values.max()!)")
        }
    }

    @Test("a linear gradient resamples to the same gradient within 2 levels")
    func gradient() {
        // Horizontal ramp 0...255 over 1024 px; sampled at the centres of 100 target pixels.
        var image = Bitmap(size: Size(width: 1024, height: 8), alpha: .none)
        for x in 0..<1024 {
            let v = UInt8(x * 255 / 1023)
            for y in 0..<8 { for c in 0..<3 { image.pixels[(y * 1024 + x) * 3 + c] = v } }
        }
        let result = Resampler.resize(image, to: Size(width: 100, height: 2))
        for x in 2..<98 {  // away from the ends, where a ramp's mean is not its centre value
            let centre = (Double(x) + 0.5) * 10.24 - 0.5
            let expected = centre * 255 / 1023
            #expect(abs(Double(result.pixel(x: x, y: 1)[0]) - expected) <= 2, "x=\(x)")
        }
    }

    @Test("edges keep their colour: no darkening at the borders")
    func edges() {
        var image = Bitmap(size: Size(width: 300, height: 300), alpha: .none, fill: [255, 255, 255])
        for i in 0..<(300 * 10) { for c in 0..<3 { image.pixels[i * 3 + c] = 0 } }  // top 10 rows black
        let result = Resampler.resize(image, to: Size(width: 30, height: 30))
        #expect(result.pixel(x: 15, y: 29) == [255, 255, 255])
        #expect(result.pixel(x: 0, y: 15) == [255, 255, 255])
        // The top row's own source rows are all black; Lanczos3's three-pixel reach mixes in
        // a little of the white below, but far from half.
        #expect(result.pixel(x: 15, y: 0)[0] < 32)
    }

    @Test("alpha: a transparent border leaves no dark fringe on the opaque part")
    func noFringe() {
        // Left half opaque white, right half fully transparent (colour black underneath).
        var image = Bitmap(size: Size(width: 200, height: 50), alpha: .straight)
        for y in 0..<50 {
            for x in 0..<100 {
                let at = (y * 200 + x) * 4
                image.pixels.replaceSubrange(at..<at + 4, with: [255, 255, 255, 255])
            }
        }
        let result = Alpha.straightened(Resampler.resize(Alpha.premultiplied(image), to: Size(width: 37, height: 9)))
        for x in 0..<37 {
            let p = result.pixel(x: x, y: 4)
            if p[3] > 8 { #expect(p[0] >= 250 && p[1] >= 250 && p[2] >= 250, "x=\(x): \(p)") }
        }
        // Flattened over white it stays white everywhere.
        let flat = Alpha.flattened(
            Resampler.resize(Alpha.premultiplied(image), to: Size(width: 37, height: 9)), over: .white)
        #expect(flat.pixels.allSatisfy { $0 >= 254 })
    }

    @Test("a source region crops before scaling")
    func region() {
        var image = Bitmap(size: Size(width: 100, height: 100), alpha: .none, fill: [0, 0, 255])
        for y in 0..<100 {
            for x in 50..<100 { image.pixels[(y * 100 + x) * 3] = 255; image.pixels[(y * 100 + x) * 3 + 2] = 0 }
        }
        let right = Resampler.resize(
            image, to: Size(width: 10, height: 10), region: Region(x: 60, y: 0, width: 40, height: 100))
        #expect(right.pixels.enumerated().allSatisfy { $0.offset % 3 != 0 || $0.element == 255 })
    }
}

extension ResamplerTests {
    /// A bitmap of deterministic noise, so that a misplaced pixel shows. `mild` keeps colour
    /// in 64...191 and alpha opaque, so that no filter overshoot is clipped.
    static func noise(_ size: Size, channels: Int, seed: UInt64, mild: Bool = false) -> Bitmap {
        var image = Bitmap(size: size, alpha: channels == 4 ? .premultiplied : .none)
        var random = SeededGenerator(seed: seed)
        for i in stride(from: 0, to: image.pixels.count, by: channels) {
            for c in 0..<channels {
                image.pixels[i + c] = UInt8(truncatingIfNeeded: random.next() >> 56)
                if mild { image.pixels[i + c] = c == 3 ? 255 : 64 + image.pixels[i + c] / 2 }
            }
            if channels == 4 {  // premultiplied: colour no larger than alpha
                for c in 0..<3 { image.pixels[i + c] = min(image.pixels[i + c], image.pixels[i + 3]) }
            }
        }
        return image
    }

    /// The Lanczos passes as defined: down, then across, each pixel the rounded weighted sum of
    /// its contributions, clipped to 0...255 and to its alpha, one pixel at a time.
    static func plainPasses(_ image: Bitmap, to size: Size, region: Region) -> Bitmap {
        let channels = image.channels
        let down = Contributions(
            sourceLength: image.size.height, start: region.y, extent: region.height, targetLength: size.height)
        let across = Contributions(
            sourceLength: image.size.width, start: region.x, extent: region.width, targetLength: size.width)
        func pass(
            _ read: (Int, Int, Int) -> UInt8, _ weights: Contributions, _ lines: Int,
            _ write: (Int, Int, [UInt8]) -> Void
        ) {
            for t in 0..<weights.targetLength {
                for p in 0..<lines {
                    var pixel = (0..<channels).map { c -> UInt8 in
                        var sum = Int(Contributions.half)
                        for k in 0..<weights.counts[t] {
                            sum += Int(weights.weights[weights.offsets[t] + k]) * Int(read(weights.firsts[t] + k, p, c))
                        }
                        return UInt8(min(max(sum >> Int(Contributions.precision), 0), 255))
                    }
                    if channels == 4 { for c in 0..<3 { pixel[c] = min(pixel[c], pixel[3]) } }
                    write(t, p, pixel)
                }
            }
        }
        var tall = Bitmap(size: Size(width: image.size.width, height: size.height), alpha: image.alpha)
        pass({ image.pixels[($0 * image.size.width + $1) * channels + $2] }, down, image.size.width) { y, x, pixel in
            for c in 0..<channels { tall.pixels[(y * image.size.width + x) * channels + c] = pixel[c] }
        }
        var result = Bitmap(size: size, alpha: image.alpha)
        pass({ tall.pixels[($1 * image.size.width + $0) * channels + $2] }, across, size.height) { x, y, pixel in
            for c in 0..<channels { result.pixels[(y * size.width + x) * channels + c] = pixel[c] }
        }
        return result
    }

    @Test(
        "Lanczos passes equal the plain weighted sums of their definition, pixel for pixel",
        arguments: [
            (Size(width: 61, height: 47), Size(width: 29, height: 23), 3),  // lines of odd lengths, tails past 16
            (Size(width: 64, height: 40), Size(width: 31, height: 19), 4),
            (Size(width: 23, height: 31), Size(width: 47, height: 62), 3),  // enlargement: short groups of lines
            (Size(width: 9, height: 7), Size(width: 3, height: 2), 4),
        ])
    func plainSums(source: Size, target: Size, channels: Int) {
        let image = ResamplerTests.noise(source, channels: channels, seed: UInt64(source.width * 1000 + target.width))
        let whole = Region(x: 0, y: 0, width: Double(source.width), height: Double(source.height))
        #expect(Resampler.resize(image, to: target) == ResamplerTests.plainPasses(image, to: target, region: whole))
        let part = Region(x: 3.25, y: 1.5, width: Double(source.width) * 0.6, height: Double(source.height) * 0.7)
        #expect(
            Resampler.resize(image, to: target, region: part)
                == ResamplerTests.plainPasses(image, to: target, region: part))
    }

    @Test("weights kept from an earlier resize are those made afresh, past the number kept and back")
    func keptWeights() {
        // More keys than are kept, each asked for three times: made, kept, and made again after
        // the others emptied the memo. Every two keys differ, and for each part of a key some
        // differ in that part alone.
        let keys = (0..<48).map { (i: Int) -> Contributions.Key in
            let start: Double = 0.25 * Double((i / 6) % 2)
            let extent: Double = 280 - 0.5 * Double((i / 12) % 2)
            let source = 300 + (i / 3) % 2 + 2 * ((i / 24) % 2)
            return Contributions.Key(sourceLength: source, start: start, extent: extent, targetLength: 17 + i % 3)
        }
        #expect(Set(keys).count == keys.count && keys.count > Contributions.recentCount)
        // And one too large to keep (an enlargement to 100,000 px: 3.6 MB of weights).
        let huge = Contributions.Key(sourceLength: 300, start: 0, extent: 300, targetLength: 100_000)
        #expect(
            Contributions(sourceLength: 300, start: 0, extent: 300, targetLength: 100_000).bytes
                > Contributions.recentBytes)
        for _ in 0..<3 {
            for key in keys + [huge] + keys.reversed() {
                let kept = Contributions.of(
                    sourceLength: key.sourceLength, start: key.start, extent: key.extent, targetLength: key.targetLength
                )
                let made = Contributions(
                    sourceLength: key.sourceLength, start: key.start, extent: key.extent, targetLength: key.targetLength
                )
                #expect(kept.targetLength == made.targetLength && kept.firsts == made.firsts)
                #expect(kept.counts == made.counts && kept.offsets == made.offsets && kept.weights == made.weights)
                #expect(Contributions.keptBytes <= Contributions.recentBytes)
            }
        }
    }

    @Test(
        "the box average is each block's rounded mean; blocks cut by the edges average what they have",
        arguments: [(3, 2, 3), (4, 5, 3), (1, 3, 4), (7, 7, 4), (2, 2, 3), (2, 2, 4)])
    func boxMeans(kx: Int, ky: Int, channels: Int) {
        let image = Self.noise(Size(width: 37, height: 23), channels: channels, seed: UInt64(kx * 10 + ky))
        let result = BoxShrink.shrink(image, byX: kx, y: ky)
        #expect(result.size == Size(width: (37 + kx - 1) / kx, height: (23 + ky - 1) / ky))
        for y in 0..<result.size.height {
            for x in 0..<result.size.width {
                let xs = (x * kx)..<min(37, x * kx + kx), ys = (y * ky)..<min(23, y * ky + ky)
                let count = xs.count * ys.count
                var expected: [UInt8] = []
                for c in 0..<channels {
                    let sum = ys.reduce(0) { total, sy in xs.reduce(total) { $0 + Int(image.pixel(x: $1, y: sy)[c]) } }
                    expected.append(UInt8((sum + count / 2) / count))
                }
                #expect(result.pixel(x: x, y: y) == expected, "(\(x), \(y))")
            }
        }
    }

    /// Separable Lanczos3 in double precision, straight from the definition: the reference
    /// the fixed-point passes must agree with.
    static func reference(_ image: Bitmap, to size: Size, region: Region) -> [Double] {
        func weights(length: Int, start: Double, extent: Double, target: Int) -> [[(Int, Double)]] {
            let scale = extent / Double(target), reach = 3 * max(1, scale)
            return (0..<target).map { i in
                let centre = start + (Double(i) + 0.5) * scale
                let taps =
                    (max(0, Int((centre - reach).rounded(.down)))..<min(length, Int((centre + reach).rounded(.up)))).map
                { j -> (Int, Double) in
                    let x = (Double(j) + 0.5 - centre) / max(1, scale)
                    let value = x == 0 ? 1 : abs(x) >= 3 ? 0 : 3 * sin(.pi * x) * sin(.pi * x / 3) / (.pi * .pi * x * x)
                    return (j, value)
                }
                let total = taps.reduce(0) { $0 + $1.1 }
                return taps.map { ($0.0, $0.1 / total) }
            }
        }
        let across = weights(length: image.size.width, start: region.x, extent: region.width, target: size.width)
        let down = weights(length: image.size.height, start: region.y, extent: region.height, target: size.height)
        let channels = image.channels
        var out: [Double] = []
        for y in 0..<size.height {
            for x in 0..<size.width {
                for c in 0..<channels {
                    var sum = 0.0
                    for (sy, wy) in down[y] {
                        for (sx, wx) in across[x] {
                            sum += wy * wx * Double(image.pixels[(sy * image.size.width + sx) * channels + c])
                        }
                    }
                    out.append(min(255, max(0, sum)))
                }
            }
        }
        return out
    }

    @Test(
        "the fixed-point passes agree with double-precision Lanczos3 on noise, whole images and regions",
        arguments: [
            (Size(width: 90, height: 70), Size(width: 31, height: 29), nil as Region?, 3),
            (
                Size(width: 90, height: 70), Size(width: 40, height: 17), Region(x: 23.5, y: 11, width: 50, height: 40),
                3
            ),
            (Size(width: 64, height: 64), Size(width: 27, height: 20), Region(x: 30, y: 9, width: 34, height: 50), 4),
            (Size(width: 20, height: 15), Size(width: 47, height: 33), nil, 4),
        ])
    func agreesWithReference(from: Size, to: Size, region: Region?, channels: Int) {
        let image = Self.noise(from, channels: channels, seed: 7, mild: true)
        let whole = region ?? Region(x: 0, y: 0, width: Double(from.width), height: Double(from.height))
        let result = Resampler.resize(image, to: to, region: region)
        let expected = Self.reference(image, to: to, region: whole)
        let errors = zip(result.pixels, expected).map { abs(Double($0) - $1) }
        // Two roundings to bytes (after each pass) and 14-bit weights: at most a level and a bit.
        #expect(errors.max()! <= 1.5)
        #expect(errors.reduce(0, +) / Double(errors.count) < 0.4)
    }
}
