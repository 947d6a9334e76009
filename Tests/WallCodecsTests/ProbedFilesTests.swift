import Testing
import WallCore
import _WallTestSupport

@testable import WallCodecs

#if canImport(Glibc)
    import Glibc
#endif

@Suite("A file probed for a render is opened once for its decode")
struct ProbedFilesTests {
    final class Reading: Sendable {}

    func stamp(_ path: String) -> FileStamp { FileStamp(path: path)! }

    @Test("readings are kept only inside a scope, taken once, and dropped when the last scope ends")
    func scopes() {
        let files = ProbedFiles(capacity: 4)
        let folder = TemporaryFolder()
        let a = folder.write([1], to: "a"), b = folder.write([2], to: "b")
        files.keep(Reading(), path: a, stamp: stamp(a))
        #expect(!files.holds(a))
        weak var dropped: Reading?
        files.scoped {
            files.keep(Reading(), path: a, stamp: stamp(a))
            #expect(files.take(Reading.self, path: a, stamp: stamp(a)) != nil)
            #expect(files.take(Reading.self, path: a, stamp: stamp(a)) == nil)
            let reading = Reading()
            dropped = reading
            files.keep(reading, path: b, stamp: stamp(b))
            files.scoped { files.keep(Reading(), path: a, stamp: stamp(a)) }
            #expect(files.count == 2)  // the inner scope ended inside the outer one
        }
        #expect(files.count == 0)
        #expect(dropped == nil)  // released, its file closed
    }

    @Test("a file changed since its probe does not get the probe's reading")
    func changed() {
        let files = ProbedFiles()
        let folder = TemporaryFolder()
        let path = folder.write([1, 2, 3], to: "picture")
        let probed = stamp(path)
        files.scoped {
            files.keep(Reading(), path: path, stamp: probed)
            _ = folder.write([4, 5, 6, 7], to: "picture")
            #expect(stamp(path) != probed)
            #expect(files.take(Reading.self, path: path, stamp: stamp(path)) == nil)
            #expect(!files.holds(path))
        }
    }

    @Test("no more than the capacity is kept")
    func capacity() {
        let files = ProbedFiles(capacity: 2)
        let folder = TemporaryFolder()
        let paths = (0..<3).map { folder.write([UInt8($0)], to: "p\($0)") }
        files.scoped {
            for path in paths { files.keep(Reading(), path: path, stamp: stamp(path)) }
            #expect(files.count == 2)
            #expect(files.holds(paths[0]) && files.holds(paths[1]) && !files.holds(paths[2]))
            files.keep(Reading(), path: paths[1], stamp: stamp(paths[1]))  // a probe again replaces
            #expect(files.count == 2)
        }
    }

    /// A HEIC larger than libheif's reads through the window (64 KB), with a thumbnail.
    func largeHEIC(in folder: TemporaryFolder, seed: Int, name: String) throws -> String {
        var options = HEIFEncodeOptions()
        options.quality = 98
        options.thumbnail = 160
        let path = folder.file(name)
        try HEIFEncoder.write(
            Scenes.picture(seed: seed, size: Size(width: 960, height: 640)), options: options, to: path)
        return path
    }

    @Test(
        "a HEIF or AVIF probed in a scope is decoded from the probe's reading, to the same pixels",
        arguments: ["heic-thumbnail.heic", "heic-rotated-6.heic", "avif-alpha.avif", "large"])
    func decodedFromTheProbe(name: String) throws {
        let folder = TemporaryFolder()
        let path =
            name == "large"
            ? try largeHEIC(in: folder, seed: 3, name: "large.heic")
            : folder.write(Fixtures.read(Fixtures.sample(name))!, to: name)
        if name == "large" { #expect(stamp(path).size > 2 * 65536) }
        let info = try ImageProbe().probe(path: path)
        for target in [nil, Size(width: info.displayedSize.width / 5, height: info.displayedSize.height / 5)] {
            let alone = try ImageDecoder().decode(path: path, info: info, target: target)
            try ImageDecoder.keepingProbedFiles { () throws in
                let probed = try ImageProbe().probe(path: path)
                #expect(probed == info)
                #expect(ProbedFiles.shared.holds(path))
                let decoded = try ImageDecoder().decode(path: path, info: probed, target: target)
                #expect(!ProbedFiles.shared.holds(path))
                #expect(decoded.bitmap == alone.bitmap)
            }
        }
    }

    @Test("a HEIF replaced between its probe and its decode is read again")
    func replacedAfterProbe() throws {
        let folder = TemporaryFolder()
        let first = try largeHEIC(in: folder, seed: 7, name: "first.heic")
        let second = try largeHEIC(in: folder, seed: 8, name: "second.heic")
        let info = try ImageProbe().probe(path: second)
        let expected = try ImageDecoder().decode(path: second, info: info).bitmap
        try ImageDecoder.keepingProbedFiles { () throws in
            let probed = try ImageProbe().probe(path: first)
            #expect(ProbedFiles.shared.holds(first))
            #expect(rename(second, first) == 0)
            let decoded = try ImageDecoder().decode(path: first, info: probed)
            #expect(decoded.bitmap == expected)
            #expect(!ProbedFiles.shared.holds(first))
        }
    }
}
