import WallCore

#if canImport(Glibc)
    import Glibc
#endif

/// Resampling in linear light: sRGB values are decoded to linear intensities (lookup table),
/// premultiplied there, filtered in floating point with the same box + Lanczos3 weights as
/// the 8-bit path, and encoded back (lookup table). Darker and more faithful on fine
/// high-contrast detail, at about three times the cost.
enum LinearLight {
    /// sRGB code value → linear intensity 0...1.
    static let decode: [Float] = (0..<256).map { v in
        let c = Double(v) / 255
        return Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
    }

    /// Linear intensity quantised to 16 bits → sRGB code value.
    static let encode: [UInt8] = (0..<65536).map { i in
        let l = Double(i) / 65535
        let c = l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055
        return UInt8(min(255, max(0, (c * 255).rounded())))
    }

    static func encoded(_ linear: Float) -> UInt8 {
        encode[Int(min(65535, max(0, linear * 65535 + 0.5)))]
    }

    /// Means of `kx`×`ky` blocks (partial blocks at the edges average what they have).
    static func boxShrink(_ plane: [Float], size: Size, channels: Int, byX kx: Int, y ky: Int) -> ([Float], Size) {
        let width = (size.width + kx - 1) / kx, height = (size.height + ky - 1) / ky
        var result = [Float](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            let y0 = y * ky, y1 = min(size.height, y0 + ky)
            for x in 0..<width {
                let x0 = x * kx, x1 = min(size.width, x0 + kx)
                let d = (y * width + x) * channels
                for sy in y0..<y1 {
                    for sx in x0..<x1 {
                        let s = (sy * size.width + sx) * channels
                        for c in 0..<channels { result[d + c] += plane[s + c] }
                    }
                }
                let n = Float((y1 - y0) * (x1 - x0))
                for c in 0..<channels { result[d + c] /= n }
            }
        }
        return (result, Size(width: width, height: height))
    }

    /// `image` (RGB or premultiplied RGBA, sRGB) resized in linear light; same format back.
    static func resize(_ image: Bitmap, to size: Size, region: Region) -> Bitmap {
        let channels = image.channels
        let count = image.size.width * image.size.height
        // Linear, premultiplied in linear light.
        var plane = [Float](repeating: 0, count: count * channels)
        image.pixels.withUnsafeBufferPointer { p in
            for i in 0..<count {
                let a: Float = channels == 4 ? Float(p[4 * i + 3]) / 255 : 1
                for c in 0..<3 {
                    // Straighten the 8-bit premultiplied value before decoding it.
                    let straight = a > 0 ? min(255, Int((Float(p[channels * i + c]) / a).rounded())) : 0
                    plane[channels * i + c] = decode[straight] * a
                }
                if channels == 4 { plane[4 * i + 3] = a }
            }
        }
        var source = image.size
        var region = region
        let boxX = Resampler.boxFactor(region.width / Double(size.width))
        let boxY = Resampler.boxFactor(region.height / Double(size.height))
        if boxX > 1 || boxY > 1 {
            (plane, source) = boxShrink(plane, size: source, channels: channels, byX: boxX, y: boxY)
            region = Region(
                x: region.x / Double(boxX), y: region.y / Double(boxY),
                width: region.width / Double(boxX), height: region.height / Double(boxY))
        }
        let vertical = Contributions.of(
            sourceLength: source.height, start: region.y, extent: region.height, targetLength: size.height)
        let horizontal = Contributions.of(
            sourceLength: source.width, start: region.x, extent: region.width, targetLength: size.width)
        let scale = 1 / Float(Contributions.one)
        let rows = vertical.sourceRange
        // Horizontal pass over the rows the vertical pass reads.
        var wide = [Float](repeating: 0, count: rows.count * size.width * channels)
        for (r, row) in rows.enumerated() {
            for x in 0..<size.width {
                for k in 0..<horizontal.counts[x] {
                    let w = Float(horizontal.weights[horizontal.offsets[x] + k]) * scale
                    let s = (row * source.width + horizontal.firsts[x] + k) * channels
                    let d = (r * size.width + x) * channels
                    for c in 0..<channels { wide[d + c] += plane[s + c] * w }
                }
            }
        }
        var result = Bitmap(size: size, alpha: image.alpha)
        for y in 0..<size.height {
            for x in 0..<size.width {
                var sums = [Float](repeating: 0, count: channels)
                for k in 0..<vertical.counts[y] {
                    let w = Float(vertical.weights[vertical.offsets[y] + k]) * scale
                    let s = ((vertical.firsts[y] + k - rows.lowerBound) * size.width + x) * channels
                    for c in 0..<channels { sums[c] += wide[s + c] * w }
                }
                let d = (y * size.width + x) * channels
                let a = channels == 4 ? min(1, max(0, sums[3])) : 1
                for c in 0..<3 {
                    let straight = a > 0 ? min(1, max(0, sums[c] / a)) : 0
                    // Back to sRGB, premultiplied again in 8 bits.
                    result.pixels[d + c] = UInt8((Float(encoded(straight)) * a).rounded())
                }
                if channels == 4 { result.pixels[d + 3] = UInt8((a * 255).rounded()) }
            }
        }
        return result
    }
}
