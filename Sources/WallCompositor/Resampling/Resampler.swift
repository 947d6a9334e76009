import CKernels
import Synchronization
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
    /// light rather than on sRGB-encoded values. `halved` is `image` halved, as ``halved(_:)``
    /// makes it, when the caller has it already: a box step that halves both ways takes it.
    public static func resize(
        _ image: Bitmap, to size: Size, region: Region? = nil, linear: Bool = false, halved: Bitmap? = nil
    ) -> Bitmap {
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
            if boxX == 2, boxY == 2, let halved {
                precondition(
                    halved.size == BoxShrinkStream.shrunk(image.size, by: (2, 2)) && halved.alpha == image.alpha)
                source = halved
            } else {
                source = BoxShrink.shrink(image, byX: boxX, y: boxY)
            }
            region = Region(
                x: region.x / Double(boxX), y: region.y / Double(boxY),
                width: region.width / Double(boxX), height: region.height / Double(boxY))
        }
        let vertical = Contributions.of(
            sourceLength: source.size.height, start: region.y, extent: region.height,
            targetLength: size.height)
        let horizontal = Contributions.of(
            sourceLength: source.size.width, start: region.x, extent: region.width,
            targetLength: size.width)
        // Down first, so that the pass across meets only the target's rows. Each pass reads
        // whole lines and writes its result turned a quarter: the pass across is then the same
        // pass down the turned lines, and turns the pixels back as it writes them.
        let columns = horizontal.sourceRange
        let channels = source.channels
        // Each pass writes every byte of its output: neither is cleared first.
        let turnedCount = columns.count * size.height * channels
        let turned = [UInt8](unsafeUninitializedCapacity: turnedCount) { dst, initialized in
            source.pixels.withUnsafeBufferPointer { src in
                convolve(
                    lines: src.baseAddress! + columns.lowerBound * channels, lineBytes: source.rowBytes,
                    pixels: columns.count, channels: channels, with: vertical,
                    into: dst.baseAddress!, pixelBytes: size.height * channels)
            }
            initialized = turnedCount
        }
        return Bitmap(size: size, alpha: source.alpha) { dst in
            turned.withUnsafeBufferPointer { src in
                let shifted = Contributions(shifting: horizontal, by: -columns.lowerBound)
                convolve(
                    lines: src.baseAddress!, lineBytes: size.height * channels, pixels: size.height,
                    channels: channels, with: shifted, into: dst.baseAddress!, pixelBytes: size.width * channels)
            }
        }
    }

    /// `image` halved both ways, each pixel the mean of a 2 × 2 block (an odd last column or
    /// row averaged alone): a reduction by exactly two, as a rendition half another's size is
    /// made, at a tenth of a Lanczos pass's cost. RGB or premultiplied RGBA.
    public static func halved(_ image: Bitmap) -> Bitmap {
        precondition(image.alpha != .straight, "premultiply before resampling")
        return BoxShrink.shrink(image, byX: 2, y: 2)
    }

    /// Rows `rows` of ``halved(_:)``'s result, into `out` (its first row there): they need only
    /// `image`'s rows 2 × `rows.lowerBound` up to 2 × `rows.upperBound`, so a halved image can be
    /// made a few rows at a time as the rows above it are made.
    public static func halve(_ image: Bitmap, rows: Range<Int>, into out: UnsafeMutablePointer<UInt8>) {
        precondition(image.alpha != .straight, "premultiply before resampling")
        BoxShrink.halve(image, rows: rows, into: out)
    }

    /// The integer box factor for a reduction by `scale`: leave between 2 and 4 for Lanczos.
    static func boxFactor(_ scale: Double) -> Int {
        scale >= 4 ? Int(scale / 2) : 1
    }

    /// One pass down `lines` (each `pixels` pixels of `channels` bytes, `lineBytes` apart):
    /// target line `t` is the weighted sum of the source lines its contributions name, and its
    /// pixel `p` is written at `into + t * channels + p * pixelBytes`.
    private static func convolve(
        lines: UnsafePointer<UInt8>, lineBytes: Int, pixels: Int, channels: Int, with weights: Contributions,
        into destination: UnsafeMutablePointer<UInt8>, pixelBytes: Int
    ) {
        let length = pixels * channels
        // Sums for `block` target lines at a time, so that each pixel's write is one run of
        // `block * channels` bytes rather than a byte here and there.
        let block = 4
        let acc = UnsafeMutablePointer<Int32>.allocate(capacity: block * length)
        defer { acc.deallocate() }
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: block * length + 4)
        defer { scratch.deallocate() }
        weights.withBuffers { firsts, counts, offsets, w in
            var t0 = 0
            while t0 < weights.targetLength {
                let rows = min(block, weights.targetLength - t0)
                for q in 0..<rows {
                    let t = t0 + q
                    // The C twin of ``add(lines:lineBytes:weights:into:length:splat:)``: the same sums.
                    iw_add_lines(
                        IW_KERNEL_BEST, lines + firsts[t] * lineBytes, lineBytes, w.baseAddress! + offsets[t],
                        counts[t],
                        acc + q * length, length, Contributions.half)
                }
                // The C twin of ``store(sums:rows:length:channels:into:pixelBytes:)``: the same bytes.
                iw_store_lines(
                    IW_KERNEL_BEST, acc, rows, length, channels, destination + t0 * channels, pixelBytes,
                    Int32(Contributions.precision), t0 + rows == weights.targetLength ? 1 : 0, scratch)
                t0 += rows
            }
        }
    }

    /// Lines of sums to bytes, the definition of the passes' last step, whose C twin
    /// (`iw_store_lines`) the passes run and the tests hold to it: `rows` lines of `length` sums
    /// made bytes (shifted down by the weights' precision, held to 0...255), then pixel `p` of
    /// line `q` written at `into + q * channels + p * pixelBytes`, a premultiplied colour no
    /// larger than its alpha.
    static func store(
        sums: UnsafePointer<Int32>, rows: Int, length: Int, channels: Int, into out: UnsafeMutablePointer<UInt8>,
        pixelBytes: Int
    ) {
        for q in 0..<rows {
            for p in 0..<length / channels {
                let pixel = sums + q * length + p * channels, target = out + q * channels + p * pixelBytes
                let bytes = (0..<channels).map {
                    UInt8(truncatingIfNeeded: min(max(pixel[$0] >> Contributions.precision, 0), 255))
                }
                for c in 0..<channels { target[c] = channels == 4 && c < 3 ? min(bytes[c], bytes[3]) : bytes[c] }
            }
        }
    }

    /// Repeats of each weight across the sums of a block: see ``add(lines:lineBytes:weights:into:length:splat:)``.
    private static let lanes = 16

    /// `sums` (`length` of them) set to the rounding half plus the weighted sum of the lines from
    /// `lines` on, `weights.count` of them, four at a time: the definition of the pass's inner
    /// loop, whose C twin (`iw_add_lines`, plain, SSE2 or AVX2 as the CPU allows) the passes run
    /// and the tests hold to it. Each weight of a group is repeated
    /// across `splat` and read back from memory inside the loop: seen next to its pixel as a
    /// 16-bit value, it lets the compiler multiply in 16-bit lanes (pmaddwd) instead of
    /// emulating 32-bit products.
    static func add(
        lines: UnsafePointer<UInt8>, lineBytes: Int, weights: UnsafeBufferPointer<Int16>,
        into sums: UnsafeMutablePointer<Int32>, length: Int, splat: UnsafeMutablePointer<Int16>
    ) {
        sums.update(repeating: Contributions.half, count: length)
        var line = lines
        var k = 0
        while k < weights.count {
            let group = min(4, weights.count - k)
            for g in 0..<4 { (splat + g * lanes).update(repeating: g < group ? weights[k + g] : 0, count: lanes) }
            // A group of fewer than four lines reads its last line again with weight 0.
            let l0 = line, l1 = line + min(1, group - 1) * lineBytes
            let l2 = line + min(2, group - 1) * lineBytes, l3 = line + min(3, group - 1) * lineBytes
            var i = 0
            while i + lanes <= length {
                for j in 0..<lanes {
                    let first: Int32 =
                        Int32(l0[i + j]) &* Int32(splat[j]) &+ Int32(l1[i + j]) &* Int32(splat[lanes + j])
                    let second: Int32 =
                        Int32(l2[i + j]) &* Int32(splat[2 * lanes + j]) &+ Int32(l3[i + j])
                        &* Int32(splat[3 * lanes + j])
                    sums[i + j] &+= first &+ second
                }
                i += lanes
            }
            while i < length {
                let first: Int32 = Int32(l0[i]) &* Int32(splat[0]) &+ Int32(l1[i]) &* Int32(splat[lanes])
                let second: Int32 = Int32(l2[i]) &* Int32(splat[2 * lanes]) &+ Int32(l3[i]) &* Int32(splat[3 * lanes])
                sums[i] &+= first &+ second
                i += 1
            }
            line += group * lineBytes
            k += group
        }
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

    /// What a set of weights maps: equal keys, equal weights.
    struct Key: Hashable {
        var sourceLength: Int
        var start: Double
        var extent: Double
        var targetLength: Int
    }

    /// The weights of the last resizes, by what they map, and the bytes they hold: the tiles of
    /// a sheet, and of a batch's variants, are mostly of a few sizes cut from pictures of a few
    /// sizes, and each set costs a sine or two a weight. Emptied when full.
    private static let recent = Mutex<(sets: [Key: Contributions], bytes: Int)>(([:], 0))
    /// At most this many sets are kept (a tile's are a few kilobytes)…
    static let recentCount = 32
    /// …holding at most this many bytes: a set for a huge target is made each time.
    static let recentBytes = 2 << 20

    /// The bytes the kept sets hold.
    static var keptBytes: Int { recent.withLock { $0.bytes } }

    /// The bytes the arrays of this set hold.
    var bytes: Int { (firsts.count + counts.count + offsets.count) * MemoryLayout<Int>.stride + weights.count * 2 }

    /// The weights ``init(sourceLength:start:extent:targetLength:)`` makes, kept for the next
    /// resize that asks for the same.
    static func of(sourceLength: Int, start: Double, extent: Double, targetLength: Int) -> Contributions {
        let key = Key(sourceLength: sourceLength, start: start, extent: extent, targetLength: targetLength)
        if let kept = recent.withLock({ $0.sets[key] }) { return kept }
        let made = Contributions(sourceLength: sourceLength, start: start, extent: extent, targetLength: targetLength)
        let bytes = made.bytes
        guard bytes <= recentBytes else { return made }
        recent.withLock { kept in
            if kept.sets.count >= recentCount || kept.bytes + bytes > recentBytes {
                kept.sets.removeAll(keepingCapacity: true)
                kept.bytes = 0
            }
            if kept.sets.updateValue(made, forKey: key) == nil { kept.bytes += bytes }
        }
        return made
    }

    /// `other` read from a source that starts `offset` pixels later (`firsts` moved by `offset`).
    init(shifting other: Contributions, by offset: Int) {
        self = other
        firsts = other.firsts.map { $0 + offset }
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
