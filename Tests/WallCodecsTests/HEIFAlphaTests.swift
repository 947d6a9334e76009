import Testing
import WallCore
import _WallTestSupport

@testable import WallCodecs

@Suite("HEIF and AVIF: alpha as stored")
struct HEIFAlphaTests {
    /// A picture whose alpha falls from opaque on the left to 64 on the right, straight.
    static func faded() -> Bitmap {
        let picture = Scenes.picture(seed: 11, size: Size(width: 256, height: 96))
        var pixels = [UInt8]()
        pixels.reserveCapacity(256 * 96 * 4)
        for y in 0..<96 {
            for x in 0..<256 {
                pixels += picture.pixel(x: x, y: y)
                pixels.append(UInt8(255 - x * 191 / 255))
            }
        }
        return Bitmap(size: picture.size, alpha: .straight, pixels: pixels)
    }

    /// `image` with its colour multiplied by its alpha, rounded.
    static func premultiplied(_ image: Bitmap) -> Bitmap {
        var pixels = image.pixels
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = Int(pixels[i + 3])
            for c in 0..<3 { pixels[i + c] = UInt8((Int(pixels[i + c]) * alpha + 127) / 255) }
        }
        return Bitmap(size: image.size, alpha: .premultiplied, pixels: pixels)
    }

    @Test("premultiplied colour (prem) is decoded straight, whole and shrunk", arguments: [false, true])
    func premultipliedIsStraightened(av1: Bool) throws {
        let folder = TemporaryFolder()
        var options = HEIFEncodeOptions()
        options.av1 = av1
        options.quality = 100
        options.lossless = true
        let straight = folder.file("straight." + (av1 ? "avif" : "heic"))
        let multiplied = folder.file("multiplied." + (av1 ? "avif" : "heic"))
        try HEIFEncoder.write(HEIFAlphaTests.faded(), options: options, to: straight)
        try HEIFEncoder.write(HEIFAlphaTests.premultiplied(HEIFAlphaTests.faded()), options: options, to: multiplied)
        for target in [nil, Size(width: 64, height: 24)] {
            let decoder = ImageDecoder()
            let expected = try decoder.decode(path: straight, info: ImageProbe().probe(path: straight), target: target)
            let decoded = try decoder.decode(
                path: multiplied, info: ImageProbe().probe(path: multiplied), target: target
            )
            .bitmap
            #expect(decoded.alpha == .straight && decoded.size == expected.bitmap.size)
            // Where alpha is 64, premultiplied colour left as it is would be a quarter of the
            // straight one; straightened, it differs by the coding's error, enlarged by 255 / alpha.
            var worst = 0
            for i in stride(from: 0, to: decoded.pixels.count, by: 4) {
                #expect(abs(Int(decoded.pixels[i + 3]) - Int(expected.bitmap.pixels[i + 3])) <= 2)
                for c in 0..<3 {
                    worst = max(worst, abs(Int(decoded.pixels[i + c]) - Int(expected.bitmap.pixels[i + c])))
                }
            }
            #expect(worst <= 12, "\(worst)")
        }
    }
}
