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
        sums = [UInt32](repeating: 0, count: size.width * channels)
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

    /// Adds the next source row (`sourceSize.width × channels` bytes).
    public mutating func add(row: UnsafePointer<UInt8>) {
        let width = sourceSize.width, kx = factorX, channels = self.channels
        let premultiplies = channels == 4 && fourthIsAlpha
        sums.withUnsafeMutableBufferPointer { acc in
            var x = 0, out = 0
            while x < width {
                let end = min(x + kx, width)
                var p = row + x * channels
                if !premultiplies && channels == 4 {
                    var s0: UInt32 = 0, s1: UInt32 = 0, s2: UInt32 = 0, s3: UInt32 = 0
                    for _ in x..<end {
                        s0 &+= UInt32(p[0]); s1 &+= UInt32(p[1]); s2 &+= UInt32(p[2]); s3 &+= UInt32(p[3])
                        p += 4
                    }
                    acc[out] &+= s0; acc[out + 1] &+= s1; acc[out + 2] &+= s2; acc[out + 3] &+= s3
                } else if channels == 4 {
                    var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0, a: UInt32 = 0
                    for _ in x..<end {
                        let alpha = UInt32(p[3])
                        r &+= UInt32(p[0]) &* alpha
                        g &+= UInt32(p[1]) &* alpha
                        b &+= UInt32(p[2]) &* alpha
                        a &+= alpha
                        p += 4
                    }
                    acc[out] &+= r; acc[out + 1] &+= g; acc[out + 2] &+= b; acc[out + 3] &+= a
                } else {
                    var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                    for _ in x..<end {
                        r &+= UInt32(p[0]); g &+= UInt32(p[1]); b &+= UInt32(p[2])
                        p += 3
                    }
                    acc[out] &+= r; acc[out + 1] &+= g; acc[out + 2] &+= b
                }
                x = end
                out += channels
            }
        }
        rowsInBlock += 1
        if rowsInBlock == factorY { emitRow() }
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
        result.pixels.withUnsafeMutableBufferPointer { out in
            sums.withUnsafeMutableBufferPointer { acc in
                for x in 0..<width {
                    let count = UInt32(min(kx, sourceWidth - x * kx)) * rows
                    let mean = count == whole.divisor ? whole : ExactDivisor(count)
                    let a = x * channels
                    if premultiplies {
                        let alpha = acc[a + 3]
                        for c in 0..<3 {
                            out[start + a + c] = alpha == 0 ? 0 : UInt8(min(255, (acc[a + c] + alpha / 2) / alpha))
                        }
                        out[start + a + 3] = UInt8(mean.rounded(alpha))
                    } else {
                        for c in 0..<channels { out[start + a + c] = UInt8(mean.rounded(acc[a + c])) }
                    }
                    for c in 0..<channels { acc[a + c] = 0 }
                }
            }
        }
        rowsInBlock = 0
        outputRow += 1
    }
}
