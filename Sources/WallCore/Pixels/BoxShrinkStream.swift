/// Integer box averaging of rows as they arrive, so a large image is never held whole: each
/// output pixel is the mean of a `factorX` × `factorY` block (blocks cut by the right or
/// bottom edge average what they have). RGBA is averaged premultiplied (no dark fringes) and
/// given back with straight alpha; four channels that are not RGBA (CMYK inks) are averaged
/// each on its own.
public struct BoxShrinkStream {
    /// The size of the full image.
    public let sourceSize: Size
    /// Pixels averaged across.
    public let factorX: Int
    /// Rows averaged down.
    public let factorY: Int
    /// Bytes a pixel, 3 or 4.
    public let channels: Int
    /// With four channels: the fourth is alpha (RGBA), not a colour of its own (CMYK).
    public let fourthIsAlpha: Bool
    /// The shrunk image so far.
    public private(set) var result: Bitmap
    /// Each source column's sums (per channel) over the rows of the block so far (from its first
    /// row on; what is there before that is left from the block above), and a spare
    /// one that the last RGB column's four-lane read takes in. 32 bits hold a column of up to
    /// 66,051 rows; the sums across a block are taken in 64 bits where 32 could overflow.
    private var sums: [UInt32]
    private var rowsInBlock = 0
    private var outputRow = 0

    /// A stream shrinking a `sourceSize` image of `channels` (3: RGB, 4: straight RGBA, or
    /// four plain channels when `fourthIsAlpha` is `false`).
    public init(sourceSize: Size, channels: Int, factorX: Int, factorY: Int, fourthIsAlpha: Bool = true) {
        precondition(factorX >= 1 && factorY >= 1 && (channels == 3 || channels == 4))
        self.sourceSize = sourceSize
        self.channels = channels
        self.fourthIsAlpha = fourthIsAlpha
        self.factorX = factorX
        self.factorY = factorY
        let size = BoxShrinkStream.shrunk(sourceSize, by: (factorX, factorY))
        result = Bitmap(size: size, alpha: channels == 4 ? .straight : .none)
        sums = [UInt32](repeating: 0, count: sourceSize.width * channels + 1)
    }

    /// The box factors a `stored` image is averaged by while it is decoded for a `target`: as
    /// much as keeps both sides at least `margin` times the target's.
    public static func factors(stored: Size, target: Size, margin: Int = 2) -> (x: Int, y: Int) {
        (
            max(1, stored.width / (margin * max(1, target.width))),
            max(1, stored.height / (margin * max(1, target.height)))
        )
    }

    /// `size` averaged by `factors`: a block cut by the right or bottom edge counts whole.
    public static func shrunk(_ size: Size, by factors: (x: Int, y: Int)) -> Size {
        Size(width: (size.width + factors.x - 1) / factors.x, height: (size.height + factors.y - 1) / factors.y)
    }

    /// Rows of the source consumed so far.
    public var rowsConsumed: Int { outputRow * factorY + rowsInBlock }

    /// Adds the next source row (`sourceSize.width × channels` bytes): each byte (for RGBA, each
    /// colour times its alpha) to its column's sum, sixteen bytes at a time (a block's first row
    /// replaces the sums); the sums across a block wait for the block's last row.
    public mutating func add(row: UnsafePointer<UInt8>) {
        let length = sourceSize.width * channels
        let premultiplies = channels == 4 && fourthIsAlpha, first = rowsInBlock == 0
        sums.withUnsafeMutableBufferPointer { acc in
            let sums = UnsafeMutableRawPointer(acc.baseAddress!), bytes = UnsafeRawPointer(row)
            var i = 0
            if premultiplies {
                // Four pixels at a time, each colour times its alpha (at most 255 × 255: exact in
                // 16-bit lanes) and the alpha times 1.
                let colours = SIMD8<UInt16>(0xFFFF, 0xFFFF, 0xFFFF, 0, 0xFFFF, 0xFFFF, 0xFFFF, 0)
                let ones = SIMD8<UInt16>(0, 0, 0, 1, 0, 0, 0, 1)
                while i &+ 16 <= length {
                    let v = bytes.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                    for half in 0..<2 {
                        let wide = SIMD8<UInt16>(truncatingIfNeeded: half == 0 ? v.lowHalf : v.highHalf)
                        let alphas = SIMD8<UInt16>(
                            wide[3], wide[3], wide[3], wide[3], wide[7], wide[7], wide[7], wide[7])
                        BoxShrinkStream.add(
                            wide &* ((alphas & colours) | ones), to: sums + 4 &* (i &+ 8 &* half), first: first)
                    }
                    i &+= 16
                }
                for p in stride(from: i, to: length, by: 4) {
                    let alpha = UInt32(row[p + 3])
                    for c in 0..<3 { acc[p + c] = (first ? 0 : acc[p + c]) &+ UInt32(row[p + c]) &* alpha }
                    acc[p + 3] = (first ? 0 : acc[p + 3]) &+ alpha
                }
            } else {
                while i &+ 16 <= length {
                    let v = bytes.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                    BoxShrinkStream.add(SIMD8<UInt16>(truncatingIfNeeded: v.lowHalf), to: sums + 4 &* i, first: first)
                    BoxShrinkStream.add(
                        SIMD8<UInt16>(truncatingIfNeeded: v.highHalf), to: sums + 4 &* (i &+ 8), first: first)
                    i &+= 16
                }
                for j in i..<length { acc[j] = (first ? 0 : acc[j]) &+ UInt32(row[j]) }
            }
        }
        rowsInBlock += 1
        if rowsInBlock == factorY { emitRow() }
    }

