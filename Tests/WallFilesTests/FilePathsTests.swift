import Foundation
import Testing
import _WallTestSupport

@testable import WallFiles

/// Paths taken apart in the one place that does it, and files written whole.
@Suite("File paths and atomic files")
struct FilePathsTests {
    let folder = TemporaryFolder()

    @Test("a path's folder, name, stem and extension, as NSString would give them")
    func parts() {
        let cases: [(path: String, parent: String, name: String, stem: String, ext: String)] = [
            ("Photos/2024/a.jpg", "Photos/2024", "a.jpg", "a", ".jpg"),
            ("/a.jpg", "/", "a.jpg", "a", ".jpg"),
            ("a.jpg", "", "a.jpg", "a", ".jpg"),
            ("sheet", "", "sheet", "sheet", ""),
            ("a.d/sheet", "a.d", "sheet", "sheet", ""),
            ("dir/.hidden", "dir", ".hidden", ".hidden", ""),
            ("dir/archive.tar.gz", "dir", "archive.tar.gz", "archive.tar", ".gz"),
        ]
        for c in cases {
            #expect(FilePaths.parent(of: c.path) == c.parent, "\(c.path)")
            #expect(FilePaths.name(of: c.path) == c.name, "\(c.path)")
            #expect(FilePaths.stem(of: c.path) == c.stem, "\(c.path)")
            #expect(FilePaths.splitExtension(c.path).extension == c.ext, "\(c.path)")
            #expect(FilePaths.splitExtension(c.path).stem + c.ext == c.path, "\(c.path)")
            let nsParent = (c.path as NSString).deletingLastPathComponent
            #expect(FilePaths.parent(of: c.path) == nsParent, "\(c.path)")
            #expect(FilePaths.withoutExtension(c.path) == (c.path as NSString).deletingPathExtension, "\(c.path)")
        }
        #expect(FilePaths.directory(of: "a.jpg") == "." && FilePaths.directory(of: "/a.jpg") == "/")
        #expect(FilePaths.directory(of: "Photos/a.jpg") == "Photos")
        #expect(FilePaths.relative(from: "/a/b", to: "/a/c/d.png") == "../c/d.png")
        #expect(FilePaths.resolved(folder.file("missing")) == nil)
    }

    @Test("a path's name and components are split at its slashes' bytes, empty parts left out")
    func components() {
        let cases: [(path: String, name: String, components: [String])] = [
            ("", "", []),
            ("/", "/", []),
            ("///", "///", []),
            ("a", "a", ["a"]),
            ("Photos/2024/", "2024", ["Photos", "2024"]),
            ("/srv//photos///a.jpg", "a.jpg", ["srv", "photos", "a.jpg"]),
            // A combining accent after a slash makes one Character of the two; the file system
            // still splits there.
            ("Fotos/\u{301}a.jpg", "\u{301}a.jpg", ["Fotos", "\u{301}a.jpg"]),
            ("Été/日本/🇫🇷.heic", "🇫🇷.heic", ["Été", "日本", "🇫🇷.heic"]),
        ]
        for c in cases {
            #expect(FilePaths.name(of: c.path) == c.name, "\(c.path)")
            #expect(FilePaths.components(of: c.path) == c.components, "\(c.path)")
        }
        #expect(FilePaths.relative(from: "/a//b/", to: "/a/c/\u{301}d.png") == "../c/\u{301}d.png")
        #expect(FilePaths.relative(from: "/a/b", to: "/a/b") == ".")
        // Two folders whose names are one text, "é" as one character and as "e" and an accent.
        let relative = FilePaths.relative(from: "/x/Caf\u{E9}", to: "/x/Cafe\u{301}/a.jpg")
        #expect(relative.utf8.elementsEqual("../Cafe\u{301}/a.jpg".utf8), "\(Array(relative.unicodeScalars))")
    }

