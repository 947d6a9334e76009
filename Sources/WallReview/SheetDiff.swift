import ImageWall
import WallCodecs
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Pixel-by-pixel comparison of two sheets, for visual-regression fixtures.
public enum SheetDiff {
    /// When two pixels count as different.
    public struct Options: Sendable, Equatable {
        /// Channel differences up to this count as equal (0–255).
        public var tolerance = 0
        /// A perceptual threshold, 0–1, as pixelmatch's: pixels whose colour difference in YIQ
        /// (brightness weighted most) is at most this share of the largest possible are equal.
        /// `nil`: channel differences alone decide.
        public var threshold: Double?
        /// Leave out of the changed pixels those that only show an edge moved by under a pixel
        /// (anti-aliasing: a resample of a shifted source). They are counted apart either way.
        public var ignoreAntialiasing = false
        /// Areas left out of the comparison (tiles named by `--ignore`), on both sheets.
        public var ignored: [Rect] = []
        /// Areas drawn by a decoder that rounds otherwise on other CPUs (tiles with an
        /// ``Manifest/Tile/inexactDecoder``): there a pixel one level apart is that rounding,
        /// counted apart, while an area holds at most ``roundingShare`` of them (libjxl's measured
        /// at most 0.04 %); beyond that, all of them count as changed.
        public var rounding: [Rect] = []

        /// The share of an area's pixels the per-CPU rounding may account for.
        public static let roundingShare = 0.01
        /// Allow no rounding: every pixel one level apart counts, whatever decoded it.
        public var exact = false

        /// Whether some differing pixels pass as equal (a threshold or a tolerance), so that a
        /// change spread thinly over a tile needs a test of its own.
        public var passesSomeDifferences: Bool { threshold != nil || tolerance > 0 }

        /// Exact comparison.
        public init() {}
    }

    /// What differs between two images of the same size.
    public struct Result: Sendable, Equatable {
        /// The size both images have.
        public var size: Size
        /// Pixels that differ (see ``Options``), anti-aliased ones included unless ignored.
        public var changedPixels: Int
        /// Of the pixels that differ, those that only show an edge moved by under a pixel.
        public var antialiasedPixels = 0
        /// Pixels in ignored areas.
        public var ignoredPixels = 0
        /// Pixels one level apart in rounding areas, taken for the decoder's per-CPU rounding.
        public var roundedPixels = 0
        /// The largest difference of any channel anywhere outside ignored areas, 0–255.
        public var maxDelta: Int

        /// Changed pixels as a share of all, 0–1.
        public var changedFraction: Double {
            Double(changedPixels) / Double(max(1, size.width * size.height))
        }
    }

    /// Two images that cannot be compared pixel by pixel.
    public struct SizeMismatch: WallError, Equatable {
        /// The first image's size.
        public var a: Size
        /// The second image's size.
        public var b: Size
        /// Both sizes, as the command prints them.
        public var message: String { "the images differ in size: \(a) and \(b)" }
    }

    /// Compares `a` and `b` with channel `tolerance` alone (see ``compare(_:_:options:)``).
    public static func compare(_ a: Bitmap, _ b: Bitmap, tolerance: Int) throws(SizeMismatch) -> (
        result: Result, mask: [Bool], picture: Bitmap
    ) {
        var options = Options()
        options.tolerance = tolerance
        return try compare(a, b, options: options)
    }

