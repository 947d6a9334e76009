import WallCore

/// A part of a source image, in source pixels (fractions allowed), shown in a tile.
public struct SourceRegion: Hashable, Sendable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// Creates a region.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// Resizes bitmaps the way libvips' thumbnail does: an integer box average for the bulk of a
/// big reduction, then a Lanczos3 pass for the rest, at least a factor of two of it whenever
/// the reduction allows.
///
/// Works on RGB or premultiplied RGBA (resampling straight alpha darkens edges). Edge pixels
/// are handled by renormalising the kernel over the pixels that exist, so edges keep their
/// colour.
public enum Resampler {
    /// `image` (or its `region`) resized to exactly `size`; with `linear`, filtered in linear
    /// light rather than on sRGB-encoded values.
    public static func resize(_ image: Bitmap, to size: Size, region: SourceRegion? = nil, linear: Bool = false) -> Bitmap {
        precondition(image.alpha != .straight, "premultiply before resampling")
        precondition(!size.isEmpty && !image.size.isEmpty)
        var region = region ?? SourceRegion(
            x: 0, y: 0, width: Double(image.size.width), height: Double(image.size.height))
        if region == SourceRegion(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
            && image.size == size
        {
            return image
        }
        if linear {
            return LinearLight.resize(image, to: size, region: region)
        }
        var source = image
        let boxX = boxFactor(region.width / Double(size.width))
        let boxY = boxFactor(region.height / Double(size.height))
        if boxX > 1 || boxY > 1 {
            source = BoxShrink.shrink(image, byX: boxX, y: boxY)
            region = SourceRegion(
                x: region.x / Double(boxX), y: region.y / Double(boxY),
                width: region.width / Double(boxX), height: region.height / Double(boxY))
        }
        let vertical = Contributions(
            sourceLength: source.size.height, start: region.y, extent: region.height,
            targetLength: size.height)
        let horizontal = Contributions(
            sourceLength: source.size.width, start: region.x, extent: region.width,
            targetLength: size.width)
        let rows = vertical.sourceRange
        let wide = convolveRows(source, rows: rows, with: horizontal)
        return convolveColumns(wide, rowOffset: rows.lowerBound, with: vertical)
    }

    /// The integer box factor for a reduction by `scale`: leave between 2 and 4 for Lanczos.
    static func boxFactor(_ scale: Double) -> Int {
        scale >= 4 ? Int(scale / 2) : 1
    }

    /// Horizontal pass over the source rows `rows`.
    private static func convolveRows(_ source: Bitmap, rows: Range<Int>, with weights: Contributions) -> Bitmap {
        let channels = source.channels
        let width = weights.targetLength
        var result = Bitmap(size: Size(width: width, height: rows.count), alpha: source.alpha)
        let sourceRowBytes = source.rowBytes
        let resultRowBytes = result.rowBytes
        source.pixels.withUnsafeBufferPointer { src in
            result.pixels.withUnsafeMutableBufferPointer { dst in
                weights.weights.withUnsafeBufferPointer { w in
                    for (outRow, row) in rows.enumerated() {
                        let srcRow = src.baseAddress! + row * sourceRowBytes
                        let dstRow = dst.baseAddress! + outRow * resultRowBytes
                        for x in 0..<width {
                            let first = weights.firsts[x]
                            let count = weights.counts[x]
                            let base = weights.offsets[x]
                            var sums = (Int32(Contributions.half), Int32(Contributions.half), Int32(Contributions.half), Int32(Contributions.half))
                            var p = srcRow + first * channels
                            for k in 0..<count {
                                let weight = w[base + k]
                                sums.0 &+= Int32(p[0]) &* weight
                                sums.1 &+= Int32(p[1]) &* weight
                                sums.2 &+= Int32(p[2]) &* weight
                                if channels == 4 { sums.3 &+= Int32(p[3]) &* weight }
                                p += channels
                            }
                            store(sums, channels: channels, to: dstRow + x * channels)
                        }
                    }
                }
            }
        }
        return result
    }

    /// Vertical pass; `wide` holds source rows from `rowOffset` on.
    private static func convolveColumns(_ wide: Bitmap, rowOffset: Int, with weights: Contributions) -> Bitmap {
        let channels = wide.channels
        let height = weights.targetLength
        var result = Bitmap(size: Size(width: wide.size.width, height: height), alpha: wide.alpha)
        let rowBytes = wide.rowBytes
        var sums = [Int32](repeating: 0, count: rowBytes)
        wide.pixels.withUnsafeBufferPointer { src in
            result.pixels.withUnsafeMutableBufferPointer { dst in
                sums.withUnsafeMutableBufferPointer { acc in
                    for y in 0..<height {
                        let first = weights.firsts[y] - rowOffset
                        let base = weights.offsets[y]
                        for i in 0..<rowBytes { acc[i] = Int32(Contributions.half) }
                        for k in 0..<weights.counts[y] {
                            let weight = weights.weights[base + k]
                            let row = src.baseAddress! + (first + k) * rowBytes
                            for i in 0..<rowBytes { acc[i] &+= Int32(row[i]) &* weight }
                        }
                        let out = dst.baseAddress! + y * rowBytes
                        if channels == 4 {
                            var i = 0
                            while i < rowBytes {
                                store((acc[i], acc[i + 1], acc[i + 2], acc[i + 3]), channels: 4, to: out + i)
                                i += 4
                            }
                        } else {
                            for i in 0..<rowBytes { out[i] = clampShift(acc[i]) }
                        }
                    }
                }
            }
        }
        return result
    }

    @inline(__always)
    private static func clampShift(_ value: Int32) -> UInt8 {
        let shifted = value >> Contributions.precision
        return shifted < 0 ? 0 : shifted > 255 ? 255 : UInt8(shifted)
    }

    /// Stores one pixel; premultiplied colour is kept no larger than its alpha.
    @inline(__always)
    private static func store(_ sums: (Int32, Int32, Int32, Int32), channels: Int, to p: UnsafeMutablePointer<UInt8>) {
        var r = clampShift(sums.0), g = clampShift(sums.1), b = clampShift(sums.2)
        if channels == 4 {
            let a = clampShift(sums.3)
            r = min(r, a)
            g = min(g, a)
            b = min(b, a)
            p[3] = a
        }
        p[0] = r
        p[1] = g
        p[2] = b
    }
}

/// Fixed-point Lanczos3 weights for one axis: for each target pixel, the first source pixel
/// and the weights of the pixels from there on.
struct Contributions {
    static let precision: Int32 = 14
    static let one: Int32 = 1 << precision
    static let half: Int32 = 1 << (precision - 1)