    @Test("bytes written and copied whole, read back; a file that cannot be read names the reason")
    func wholeFiles() throws {
        let bytes = (0..<200_000).map { UInt8($0 % 251) }
        try AtomicFile.write(bytes, to: folder.file("a.bin"))
        #expect(try FileContents.read(folder.file("a.bin")) == bytes)
        try AtomicFile.copy(folder.file("a.bin"), to: folder.file("b.bin"))
        #expect(try FileContents.read(folder.file("b.bin")) == bytes)
        #expect(Fixtures.hiddenFiles(in: folder.path).isEmpty)
        #expect(throws: FileError(.read, path: folder.file("none"), reason: "No such file or directory")) {
            try FileContents.read(folder.file("none"))
        }
        #expect(throws: FileError.self) { try AtomicFile.copy(folder.file("none"), to: folder.file("c.bin")) }
        #expect(!FileManager.default.fileExists(atPath: folder.file("c.bin")))
    }

    @Test("a durable file written past its writeback step in pieces, through its stream too, commits whole")
    func writtenInPieces() throws {
        let file = try AtomicFile(destination: folder.file("big.bin"))
        var expected: [UInt8] = []
        // Pieces that straddle each step, some written through the stream as encoders do.
        for piece in 0..<40 {
            let bytes = (0..<(AtomicFile.writebackStep / 7 + piece)).map {
                UInt8(truncatingIfNeeded: $0 &* 31 &+ piece)
            }
            if piece % 3 == 0 {
                #expect(bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file.handle) } == bytes.count)
                file.wrote(bytes.count)
            } else {
                try file.write(bytes)
            }
            expected += bytes
        }
        #expect(expected.count > 5 * AtomicFile.writebackStep)
        #expect(!FileManager.default.fileExists(atPath: folder.file("big.bin")))
        try file.commit()
        #expect(try FileContents.read(folder.file("big.bin")) == expected)
        #expect(Fixtures.hiddenFiles(in: folder.path).isEmpty)
    }

    @Test("a flush that fails while the file is written fails the commit, and nothing is left")
    func failedWriteback() throws {
        let file = try AtomicFile(destination: folder.file("lost.bin"))
        // The stream's descriptor made one of a file opened only to read, which refuses
        // writes and not fsync (kept open, so no other file takes its number), after bytes that
        // sit in the stream's buffer.
        let bytes = [UInt8](repeating: 7, count: 1000)
        #expect(bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file.handle) } == bytes.count)
        try AtomicFile.write([1, 2, 3], to: folder.file("other.bin"))
        let refusing = open(folder.file("other.bin"), O_RDONLY)
        #expect(dup2(refusing, fileno(file.handle)) == fileno(file.handle))
        close(refusing)
        file.wrote(AtomicFile.writebackStep)
        #expect(throws: FileError.self) { try file.commit() }
        #expect(!FileManager.default.fileExists(atPath: folder.file("lost.bin")))
        #expect(Fixtures.hiddenFiles(in: folder.path).isEmpty)
        #expect(try FileContents.read(folder.file("other.bin")) == [1, 2, 3])
    }

    @Test("a file written again with the same bytes is kept (its time made now), other bytes replace it")
    func unchangedKept() throws {
        let path = folder.file("sheet.bin")
        let bytes = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) }
        try AtomicFile.write(bytes, to: path)
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path)
        func status() throws -> (inode: Int, time: Date) {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            return (
                try #require(attributes[.systemFileNumber] as? Int),
                try #require(attributes[.modificationDate] as? Date)
            )
        }
        let before = try status()
        // The same bytes, in two pages' way (finished, then committed): the file stays.
        let same = try AtomicFile(destination: path)
        try same.write(bytes)
        try same.finishWriting()
        try same.commit()
        let kept = try status()
        #expect(kept.inode == before.inode && kept.time > old)
        #expect(try FileContents.read(path) == bytes)
        // One byte other, at the end: a new file.
        var other = bytes
        other[other.count - 1] ^= 1
        try AtomicFile.write(other, to: path)
        #expect(try status().inode != before.inode)
        #expect(try FileContents.read(path) == other)
        // Shorter: a new file; a link where the file was is replaced, not followed.
        try AtomicFile.write(Array(other.prefix(10)), to: path)
        #expect(try FileContents.read(path) == Array(other.prefix(10)))
        let target = folder.file("target.bin")
        try AtomicFile.write(bytes, to: target)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        try AtomicFile.write(bytes, to: path)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == nil)
        #expect(Fixtures.hiddenFiles(in: folder.path).isEmpty)
    }

    @Test("temporary names say the host and process that made them")
    func temporaryNames() {
        let prefix = TemporaryNames.prefix(for: "/x/y/sheet.png")
        #expect(prefix.hasPrefix("/x/y/.sheet.png.") && prefix.hasSuffix("-"))
        #expect(TemporaryNames.prefix(for: "sheet.png").hasPrefix(".sheet.png."))
        let host = String(TemporaryNames.owner[..<TemporaryNames.owner.lastIndex(of: "-")!])
        #expect(TemporaryNames.leftBy(".sheet.png.\(host)-4242-abc12.tmp", host: host) == 4242)
        #expect(TemporaryNames.leftBy(".sheet.png.otherhost-4242-abc12.tmp", host: host) == nil)
        #expect(TemporaryNames.leftBy("sheet.png", host: host) == nil)
        #expect(TemporaryNames.leftBy(".wall_files.\(host)-12-Ab12Cd.old", host: host) == 12)
        #expect(TemporaryNames.leftBy(".notes.txt", host: host) == nil)
        #expect(TemporaryNames.leftBy(".sheet.png.\(host)-12.tmp", host: host) == nil)
    }
}
