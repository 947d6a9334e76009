import Testing
import WallCodecs
import WallCore
import _WallTestSupport

/// JPEGs with stray bytes where a marker belongs, as cameras, editors and broken uploads
/// write them: libjpeg (and libvips, Pillow) skip to the next marker with a warning, so the
/// header reader must too.
@Suite("JPEG: stray bytes before a marker")
struct JPEGStrayBytesTests {
    let folder = TemporaryFolder()

    /// `sample`'s bytes with `junk` put between its first two marker segments.
    func withJunk(_ sample: String, _ junk: [UInt8]) throws -> [UInt8] {
        let bytes = try #require(Fixtures.read(Fixtures.sample(sample)))
        let first = 2 + 2 + (Int(bytes[4]) << 8 | Int(bytes[5]))  // after SOI and the first segment
        return Array(bytes[..<first]) + junk + Array(bytes[first...])
    }

    @Test(
        "the image is probed and drawn as libjpeg draws it, with libjpeg's warning",
        arguments: [[0x00, 0x11, 0x22], [0xFF, 0x00, 0x41], [UInt8](repeating: 0x20, count: 70_000)])
    func strayBytes(junk: [UInt8]) throws {
        let original = Fixtures.sample("orientation-6.jpg")
        let path = folder.write(try withJunk("orientation-6.jpg", junk), to: "junk.jpg")
        let info = try ImageProbe().probe(path: path)
        let plain = try ImageProbe().probe(path: original)
        #expect(info.storedSize == plain.storedSize && info.orientation == plain.orientation)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        let reference = try ImageDecoder().decode(path: original, info: plain)
        #expect(decoded.bitmap.pixels == reference.bitmap.pixels)
        #expect(decoded.warnings.contains { $0.contains("extraneous bytes before marker") }, "\(decoded.warnings)")
    }

    @Test("junk to the end of the file is a truncated file, named as such, not a hang")
    func junkToTheEnd() {
        let path = folder.write([0xFF, 0xD8] + [UInt8](repeating: 0x41, count: 200_000), to: "all-junk.jpg")
        #expect(throws: CodecError.self) { try ImageProbe().probe(path: path) }
        let fill = folder.write([0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 140_000), to: "all-fill.jpg")
        #expect(throws: CodecError.self) { try ImageProbe().probe(path: fill) }
    }
}
