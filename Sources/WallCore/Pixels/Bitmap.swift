/// How a bitmap's fourth channel is to be read.
public enum AlphaMode: Sendable, Hashable {
    /// Three channels, RGB, fully opaque.
    case none
    /// Four channels, RGBA, colour not multiplied by alpha.
    case straight
    /// Four channels, RGBA, colour already multiplied by alpha.
    case premultiplied

    /// Bytes per pixel.
    public var channels: Int { self == .none ? 3 : 4 }
}

/// An owned, tightly packed 8-bit RGB or RGBA image.
public struct Bitmap: Sendable, Equatable {
    /// Size in pixels.
    public private(set) var size: Size
    /// What the fourth channel means, if there is one.
    public var alpha: AlphaMode
    /// The samples, row after row, `channels` bytes a pixel.
    public var pixels: [UInt8]

    /// Bytes per pixel.
    public var channels: Int { alpha.channels }
    /// Bytes per row.
    public var rowBytes: Int { size.width * channels }

    /// A bitmap filled with `fill`, which holds one pixel's channels.
    public init(size: Size, alpha: AlphaMode, fill: [UInt8]? = nil) {
        precondition(size.width >= 0 && size.height >= 0)
        self.size = size
        self.alpha = alpha
        let count = size.width * size.height * alpha.channels
        if let fill, fill.contains(where: { $0 != 0 }) {
            precondition(fill.count == alpha.channels)
            self.pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                buffer.fill(repeating: fill, count: count)
                initialized = count
            }
        } else {
            self.pixels = [UInt8](repeating: 0, count: count)
        }
    }

    /// A bitmap whose samples `initialize` writes, every one of them, before any is read: a
    /// decoder's rows or a resampler's pass, without first clearing memory they overwrite.
    public init(
        size: Size, alpha: AlphaMode, initializingWith initialize: (UnsafeMutableBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        precondition(size.width >= 0 && size.height >= 0)
        self.size = size
        self.alpha = alpha
        let count = size.width * size.height * alpha.channels
        self.pixels = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try initialize(buffer)
            initialized = count
        }
    }

    /// Wraps existing samples; `pixels.count` must match the size and alpha mode.
    public init(size: Size, alpha: AlphaMode, pixels: [UInt8]) {
        precondition(pixels.count == size.width * size.height * alpha.channels)
        self.size = size
        self.alpha = alpha
        self.pixels = pixels
    }

    /// The channels of the pixel at (`x`, `y`).
    public func pixel(x: Int, y: Int) -> [UInt8] {
        let start = (y * size.width + x) * channels
        return Array(pixels[start..<start + channels])
    }

    /// The mean of each channel over `rect`, clipped to the bitmap.
    public func mean(in rect: Rect) -> [Double] {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(size.width, rect.maxX), y1 = min(size.height, rect.maxY)
        var sums = [Double](repeating: 0, count: channels)
        guard x1 > x0, y1 > y0 else { return sums }
        for y in y0..<y1 {
            var start = (y * size.width + x0) * channels
            for _ in x0..<x1 {
                for c in 0..<channels { sums[c] += Double(pixels[start + c]) }
                start += channels
            }
        }
        let count = Double((x1 - x0) * (y1 - y0))
        return sums.map { $0 / count }
    }
}
