import Testing
import WallCompositor
import WallCore

@Suite("Linear light")
struct LinearLightTests {
    func checkerboard() -> Bitmap {
        var image = Bitmap(size: Size(width: 64, height: 64), alpha: .none)
        for y in 0..<64 {
            for x in 0..<64 where (x + y) % 2 == 0 { for c in 0..<3 { image.pixels[(y * 64 + x) * 3 + c] = 255 } }
        }
        return image
    }

    @Test("black and white average to half the light (sRGB 188), not half the code value (128)")
    func averagesLight() {
        let linear = Resampler.resize(checkerboard(), to: Size(width: 8, height: 8), linear: true)
        let encoded = Resampler.resize(checkerboard(), to: Size(width: 8, height: 8))
        #expect(
            linear.pixels.allSatisfy { abs(Int($0) - 188) <= 2 }, "\(linear.pixels.min()!)...\(linear.pixels.max()!)")
        #expect(encoded.pixels.allSatisfy { abs(Int($0) - 128) <= 2 })
    }

    @Test("flat colours and alpha survive the round trip")
    func flat() {
        for color: [UInt8] in [[0, 0, 0], [255, 255, 255], [12, 200, 77], [1, 2, 3]] {
            let image = Bitmap(size: Size(width: 50, height: 30), alpha: .none, fill: color)
            let result = Resampler.resize(image, to: Size(width: 7, height: 5), linear: true)
            #expect(result.pixel(x: 3, y: 2) == color)
        }
        // Half-transparent white over transparent: straight colour stays white.
        var rgba = Bitmap(size: Size(width: 40, height: 40), alpha: .premultiplied, fill: [128, 128, 128, 128])
        rgba = Resampler.resize(rgba, to: Size(width: 10, height: 10), linear: true)
        #expect(rgba.pixel(x: 5, y: 5) == [128, 128, 128, 128])
    }
}