    /// Eight values added to the eight 32-bit sums at `sums`, or with `first` put there.
    @inline(__always)
    private static func add(_ values: SIMD8<UInt16>, to sums: UnsafeMutableRawPointer, first: Bool) {
        var low = SIMD4<UInt32>(truncatingIfNeeded: values.lowHalf)
        var high = SIMD4<UInt32>(truncatingIfNeeded: values.highHalf)
        if !first {
            low &+= sums.loadUnaligned(as: SIMD4<UInt32>.self)
            high &+= sums.loadUnaligned(fromByteOffset: 16, as: SIMD4<UInt32>.self)
        }
        sums.storeBytes(of: low, as: SIMD4<UInt32>.self)
        sums.storeBytes(of: high, toByteOffset: 16, as: SIMD4<UInt32>.self)
    }

    /// Emits a last partial block, and fills rows that never arrived with mid-grey; the result
    /// is then complete.
    public mutating func finish() {
        if rowsInBlock > 0 { emitRow() }
        result.fillMissingRows(from: outputRow)
        outputRow = result.size.height
    }

    private mutating func emitRow() {
        guard outputRow < result.size.height else { return }
        let width = result.size.width, channels = self.channels, kx = factorX
        let premultiplies = channels == 4 && fourthIsAlpha
        let rows = UInt32(rowsInBlock), sourceWidth = sourceSize.width
        let start = outputRow * result.rowBytes
        let whole = ExactDivisor(UInt32(kx) * rows)  // every block but one cut by the right edge
        // Blocks whose sums, with half the divisor added for rounding, could pass 2^32 (65,536
        // RGBA pixels or more, or 16.8 million of other channels) are added across and divided
        // in 64 bits.
        let wide = UInt64(kx) * UInt64(rows) * (premultiplies ? 256 * 256 : 256) > UInt64(UInt32.max)
        result.pixels.withUnsafeMutableBufferPointer { out in
            sums.withUnsafeMutableBufferPointer { acc in
                var column = UnsafeRawPointer(acc.baseAddress!)
                var pixel = out.baseAddress! + start
                let columnBytes = 4 &* channels
                for x in 0..<width {
                    let columns = min(kx, sourceWidth &- x &* kx)
                    if wide {
                        BoxShrinkStream.widePixel(
                            column, columns: columns, columnBytes: columnBytes, rows: Int(rows), channels: channels,
                            premultiplies: premultiplies, into: pixel)
                        column += columns &* columnBytes
                        pixel += channels
                        continue
                    }
                    let mean = columns == kx ? whole : ExactDivisor(UInt32(columns) &* rows)
                    // The block's sums, its columns' sums added four lanes at a time (for RGB the
                    // fourth lane is the next column's red, unused).
                    var block = column.loadUnaligned(as: SIMD4<UInt32>.self)
                    for j in 1..<columns {
                        block &+= column.loadUnaligned(fromByteOffset: j &* columnBytes, as: SIMD4<UInt32>.self)
                    }
                    if premultiplies {
                        let alpha = block[3]
                        for c in 0..<3 {
                            pixel[c] =
                                alpha == 0 ? 0 : UInt8(truncatingIfNeeded: min(255, (block[c] &+ alpha / 2) / alpha))
                        }
                        pixel[3] = UInt8(truncatingIfNeeded: mean.rounded(alpha))
                    } else {
                        pixel[0] = UInt8(truncatingIfNeeded: mean.rounded(block[0]))
                        pixel[1] = UInt8(truncatingIfNeeded: mean.rounded(block[1]))
                        pixel[2] = UInt8(truncatingIfNeeded: mean.rounded(block[2]))
                        if channels == 4 { pixel[3] = UInt8(truncatingIfNeeded: mean.rounded(block[3])) }
                    }
                    column += columns &* columnBytes
                    pixel += channels
                }
            }
        }
        rowsInBlock = 0
        outputRow += 1
    }

    /// One pixel of a block too large for 32-bit sums: its `columns` columns' sums from `column`
    /// on added across in 64 bits, and the means taken as for any block.
    private static func widePixel(
        _ column: UnsafeRawPointer, columns: Int, columnBytes: Int, rows: Int, channels: Int, premultiplies: Bool,
        into pixel: UnsafeMutablePointer<UInt8>
    ) {
        var block = SIMD4<UInt64>(repeating: 0)
        for j in 0..<columns {
            block &+= SIMD4<UInt64>(
                truncatingIfNeeded: column.loadUnaligned(fromByteOffset: j * columnBytes, as: SIMD4<UInt32>.self))
        }
        let count = UInt64(columns * rows), alpha = block[3]
        for c in 0..<channels {
            if premultiplies && c < 3 {
                pixel[c] = alpha == 0 ? 0 : UInt8(min(255, (block[c] + alpha / 2) / alpha))
            } else {
                pixel[c] = UInt8((block[c] + count / 2) / count)
            }
        }
    }
}

extension Bitmap {
    /// The bitmap box-shrunk by whole factors that keep both sides at least `margin` times
    /// `target`'s (``BoxShrinkStream/factors(stored:target:margin:)``); itself when no factor
    /// exceeds 1. What the formats decoded whole do before resampling.
    public func boxShrunk(target: Size, margin: Int) -> Bitmap {
        let factors = BoxShrinkStream.factors(stored: size, target: target, margin: margin)
        guard factors.x > 1 || factors.y > 1 else { return self }
        var stream = BoxShrinkStream(sourceSize: size, channels: channels, factorX: factors.x, factorY: factors.y)
        pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<size.height {
                stream.add(row: pixels.baseAddress! + y * rowBytes)
            }
        }
        stream.finish()
        return stream.result
    }
}
