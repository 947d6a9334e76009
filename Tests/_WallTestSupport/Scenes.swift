import Foundation
import WallCore

/// Pictures of made-up scenes for the stacking tests: soft blobs of colour over a fine texture,
/// different for each `seed`, and views of them as a moving camera or a copy would give them.
public enum Scenes {
    /// A `size` picture of scene `seed`, its view moved `shift` pixels right and down (a pan: the
    /// scene continues beyond the picture's edges).
    public static func picture(seed: Int, size: Size = Size(width: 480, height: 320), shift: Int = 0) -> Bitmap {
        var random = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        func next() -> Double {
            random ^= random << 13
            random ^= random >> 7
            random ^= random << 17
            return Double(random % 10_000) / 10_000
        }
        let blobs = (0..<6).map { _ in
            (
                x: next() * Double(size.width), y: next() * Double(size.height), radius: 40 + next() * 160,
                color: [next() * 255, next() * 255, next() * 255]
            )
        }
        let base = [next() * 200, next() * 200, next() * 200]
        let period = 3 + next() * 6
        var bitmap = Bitmap(size: size, alpha: .none)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let sx = Double(x + shift), sy = Double(y + shift)
                var color = base
                for blob in blobs {
                    let d =
                        ((sx - blob.x) * (sx - blob.x) + (sy - blob.y) * (sy - blob.y)) / (blob.radius * blob.radius)
                    let weight = exp(-d)
                    for c in 0..<3 { color[c] = color[c] * (1 - weight) + blob.color[c] * weight }
                }
                let texture = 18 * sin(sx / period) * cos(sy / (period * 1.3))
                let at = (y * size.width + x) * 3
                for c in 0..<3 { bitmap.pixels[at + c] = UInt8(max(0, min(255, color[c] + texture))) }
            }
        }
        return bitmap
    }

    /// `picture` blurred by a `radius` box each way: a frame the camera shook on.
    public static func blurred(_ picture: Bitmap, radius: Int) -> Bitmap {
        let w = picture.size.width, h = picture.size.height, channels = picture.channels
        // Across, then down: the same box, in two passes.
        func pass(_ source: [UInt8], across: Bool) -> [UInt8] {
            var out = source
            let (lines, length) = across ? (h, w) : (w, h)
            for line in 0..<lines {
                for i in 0..<length {
                    for c in 0..<channels {
                        var sum = 0
                        let lower = max(0, i - radius), upper = min(length - 1, i + radius)
                        for j in lower...upper {
                            let (x, y) = across ? (j, line) : (line, j)
                            sum += Int(source[(y * w + x) * channels + c])
                        }
                        let (x, y) = across ? (i, line) : (line, i)
                        out[(y * w + x) * channels + c] = UInt8(sum / (upper - lower + 1))
                    }
                }
            }
            return out
        }
        return Bitmap(
            size: picture.size, alpha: picture.alpha, pixels: pass(pass(picture.pixels, across: true), across: false))
    }
}
