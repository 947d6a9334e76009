import WallCore

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
    public static func resize(_ image: Bitmap, to size: Size, region: Region? = nil, linear: Bool = false) -> Bitmap {
        precondition(image.alpha != .straight, "premultiply before resampling")
        precondition(!size.isEmpty && !image.size.isEmpty)
        var region =
            region
            ?? Region(
                x: 0, y: 0, width: Double(image.size.width), height: Double(image.size.height))
        if region == Region(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
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
            region = Region(
                x: region.x / Double(boxX), y: region.y / Double(boxY),
                width: region.width / Double(boxX), height: region.height / Double(boxY))
        }
        let vertical = Contributions(
            sourceLength: source.size.height, start: region.y, extent: region.height,
            targetLength: size.height)
        let horizontal = Contributions(
            sourceLength: source.size.width, start: region.x, extent: region.width,
            targetLength: size.width)
        // Down first: that pass runs along whole rows, where it vectorises, and leaves the
        // pass across (one pixel at a time) only the target's rows.
        let columns = horizontal.sourceRange
        let tall = convolveColumns(source, columns: columns, with: vertical)
        return convolveRows(tall, columnOffset: columns.lowerBound, with: horizontal)
    }

    /// The integer box factor for a reduction by `scale`: leave between 2 and 4 for Lanczos.
    static func boxFactor(_ scale: Double) -> Int {
        scale >= 4 ? Int(scale / 2) : 1
    }

    /// Vertical pass over the source columns `columns`: the result is `columns.count` wide.
    private static func convolveColumns(_ source: Bitmap, columns: Range<Int>, with weights: Contributions) -> Bitmap {
        let channels = source.channels
        let height = weights.targetLength
        let length = columns.count * channels
        var result = Bitmap(size: Size(width: columns.count, height: height), alpha: source.alpha)
        let sourceRowBytes = source.rowBytes
        let acc = UnsafeMutablePointer<Int32>.allocate(capacity: length)
        defer { acc.deallocate() }
        source.pixels.withUnsafeBufferPointer { src in
            result.pixels.withUnsafeMutableBufferPointer { dst in
                weights.withBuffers { firsts, counts, offsets, w in
                    let left = src.baseAddress! + columns.lowerBound * channels
                    for y in 0..<height {
                        acc.update(repeating: Int32(Contributions.half), count: length)
                        let first = firsts[y]
                        let base = offsets[y]
                        let count = counts[y]
                        var k = 0
                        // Two rows at a time: half the trips through the sums.
                        while k + 1 < count {
                            let w0 = Int32(w[base + k]), w1 = Int32(w[base + k + 1])
                            let row0 = left + (first + k) * sourceRowBytes
                            let row1 = row0 + sourceRowBytes
                            for i in 0..<length {
                                acc[i] &+= Int32(row0[i]) &* w0 &+ Int32(row1[i]) &* w1
                            }
                            k += 2
                        }
                        if k < count {
                            let w0 = Int32(w[base + k])
                            let row0 = left + (first + k) * sourceRowBytes
                            for i in 0..<length { acc[i] &+= Int32(row0[i]) &* w0 }
                        }
                        let out = dst.baseAddress! + y * length
                        if channels == 4 {
                            var i = 0
                            while i < length {
                                store((acc[i], acc[i + 1], acc[i + 2], acc[i + 3]), channels: 4, to: out + i)
                                i += 4
                            }
                        } else {
                            for i in 0..<length { out[i] = clampShift(acc[i]) }
                        }
                    }
                }
            }
        }
        return result
    }

    /// Horizontal pass; `tall` holds source columns from `columnOffset` on.
    private static func convolveRows(_ tall: Bitmap, columnOffset: Int, with weights: Contributions) -> Bitmap {
        let channels = tall.channels
        let width = weights.targetLength
        var result = Bitmap(size: Size(width: width, height: tall.size.height), alpha: tall.alpha)
        let sourceRowBytes = tall.rowBytes
        let resultRowBytes = result.rowBytes
        tall.pixels.withUnsafeBufferPointer { src in
            result.pixels.withUnsafeMutableBufferPointer { dst in
                weights.withBuffers { firsts, counts, offsets, w in
                    for y in 0..<tall.size.height {
                        let srcRow = src.baseAddress! + y * sourceRowBytes
                        let dstRow = dst.baseAddress! + y * resultRowBytes
                        if channels == 4 {
                            for x in 0..<width {
                                var p = srcRow + (firsts[x] - columnOffset) * 4
                                var sums = (
                                    Contributions.half, Contributions.half, Contributions.half, Contributions.half
                                )
                                for k in offsets[x]..<offsets[x] + counts[x] {
                                    let weight = Int32(w[k])
                                    sums.0 &+= Int32(p[0]) &* weight
                                    sums.1 &+= Int32(p[1]) &* weight
                                    sums.2 &+= Int32(p[2]) &* weight
                                    sums.3 &+= Int32(p[3]) &* weight
                                    p += 4
                                }
                                store(sums, channels: 4, to: dstRow + x * 4)
                            }
                        } else {
                            for x in 0..<width {
                                var p = srcRow + (firsts[x] - columnOffset) * 3
                                var sums = (Contributions.half, Contributions.half, Contributions.half)
                                for k in offsets[x]..<offsets[x] + counts[x] {
                                    let weight = Int32(w[k])
                                    sums.0 &+= Int32(p[0]) &* weight
                                    sums.1 &+= Int32(p[1]) &* weight
                                    sums.2 &+= Int32(p[2]) &* weight
                                    p += 3
                                }
                                store((sums.0, sums.1, sums.2, 0), channels: 3, to: dstRow + x * 3)
                            }
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
    var weights: [Int16] = []

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
            weights.append(contentsOf: fixed[first..<last].map { Int16(clamping: $0) })
        }
    }

    /// Runs `body` with the firsts, counts, offsets and weights as buffers: read in the
    /// resampler's inner loops without arrays' checks.
    func withBuffers<R>(
        _ body: (
            _ firsts: UnsafeBufferPointer<Int>, _ counts: UnsafeBufferPointer<Int>, _ offsets: UnsafeBufferPointer<Int>,
            _ weights: UnsafeBufferPointer<Int16>
        ) -> R
    ) -> R {
        firsts.withUnsafeBufferPointer { firsts in
            counts.withUnsafeBufferPointer { counts in
                offsets.withUnsafeBufferPointer { offsets in
                    weights.withUnsafeBufferPointer { weights in body(firsts, counts, offsets, weights) }
                }
            }
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
