import ImageWall
import Testing
import WallCodecs
import WallCompositor
import WallCore
import WallPages
import _WallTestSupport

@testable import WallGallery

@Suite("Gallery renditions")
struct PictureRenditionsTests {
    /// A picture `size` with alpha falling across it where `alpha`, premultiplied as the
    /// renditions take it.
    static func picture(_ size: Size, alpha: Bool) -> Bitmap {
        let scene = Scenes.picture(seed: 5, size: size)
        guard alpha else { return scene }
        var pixels = [UInt8]()
        pixels.reserveCapacity(size.width * size.height * 4)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let a = 255 - (x + y) * 200 / (size.width + size.height)
                pixels += scene.pixel(x: x, y: y).map { UInt8((Int($0) * a + 127) / 255) } + [UInt8(a)]
            }
        }
        return Bitmap(size: size, alpha: .premultiplied, pixels: pixels)
    }

    @Test(
        "each rendition is the one above halved (or resampled), flattened and encoded whole",
        arguments: [(Size(width: 2000, height: 1501), false, 1), (Size(width: 1001, height: 2003), true, 2)])
    func sameAsWhole(decoded: Size, alpha: Bool, halved: Int) throws {
        let folder = TemporaryFolder()
        let renditions = PictureRenditions(decoder: ImageDecoder(), quality: 85, site: folder.path)
        let image = PictureRenditionsTests.picture(decoded, alpha: alpha)
        let sides = PictureRenditions.sides(long: max(decoded.width, decoded.height))
        let halvedDecode = try renditions.write(
            DecodedImage(bitmap: image, warnings: []), shown: decoded, sides: sides, key: "k")
        var options = JPEGEncodeOptions(storage: .ycbcr)
        options.quality = 85
        options.optimizedTables = false
        var above = image
        var halvings = 0
        for side in sides.sorted(by: >) {
            let size = RenditionWriter.fitted(decoded, side: side)
            if above.size != size {
                let half = RenditionWriter.half(of: above.size) == size
                halvings += half ? 1 : 0
                above = half ? Resampler.halved(above) : Resampler.resize(above, to: size)
            }
            let expected = folder.file("expected-\(side).jpg")
            try JPEGEncoder.write(
                samples: Alpha.flattened(above, over: .white).pixels, size: size, options: options, to: expected)
            let made = Fixtures.read(folder.path + "/" + SitePaths.rendition("k", side: side))
            #expect(made != nil && made == Fixtures.read(expected), "\(side) px")
        }
        // 2000 x 1501: 2000 as decoded, 1000 x 751 halved, 500 x 375 resampled from it (not 376);
        // 1001 x 2003: 2000 resampled, 1000 and 500 halved.
        #expect(halvings == halved)
        // The decode halved is given back when a rendition is it (the 2000 px one the decode
        // itself), for the tiles to start from; not when the largest was resampled.
        let expected: Bitmap? = decoded.width == 2000 ? Resampler.halved(image) : nil
        #expect(halvedDecode == expected)
    }
}
