import Testing
import WallCodecs
import WallCore
import WallFiles
import _WallTestSupport

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Encoders")
struct EncoderTests {
    let folder = TemporaryFolder()

    @Test("an RGBA PNG written and read back is the same")
    func pngRoundTrip() throws {
        var bitmap = Bitmap(size: Size(width: 7, height: 5), alpha: .straight)
        for i in bitmap.pixels.indices { bitmap.pixels[i] = UInt8((i * 37) % 256) }
        let path = folder.file("round.png")
        try PNGEncoder.write(bitmap, to: path)
        let info = try ImageProbe().probe(path: path)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.bitmap == bitmap)
        #expect(Fixtures.hiddenFiles(in: folder.path).isEmpty)  // no temporary left behind
    }

    @Test("a failed write leaves neither a temporary file nor the destination")
    func atomicDiscard() throws {
        let destination = folder.file("never.png")
        do {
            let file = try AtomicFile(destination: destination)
            #expect(Fixtures.hiddenFiles(in: folder.path).count == 1)
            file.discard()
        }
        #expect(Fixtures.hiddenFiles(in: folder.path).isEmpty)
        #expect(Fixtures.read(destination) == nil)
    }

    @Test("writing into a missing folder says so: a file's error, reported by an encoder as its own")
    func missingFolder() {
        let path = folder.file("no/such/dir.png")
        #expect(throws: FileError(.write, path: path, reason: "No such file or directory")) {
            try AtomicFile(destination: path)
        }
        #expect(throws: CodecError(.write, path: path, reason: "No such file or directory")) {
            try PNGEncoder.write(Bitmap(size: Size(width: 1, height: 1), alpha: .none), to: path)
        }
    }
}
