import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCompositor
import WallCore
import _WallTestSupport

/// The thumbnail a camera keeps in EXIF (IFD1): found from the header, decoded and turned as the
/// picture is, refused when it is of another shape or lies outside its block; what `--stack`
/// fingerprints a camera's JPEG from, near enough to the whole picture's fingerprint.
@Suite("EXIF thumbnails")
struct EmbeddedThumbnailTests {
    let folder = TemporaryFolder()

    /// A JPEG of `picture` with an APP1 EXIF block holding orientation `orientation` and a
    /// thumbnail (IFD1, a JPEG of `thumbnail`); `claimed` overrides the thumbnail's length.
    func write(
        _ picture: Bitmap, thumbnail: Bitmap, orientation: UInt8 = 1, claimed: Int? = nil, to name: String
    ) throws -> String {
        func jpeg(_ bitmap: Bitmap, _ path: String) throws -> [UInt8] {
            try JPEGEncoder.write(
                samples: bitmap.pixels, size: bitmap.size, options: JPEGEncodeOptions(storage: .ycbcr), to: path)
            return try #require(Fixtures.read(path))
        }
        let small = try jpeg(thumbnail, folder.file(name + ".thumb"))
        let main = try jpeg(picture, folder.file(name + ".main"))
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 255)] }
        func u32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24), UInt8((v >> 16) & 255), UInt8((v >> 8) & 255), UInt8(v & 255)]
        }
        // Big-endian TIFF: IFD0 (orientation) at 8, IFD1 (the thumbnail) at 26, its bytes at 68.
        var tiff: [UInt8] = [0x4D, 0x4D, 0, 42] + u32(8)
        tiff += u16(1) + u16(0x0112) + u16(3) + u32(1) + [0, orientation, 0, 0] + u32(26)
        tiff += u16(3) + u16(0x0103) + u16(3) + u32(1) + u16(6) + [0, 0]
        tiff += u16(0x0201) + u16(4) + u32(1) + u32(68) + u16(0x0202) + u16(4) + u32(1) + u32(claimed ?? small.count)
        tiff += u32(0) + small
        let exif = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1] + u16(exif.count + 2) + exif
        return folder.write([0xFF, 0xD8] + segment + main.dropFirst(2), to: name)
    }

    @Test("found from the header and decoded upright, as the picture is turned")
    func decoded() throws {
        let scene = Scenes.picture(seed: 21)
        let small = Resampler.resize(scene, to: Size(width: 120, height: 80))
        let path = try write(scene, thumbnail: small, orientation: 6, to: "turned.jpg")
        let info = try ImageProbe().probe(path: path)
        #expect(info.displayedSize == Size(width: 320, height: 480))
        #expect(info.embeddedThumbnail?.count ?? 0 > 100)
        let thumbnail = try #require(ImageDecoder().decodeEmbeddedThumbnail(path: path, info: info))
        #expect(thumbnail.bitmap.size == Size(width: 80, height: 120))
        // What --stack compares: within a few bits of the whole picture's fingerprint.
        let whole = PictureFingerprint(of: try ImageDecoder().decode(path: path, info: info).bitmap)
        let fromThumbnail = try #require(PictureFingerprint.read(path: path, info: info))
        #expect(whole.distance(to: fromThumbnail) <= 6 && whole.colorDistance(to: fromThumbnail) <= 3)
    }

    @Test("refused: a thumbnail of another shape, one cut short, one claiming to reach past its block")
    func refused() throws {
        let scene = Scenes.picture(seed: 22)
        let boxed = try write(
            scene, thumbnail: Resampler.resize(scene, to: Size(width: 80, height: 80)), to: "boxed.jpg")
        let boxedInfo = try ImageProbe().probe(path: boxed)
        #expect(boxedInfo.embeddedThumbnail != nil)
        #expect(ImageDecoder().decodeEmbeddedThumbnail(path: boxed, info: boxedInfo) == nil)

        let small = Resampler.resize(scene, to: Size(width: 120, height: 80))
        let past = try write(scene, thumbnail: small, claimed: 1 << 20, to: "past.jpg")
        #expect(try ImageProbe().probe(path: past).embeddedThumbnail == nil)
        let cut = try write(scene, thumbnail: small, claimed: 300, to: "cut.jpg")
        let cutInfo = try ImageProbe().probe(path: cut)
        #expect(cutInfo.embeddedThumbnail?.count == 300)
        #expect(ImageDecoder().decodeEmbeddedThumbnail(path: cut, info: cutInfo) == nil)
        // Without one, the picture is decoded small: the fingerprint is there all the same.
        let plain = Fixtures.sample("landscape-baseline-420.jpg")
        let plainInfo = try ImageProbe().probe(path: plain)
        #expect(plainInfo.embeddedThumbnail == nil)
        #expect(PictureFingerprint.read(path: plain, info: plainInfo) != nil)
    }

    @Test("a real file's thumbnail (../shared/corpora) is read", .enabled(if: Fixtures.corpora != nil))
    func corpus() throws {
        let path = Fixtures.corpora! + "/jpeg-decoder-tests/reftest/images/ycck.jpg"
        guard FileManager.default.fileExists(atPath: path) else { return }
        let info = try ImageProbe().probe(path: path)
        let thumbnail = try #require(ImageDecoder().decodeEmbeddedThumbnail(path: path, info: info))
        #expect(thumbnail.bitmap.size.width >= 32)
    }
}
