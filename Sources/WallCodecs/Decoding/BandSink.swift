import WallCore

/// Where a picture converted a band of rows at a time goes: box-shrunk as the rows arrive when
/// the target allows a shrink (``BoxShrinkStream``, as ``Bitmap/boxShrunk(target:margin:)``
/// averages, so the bytes are the same as a whole bitmap's shrink), else written straight into
/// the full-size bitmap. Either way no second full-size copy of the picture is held.
struct BandSink {
    /// The picture's size, before any shrink.
    let size: Size
    /// Bytes a pixel, 3 or 4.
    let channels: Int
    private var stream: BoxShrinkStream?
    private var whole: Bitmap?

    /// Bytes a band is meant to hold (a band is at least one row).
    static let bandBytes = 1 << 20

    init(size: Size, alpha: AlphaMode, target: Size?, margin: Int) {
        self.size = size
        channels = alpha.channels
        let factors = target.map { BoxShrinkStream.factors(stored: size, target: $0, margin: margin) } ?? (x: 1, y: 1)
        if factors.x > 1 || factors.y > 1 {
            stream = BoxShrinkStream(sourceSize: size, channels: channels, factorX: factors.x, factorY: factors.y)
        } else {
            whole = Bitmap(size: size, alpha: alpha)
        }
    }

    /// Rows a band holds: about ``bandBytes``, at least one.
    var bandHeight: Int { max(1, min(size.height, BandSink.bandBytes / max(1, size.width * channels))) }

    /// Whether the rows are shrunk as they arrive (else kept whole).
    var shrinks: Bool { stream != nil }

    /// Calls `convert(first, count, band)` for consecutive bands of `bandHeight` rows from the
    /// top, `band` holding `count` rows of `size.width × channels` bytes to be written; stops
    /// when it returns `false` (the rows not converted are then left as they are: mid-grey when
    /// shrunk, zero when whole).
    mutating func fill(bandHeight: Int, _ convert: (Int, Int, UnsafeMutablePointer<UInt8>) -> Bool) {
        let rowBytes = size.width * channels, height = max(1, bandHeight)
        if var stream {
            self.stream = nil
            var band = [UInt8](repeating: 0, count: min(size.height, height) * rowBytes)
            band.withUnsafeMutableBufferPointer { band in
                for first in stride(from: 0, to: size.height, by: height) {
                    let count = min(height, size.height - first)
                    guard convert(first, count, band.baseAddress!) else { break }
                    for row in 0..<count { stream.add(row: band.baseAddress! + row * rowBytes) }
                }
            }
            self.stream = stream
        } else if var whole {
            self.whole = nil
            whole.pixels.withUnsafeMutableBufferPointer { pixels in
                for first in stride(from: 0, to: size.height, by: height) {
                    let count = min(height, size.height - first)
                    guard convert(first, count, pixels.baseAddress! + first * rowBytes) else { break }
                }
            }
            self.whole = whole
        }
    }

    /// The picture: shrunk, or whole.
    mutating func finish() -> Bitmap {
        if var stream {
            stream.finish()
            return stream.result
        }
        return whole ?? Bitmap(size: size, alpha: channels == 4 ? .straight : .none)
    }
}