    /// Compares `a` and `b` (RGB or RGBA; a missing alpha counts as opaque). Returns the result,
    /// the per-pixel change mask (1 where changed) and, when `drawing`, a picture of the changes
    /// over a faded copy of `a`: changed pixels red, anti-aliased ones yellow, ignored areas
    /// blue-grey (else an empty bitmap). Rows that are byte for byte the same are passed over.
    /// With `rows`, only those rows are compared (and drawn, and in the mask); the others are
    /// read around them, as neighbours.
    public static func compare(
        _ a: Bitmap, _ b: Bitmap, options: Options, drawing: Bool = true, rows: Range<Int>? = nil
    ) throws(SizeMismatch) -> (result: Result, mask: [Bool], picture: Bitmap) {
        guard a.size == b.size else { throw SizeMismatch(a: a.size, b: b.size) }
        let width = a.size.width, count = width * a.size.height
        let compared = rows?.clamped(to: 0..<a.size.height) ?? 0..<a.size.height
        let offset = compared.lowerBound * width
        var mask = [Bool](repeating: false, count: width * compared.count)
        var skip = [Bool](repeating: false, count: options.ignored.isEmpty ? 0 : count)
        for rect in options.ignored {
            let x0 = min(max(0, rect.x), width), y0 = min(max(0, rect.y), a.size.height)
            let xs = x0..<max(x0, min(width, rect.maxX)), ys = y0..<max(y0, min(a.size.height, rect.maxY))
            for y in ys { for x in xs { skip[y * width + x] = true } }
        }
        // Each pixel's rounding area (its index in `options.rounding`), -1 where none.
        var area = [Int](repeating: -1, count: options.rounding.isEmpty ? 0 : count)
        for (n, rect) in options.rounding.enumerated() {
            let x0 = min(max(0, rect.x), width), y0 = min(max(0, rect.y), a.size.height)
            let xs = x0..<max(x0, min(width, rect.maxX)), ys = y0..<max(y0, min(a.size.height, rect.maxY))
            for y in ys { for x in xs { area[y * width + x] = n } }
        }
        var rounded = [[Int]](repeating: [], count: options.rounding.count)  // each area's pixels one level apart
        var picture = Bitmap(size: drawing ? a.size : Size(width: 0, height: 0), alpha: .none)
        var changed = 0, antialiased = 0, ignored = 0, maxDelta = 0
        let ca = a.channels, cb = b.channels
        // pixelmatch's scale: the largest YIQ difference, between black and white, is 35215.
        let limit = options.threshold.map { 35215 * $0 * $0 }
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                picture.pixels.withUnsafeMutableBufferPointer { out in
                    let first = Pixels(data: pa, channels: ca, width: width, height: a.size.height)
                    let second = Pixels(data: pb, channels: cb, width: width, height: a.size.height)
                    for y in compared {
                        let rowStart = y * width
                        // A row the same to the byte (and nothing ignored in it) has nothing to count.
                        if ca == cb && skip.isEmpty
                            && memcmp(pa.baseAddress! + rowStart * ca, pb.baseAddress! + rowStart * cb, width * ca) == 0
                        {
                            if drawing {
                                for i in rowStart..<rowStart + width {
                                    let faded = UInt8(191 + first.luma(i) / 4)
                                    out[i * 3] = faded; out[i * 3 + 1] = faded; out[i * 3 + 2] = faded
                                }
                            }
                            continue
                        }
                        for i in rowStart..<rowStart + width {
                            if !skip.isEmpty && skip[i] {
                                ignored += 1
                                if drawing { out[i * 3] = 150; out[i * 3 + 1] = 160; out[i * 3 + 2] = 200 }
                                continue
                            }
                            var delta = 0
                            for c in 0..<4 { delta = max(delta, abs(first.channel(i, c) - second.channel(i, c))) }
                            maxDelta = max(maxDelta, delta)
                            var differs = delta > options.tolerance
                            if differs, let limit { differs = Pixels.yiqDistance(first, second, i) > limit }
                            if differs, delta == 1, !area.isEmpty, area[i] >= 0 {
                                rounded[area[i]].append(i)
                                if drawing {
                                    let faded = UInt8(191 + first.luma(i) / 4)
                                    out[i * 3] = faded; out[i * 3 + 1] = faded; out[i * 3 + 2] = faded
                                }
                                continue
                            }
                            if differs {
                                let x = i % width, y = i / width
                                let edge =
                                    first.isEdgeBlend(x, y, comparedTo: second)
                                    || second.isEdgeBlend(x, y, comparedTo: first)
                                if edge { antialiased += 1 }
                                if !(edge && options.ignoreAntialiasing) {
                                    changed += 1
                                    mask[i - offset] = true
                                }
                                if drawing {
                                    (out[i * 3], out[i * 3 + 1], out[i * 3 + 2]) = edge ? (250, 200, 0) : (255, 0, 0)
                                }
                            } else if drawing {
                                let faded = UInt8(191 + first.luma(i) / 4)  // a light grey ghost of `a`
                                out[i * 3] = faded; out[i * 3 + 1] = faded; out[i * 3 + 2] = faded
                            }
                        }
                    }
                }
            }
        }
        // An area with more pixels one level apart than the rounding accounts for has changed:
        // all of them count.
        var roundedCount = 0
        for (n, pixels) in rounded.enumerated() where !pixels.isEmpty {
            let rect = options.rounding[n]
            let rows = max(0, min(compared.upperBound, rect.maxY) - max(compared.lowerBound, rect.y))
            let inside = max(0, min(width, rect.maxX) - max(0, rect.x)) * rows
            if Double(pixels.count) <= Options.roundingShare * Double(inside) {
                roundedCount += pixels.count
                continue
            }
            changed += pixels.count
            for i in pixels {
                mask[i - offset] = true
                if drawing {
                    (picture.pixels[i * 3], picture.pixels[i * 3 + 1], picture.pixels[i * 3 + 2]) = (255, 0, 0)
                }
            }
        }
        var result = Result(
            size: a.size, changedPixels: changed, antialiasedPixels: antialiased, ignoredPixels: ignored,
            maxDelta: maxDelta)
        result.roundedPixels = roundedCount
        return (result, mask, picture)
    }

    /// An image's pixels as the comparison reads them (RGBA, opaque when without alpha).
    struct Pixels {
        let data: UnsafeBufferPointer<UInt8>
        let channels: Int
        let width: Int
        let height: Int

        func channel(_ i: Int, _ c: Int) -> Int {
            c == 3 ? (channels == 4 ? Int(data[i * 4 + 3]) : 255) : Int(data[i * channels + c])
        }

        /// Brightness 0–255 (Rec. 601 weights).
        func luma(_ i: Int) -> Int {
            (299 * channel(i, 0) + 587 * channel(i, 1) + 114 * channel(i, 2)) / 1000
        }

        /// The colour as YIQ of the pixel blended over white by its alpha.
        func yiq(_ i: Int) -> (Double, Double, Double) {
            let alpha = Double(channel(i, 3)) / 255
            let r = 255 + (Double(channel(i, 0)) - 255) * alpha
            let g = 255 + (Double(channel(i, 1)) - 255) * alpha
            let b = 255 + (Double(channel(i, 2)) - 255) * alpha
            return (
                0.29889531 * r + 0.58662247 * g + 0.11448223 * b, 0.59597799 * r - 0.27417610 * g - 0.32180189 * b,
                0.21147017 * r - 0.52261711 * g + 0.31114694 * b
            )
        }

        /// The perceptual distance of pixel `i` in `a` and `b`: brightness weighted over the
        /// two colour axes (0.5053, 0.299, 0.1957), as pixelmatch weighs them.
        static func yiqDistance(_ a: Pixels, _ b: Pixels, _ i: Int) -> Double {
            let p = a.yiq(i), q = b.yiq(i)
            let y = p.0 - q.0, ii = p.1 - q.1, qq = p.2 - q.2
            return 0.5053 * y * y + 0.299 * ii * ii + 0.1957 * qq * qq
        }

        /// Whether pixel (x, y) is a blend on an edge: among its neighbours some are darker and
        /// some brighter, few are the same, and the darkest or brightest sits in a flat area in
        /// both images, so that the difference comes from the edge having moved by under a
        /// pixel, not from new content.
        func isEdgeBlend(_ x: Int, _ y: Int, comparedTo other: Pixels) -> Bool {
            let center = luma(y * width + x)
            var same = 0, darkest = 0, brightest = 0
            var darkAt = (0, 0), brightAt = (0, 0)
            for ny in max(0, y - 1)...min(height - 1, y + 1) {
                for nx in max(0, x - 1)...min(width - 1, x + 1) where nx != x || ny != y {
                    let delta = luma(ny * width + nx) - center
                    if delta == 0 {
                        same += 1
                        if same > 2 { return false }
                    } else if delta < darkest {
                        (darkest, darkAt) = (delta, (nx, ny))
                    } else if delta > brightest {
                        (brightest, brightAt) = (delta, (nx, ny))
                    }
                }
            }
            guard darkest < 0, brightest > 0 else { return false }
            return (isFlat(darkAt) && other.isFlat(darkAt)) || (isFlat(brightAt) && other.isFlat(brightAt))
        }

        /// Whether at least three neighbours of `point` have exactly its colour.
        func isFlat(_ point: (Int, Int)) -> Bool {
            let (x, y) = point, i = y * width + x
            var same = 0
            for ny in max(0, y - 1)...min(height - 1, y + 1) {
                for nx in max(0, x - 1)...min(width - 1, x + 1) where nx != x || ny != y {
                    let j = ny * width + nx
                    if (0..<4).allSatisfy({ channel(i, $0) == channel(j, $0) }) {
                        same += 1
                        if same > 2 { return true }
                    }
                }
            }
            return false
        }
    }

    /// Decodes an image file for comparison: pixels as stored, no colour conversion.
    public static func load(_ path: String) throws -> Bitmap {
        let info = try ImageProbe(maxImagePixels: Int.max).probe(path: path)
        var decoder = ImageDecoder()
        decoder.convertsToSRGB = false
        return try decoder.decode(path: path, info: info).bitmap
    }
}