    let targetLength: Int
    var firsts: [Int] = []
    var counts: [Int] = []
    var offsets: [Int] = []
    var weights: [Int32] = []

    /// Weights mapping source pixels `start ..< start + extent` onto `targetLength` pixels.
    init(sourceLength: Int, start: Double, extent: Double, targetLength: Int) {
        self.targetLength = targetLength
        let scale = extent / Double(targetLength)
        let filterScale = max(1, scale)
        let support = 3 * filterScale
        firsts.reserveCapacity(targetLength)
        for i in 0..<targetLength {
            let center = start + (Double(i) + 0.5) * scale
            var low = Int((center - support).rounded(.down))
            var high = Int((center + support).rounded(.up))
            low = max(0, low)
            high = min(sourceLength, high)
            if high <= low {  // region outside the source: take the nearest edge pixel
                low = min(max(0, Int(center)), sourceLength - 1)
                high = low + 1
            }
            var real: [Double] = []
            real.reserveCapacity(high - low)
            for j in low..<high {
                real.append(Contributions.lanczos3((Double(j) + 0.5 - center) / filterScale))
            }
            var total = real.reduce(0, +)
            if abs(total) < 1e-9 {
                real = real.map { _ in 1 }
                total = Double(real.count)
            }
            var fixed = real.map { Int32(($0 / total * Double(Contributions.one)).rounded()) }
            // Make the weights sum to exactly one so flat areas stay flat.
            let error = Contributions.one - fixed.reduce(0, +)
            if let largest = fixed.indices.max(by: { fixed[$0] < fixed[$1] }) { fixed[largest] += error }
            // Trim zero weights at both ends.
            var first = 0, last = fixed.count
            while first < last - 1 && fixed[first] == 0 { first += 1 }
            while last > first + 1 && fixed[last - 1] == 0 { last -= 1 }
            firsts.append(low + first)
            counts.append(last - first)
            offsets.append(weights.count)
            weights.append(contentsOf: fixed[first..<last])
        }
    }

    /// The source pixels any target pixel reads.
    var sourceRange: Range<Int> {
        let low = firsts.min() ?? 0
        let high = zip(firsts, counts).map { $0 + $1 }.max() ?? 0
        return low..<high
    }

    static func lanczos3(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= 3 { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
