import Testing
import WallCore
import _WallTestSupport

@testable import WallCodecs

@Suite("JPEG data read in large pieces")
struct JPEGSourceTests {
    let folder = TemporaryFolder()

    /// A 1600 x 1200 photo-like JPEG, and the same with 256 KB of segments no one reads after
    /// its start of image: libjpeg skips them across several of the source's 64 KB reads.
    func pictures() throws -> (plain: [UInt8], padded: [UInt8]) {
        let picture = Scenes.picture(seed: 11, size: Size(width: 1600, height: 1200))
        var options = JPEGEncodeOptions(storage: .ycbcr)
        options.quality = 95
        let path = folder.file("plain.jpg")
        try JPEGEncoder.write(samples: picture.pixels, size: picture.size, options: options, to: path, durable: false)
        let plain = Fixtures.read(path)!
        var padded = Array(plain.prefix(2))
        for part in 0..<4 {
            let length = 65_533 - part * 977  // lengths that do not line up with the reads
            padded += [0xFF, 0xE9, UInt8(length >> 8), UInt8(length & 0xFF)]
            padded += [UInt8](repeating: UInt8(part + 1), count: length - 2)
        }
        padded += plain.dropFirst(2)
        return (plain, padded)
    }

    func decode(_ bytes: [UInt8], as name: String, target: Size? = nil) throws -> DecodedImage {
        let path = folder.write(bytes, to: name)
        return try ImageDecoder().decode(path: path, info: try ImageProbe().probe(path: path), target: target)
    }

    @Test("a JPEG larger than a read, with segments skipped across reads, decodes as without them")
    func skippedSegments() throws {
        let (plain, padded) = try pictures()
        #expect(plain.count > 4 * 65536)
        for target in [nil, Size(width: 400, height: 300)] {
            let expected = try decode(plain, as: "plain.jpg", target: target)
            let decoded = try decode(padded, as: "padded.jpg", target: target)
            #expect(decoded.warnings.isEmpty)
            #expect(decoded.bitmap == expected.bitmap)
        }
    }

    @Test("a large JPEG cut in its data keeps the rows that arrived, with libjpeg's warning")
    func cutInItsData() throws {
        let (plain, padded) = try pictures()
        let whole = try decode(plain, as: "plain.jpg").bitmap
        let cut = try decode(Array(padded.prefix(padded.count - plain.count / 2)), as: "cut.jpg")
        #expect(cut.warnings.first?.contains("Premature end of JPEG file") == true)
        #expect(cut.bitmap.size == whole.size)
        let rowBytes = whole.size.width * whole.channels
        let arrived = 200  // rows well inside the half that arrived
        #expect(Array(cut.bitmap.pixels.prefix(arrived * rowBytes)) == Array(whole.pixels.prefix(arrived * rowBytes)))
        #expect(cut.bitmap.pixels.suffix(rowBytes) != whole.pixels.suffix(rowBytes))
    }
}
