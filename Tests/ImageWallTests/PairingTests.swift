import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

/// Files that hold one picture (a Live Photo's still and movie, a RAW+JPEG pair) drawn as one
/// tile, marked, with every file in the manifest; apart with `--pairs separate`.
@Suite("One picture, several files", .enabled(if: VideoClips.ffmpeg != nil))
struct PairingTests {
    /// A JPEG whose EXIF holds an Apple maker note with content identifier `identifier`.
    static func liveStill(identifier: String?, to path: String) throws {
        let jpeg = try #require(Fixtures.read(Fixtures.sample("landscape-baseline-420.jpg")))
        guard let identifier else {
            _ = try Data(jpeg).write(to: URL(fileURLWithPath: path))
            return
        }
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v >> 16) + u16(v & 0xFFFF) }
        let text = Array(identifier.utf8) + [0]
        // The maker note: header, byte order, one entry (tag 0x11, ASCII), its text after the IFD.
        var note = Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8)
        note += u16(1) + u16(0x11) + u16(2) + u32(text.count) + u32(14 + 2 + 12 + 4) + u32(0)
        note += text
        // TIFF: IFD0 with the Exif IFD pointer; the Exif IFD with the maker note.
        let exifIFD = 8 + 2 + 12 + 4
        let noteAt = exifIFD + 2 + 12 + 4
        var tiff = Array("MM".utf8) + u16(42) + u32(8)
        tiff += u16(1) + u16(0x8769) + u16(4) + u32(1) + u32(exifIFD) + u32(0)
        tiff += u16(1) + u16(0x927C) + u16(7) + u32(note.count) + u32(noteAt) + u32(0)
        tiff += note
        let app1 = Array("Exif\0\0".utf8) + tiff
        let segment: [UInt8] = [0xFF, 0xE1] + u16(app1.count + 2) + app1
        _ = try Data([0xFF, 0xD8] + segment + jpeg.dropFirst(2)).write(to: URL(fileURLWithPath: path))
    }

    /// A movie `seconds` long, with Apple's content identifier when given.
    static func liveMovie(_ name: String, in folder: String, seconds: Int, identifier: String?) throws -> String {
        let tags =
            identifier.map {
                ["-movflags", "use_metadata_tags", "-metadata", "com.apple.quicktime.content.identifier=\($0)"]
            }
            ?? []
        return try VideoClips.make(
            name, in: folder, arguments: ["-c:v", "libx264", "-pix_fmt", "yuv420p"] + tags, seconds: seconds)
    }

    static func render(_ folder: String, pairs: PairPolicy = .together) throws -> Manifest {
        var options = WallOptions()
        options.input.scan.pairs = pairs
        options.layout.width = 600
        return try Wall(inputs: [folder]).render(to: folder + "/../" + "sheet-\(pairs).png", options: options)
    }

    @Test("a Live Photo is one tile, the still marked LIVE, its movie listed with it; apart with --pairs separate")
    func livePhoto() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.file("DCIM")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try Self.liveStill(identifier: "5F1C-LIVE", to: folder + "/IMG_0001.JPG")
        let movie = try Self.liveMovie("IMG_0001.MOV", in: folder, seconds: 8, identifier: "5F1C-LIVE")
        // Same name, no identifiers, a short movie: a Live Photo too.
        try Self.liveStill(identifier: nil, to: folder + "/IMG_0002.JPG")
        _ = try Self.liveMovie("IMG_0002.MOV", in: folder, seconds: 3, identifier: nil)
        // Same name, other identifiers: two pictures.
        try Self.liveStill(identifier: "AAAA", to: folder + "/IMG_0003.JPG")
        _ = try Self.liveMovie("IMG_0003.MOV", in: folder, seconds: 3, identifier: "BBBB")
        // Same name, no identifiers, a long movie: a video of its own.
        try Self.liveStill(identifier: nil, to: folder + "/IMG_0004.JPG")
        _ = try Self.liveMovie("IMG_0004.MOV", in: folder, seconds: 8, identifier: nil)

        let still = try ImageProbe().probe(path: folder + "/IMG_0001.JPG")
        #expect(still.contentIdentifier == "5F1C-LIVE")
        #expect(try ImageProbe().probe(path: movie).contentIdentifier == "5F1C-LIVE")

        let manifest = try Self.render(folder)
        let names = manifest.tiles.map { $0.source.split(separator: "/").last.map(String.init) ?? "" }
        #expect(
            names == [
                "IMG_0001.JPG", "IMG_0002.JPG", "IMG_0003.JPG", "IMG_0003.MOV", "IMG_0004.JPG", "IMG_0004.MOV",
            ])
        #expect(manifest.tiles[0].mark == .live && manifest.tiles[0].companions == [movie])
        #expect(manifest.tiles[1].mark == .live)
        #expect(manifest.tiles[2].mark == nil && manifest.tiles[3].mark == .video)

        let apart = try Self.render(folder, pairs: .separate)
        #expect(apart.tiles.count == 8 && apart.tiles.allSatisfy { $0.companions == nil })
    }

    @Test(
        "a RAW+JPEG pair is one tile, the JPEG marked, and the mark is drawn on the sheet",
        .enabled(if: Fixtures.corpora != nil))
    func rawAndJPEG() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.file("card")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let raw = folder + "/CRW_0001.CRW"
        try FileManager.default.copyItem(atPath: Fixtures.corpora! + "/raw/canon-eos-d30.CRW", toPath: raw)
        try Self.liveStill(identifier: nil, to: folder + "/CRW_0001.jpg")
        var options = WallOptions()
        options.layout.width = 600
        options.layout.columns = 1
        let manifest = try Wall(inputs: [folder]).render(to: scratch.file("sheet.png"), options: options)
        #expect(manifest.tiles.count == 1)
        let tile = try #require(manifest.tiles.first)
        #expect(tile.format == "jpeg" && tile.mark == .rawAndJPEG && tile.companions == [raw])
        // The corner chip: dark, with white letters, where the plain JPEG has its own pixels.
        let sheet = try ImageDecoder().decode(
            path: scratch.file("sheet.png"), info: ImageProbe().probe(path: scratch.file("sheet.png"))
        ).bitmap
        var plain = options
        plain.input.scan.pairs = .separate
        plain.input.scan.include = ["*.jpg"]
        try Wall(inputs: [folder]).render(to: scratch.file("plain.png"), options: plain)
        let unmarked = try ImageDecoder().decode(
            path: scratch.file("plain.png"), info: ImageProbe().probe(path: scratch.file("plain.png"))
        ).bitmap
        var whiter = 0, darker = 0
        for y in tile.y..<tile.y + 30 {
            for x in tile.x..<tile.x + 100 {
                let a = sheet.pixel(x: x, y: y), b = unmarked.pixel(x: x, y: y)
                if Int(a[0]) > Int(b[0]) + 40 { whiter += 1 }
                if Int(a[0]) + 20 < Int(b[0]) { darker += 1 }
            }
        }
        #expect(whiter > 30 && darker > 300, "\(whiter) \(darker)")
    }
}
