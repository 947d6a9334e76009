import WallCore

/// Conversions between straight and premultiplied alpha, and flattening over a colour.
public enum Alpha {
    /// Straight RGBA to premultiplied; other bitmaps are returned as they are.
    public static func premultiplied(_ image: Bitmap) -> Bitmap {
        guard image.alpha == .straight else { return image }
        var result = image
        result.alpha = .premultiplied
        result.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = UInt32(p[i + 3])
                if a != 255 {
                    for c in 0..<3 { p[i + c] = UInt8((UInt32(p[i + c]) * a + 127) / 255) }
                }
                i += 4
            }
        }
        return result
    }

    /// RGB as opaque RGBA (premultiplied, which opaque pixels are either way); RGBA is returned
    /// premultiplied.
    public static func premultipliedRGBA(_ image: Bitmap) -> Bitmap {
        guard image.alpha == .none else { return premultiplied(image) }
        let count = image.size.width * image.size.height
        var pixels = [UInt8](repeating: 255, count: count * 4)
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for i in 0..<count {
                    target[4 * i] = source[3 * i]
                    target[4 * i + 1] = source[3 * i + 1]
                    target[4 * i + 2] = source[3 * i + 2]
                }
            }
        }
        return Bitmap(size: image.size, alpha: .premultiplied, pixels: pixels)
    }

    /// Premultiplied RGBA back to straight.
    public static func straightened(_ image: Bitmap) -> Bitmap {
        guard image.alpha == .premultiplied else { return image }
        var result = image
        result.alpha = .straight
        result.pixels.withUnsafeMutableBufferPointer { straighten($0) }
        return result
    }

    /// Premultiplied RGBA samples to straight, in place.
    static func straighten(_ p: UnsafeMutableBufferPointer<UInt8>) {
        var i = 0
        while i < p.count {
            let a = UInt32(p[i + 3])
            if a != 255 && a != 0 {
                for c in 0..<3 { p[i + c] = UInt8(min(255, (UInt32(p[i + c]) * 255 + a / 2) / a)) }
            }
            i += 4
        }
    }

    /// RGB, or premultiplied RGBA drawn over the opaque `background`, as RGB.
    public static func flattened(_ image: Bitmap, over background: RGBAColor) -> Bitmap {
        switch image.alpha {
        case .none: return image
        case .straight: return flattened(premultiplied(image), over: background)
        case .premultiplied: break
        }
        var result = Bitmap(size: image.size, alpha: .none)
        let bg = [UInt32(background.red), UInt32(background.green), UInt32(background.blue)]
        let count = image.size.width * image.size.height
        image.pixels.withUnsafeBufferPointer { src in
            result.pixels.withUnsafeMutableBufferPointer { dst in
                for i in 0..<count {
                    let a = UInt32(src[4 * i + 3])
                    for c in 0..<3 {
                        dst[3 * i + c] = UInt8(min(255, UInt32(src[4 * i + c]) + (bg[c] * (255 - a) + 127) / 255))
                    }
                }
            }
        }
        return result
    }
}
