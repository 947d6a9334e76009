import Foundation
import Testing
import WallCore
import WallFiles
import _WallTestSupport

@testable import ImageWall
@testable import WallCodecs

/// A camera folder as a card holds it — RAW files of bodies LibRaw 0.20 does not know, a RAW
/// with its JPEG, a phone's evening clips, a file cut short — dated by the camera, with one
/// name for each camera.
@Suite("A camera folder: dates, offsets and camera names")
struct CameraFolderTests {
    static let raw = Fixtures.corpora.map { $0 + "/raw" }
    static let exiv2 = CameraMetadataTests.exiv2

    /// The pruned Canon EOS R6 CR3 (metadata and previews), followed by the start of a sensor
    /// track that the file no longer holds: a card copy cut short after its previews.
    static func cutCR3(_ folder: TemporaryFolder, name: String) throws -> String {
        let folderOfRAW = try #require(raw)
        var bytes = try #require(Fixtures.read(folderOfRAW + "/canon-eos-r6-pruned.CR3"))
        bytes += [0x01, 0xC9, 0xC3, 0x80] + Array("mdat".utf8)  // an mdat box of 30,000,000 bytes
        bytes += (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        return folder.write(bytes, to: name)
    }

    /// A 2 s clip with `metadata` (ffmpeg's `-metadata` pairs) written as a phone writes them.
    static func clip(_ name: String, in folder: TemporaryFolder, metadata: [String]) throws -> String {
        try VideoClips.make(
            name, in: folder.path,
            arguments: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "use_metadata_tags"]
                + metadata.flatMap { ["-metadata", $0] }, seconds: 2)
    }

    @Test("a CR3 LibRaw cannot read is dated and named from its own EXIF, through Exiv2", .enabled(if: raw != nil))
    func cr3Metadata() throws {
        let info = try ImageProbe().probe(path: try #require(Self.raw) + "/canon-eos-r6-pruned.CR3")
        let camera = try #require(info.camera)
        #expect(camera.name == "Canon EOS R6" && camera.lens == "RF70-200mm F2.8 L IS USM")
        #expect(camera.exposureTime == CameraInfo.Fraction(1, 4) && camera.iso == 100 && camera.fNumber == 25)
        #expect(info.dateTaken == "2021:05:12 12:21:21" && camera.timeOffset == "+02:00")
        let image = ProbedImage(path: "IMG_0001.CR3", info: info)
        #expect(CaptureDate(of: image).source == .metadata)
        #expect(CaptureDate(of: image).iso8601 == "2021-05-12T12:21:21+02:00")
        #expect(
            try CaptionTemplate("{camera} · {exposure} · {date:%d %B %Y %H:%M %z}").expand(image, index: 0)
                == "Canon EOS R6 · 1/4 s · 12 May 2021 12:21 +0200")
    }

    @Test(
        "a RAW file and a JPEG of the same camera give it one name, from the files' EXIF",
        .enabled(if: raw != nil && exiv2 != nil))
    func oneCameraName() throws {
        let folder = TemporaryFolder()
        let nef = try ImageProbe().probe(path: try #require(Self.raw) + "/nikon-d7100-head.NEF")
        let jpeg = try ImageProbe().probe(
            path: try CameraMetadataTests.photo(
                "DSC_0001.JPG", in: folder,
                tags: ["set Exif.Image.Make Ascii NIKON CORPORATION", "set Exif.Image.Model Ascii NIKON D7100"]))
        #expect(nef.camera?.make == "NIKON CORPORATION" && nef.camera?.model == "NIKON D7100")  // LibRaw: Nikon, D7100
        #expect(nef.camera?.name == "NIKON D7100" && nef.camera?.name == jpeg.camera?.name)
        #expect(nef.dateTaken == "2013:09:03 09:45:16")
    }

    @Test(
        "a CR3 cut short after its previews is drawn from its whole preview, with a warning",
        .enabled(if: raw != nil))
    func cutCR3() throws {
        let folder = TemporaryFolder()
        let path = try Self.cutCR3(folder, name: "IMG_0002.CR3")
        let info = try ImageProbe().probe(path: path)
        #expect(info.drawnFrom == "preview 1620x1080 JPEG (Exiv2)" && info.camera?.name == "Canon EOS R6")
        let decoded = try ImageDecoder().decode(path: path, info: info, target: Size(width: 400, height: 267))
        #expect(decoded.bitmap.size.width >= 800)
        #expect(decoded.warnings.count == 1 && decoded.warnings[0].contains("cut short"), "\(decoded.warnings)")
        // The same preview as the whole file's.
        let whole = try ImageDecoder().decode(
            path: try #require(Self.raw) + "/canon-eos-r6-pruned.CR3", info: info, target: Size(width: 400, height: 267)
        )
        #expect(whole.bitmap == decoded.bitmap && whole.warnings.isEmpty)
    }

    @Test(
        "a phone's clip is dated by its local creation date with the offset; else by UTC, marked so",
        .enabled(if: VideoClips.ffmpeg != nil))
    func clipDates() throws {
        let folder = TemporaryFolder()
        let evening = try ImageProbe().probe(
            path: try Self.clip(
                "IMG_0003.MOV", in: folder,
                metadata: [
                    "creation_time=2026-11-22T04:00:00.000000Z",
                    "com.apple.quicktime.creationdate=2026-11-21T20:00:00-0800",
                    "com.apple.quicktime.make=Apple", "com.apple.quicktime.model=iPhone 15 Pro",
                ]))
        #expect(evening.dateTaken == "2026:11:21 20:00:00" && evening.camera?.timeOffset == "-08:00")
        #expect(evening.camera?.name == "Apple iPhone 15 Pro")
        let utc = try ImageProbe().probe(
            path: try Self.clip("VID_0004.mp4", in: folder, metadata: ["creation_time=2026-11-22T04:00:00.000000Z"]))
        #expect(utc.dateTaken == "2026:11:22 04:00:00" && utc.camera?.timeOffset == "+00:00")
        let image = ProbedImage(path: "VID_0004.mp4", info: utc)
        #expect(CaptureDate(of: image).iso8601 == "2026-11-22T04:00:00+00:00")
        #expect(try CaptionTemplate("{date:%H:%M %z}").expand(image, index: 0) == "04:00 +0000")
        // The forms of offsets containers write.
        #expect(VideoCodec.offset(afterDateIn: "2026-11-21T20:00:00-0800") == "-08:00")
        #expect(VideoCodec.offset(afterDateIn: "2026-11-21T20:00:00.123+05:30") == "+05:30")
        #expect(VideoCodec.offset(afterDateIn: "2026-11-21T20:00:00Z") == "+00:00")
        #expect(VideoCodec.offset(afterDateIn: "2026-11-21T20:00:00") == nil)
        #expect(VideoCodec.offset(afterDateIn: "2026-11-21T20:00:00+8") == nil)
        #expect(VideoCodec.creationDate(local: "", utc: "1970-01-01T00:00:00.000000Z") == nil)
    }

    @Test(
        "the folder sorts into the days it was shot, each tile under its camera's one name",
        .enabled(if: raw != nil && exiv2 != nil && VideoClips.ffmpeg != nil))
    func cameraFolder() throws {
        let folder = TemporaryFolder(), output = TemporaryFolder()
        let raw = try #require(Self.raw)
        folder.write(try #require(Fixtures.read(raw + "/canon-eos-r6-pruned.CR3")), to: "IMG_0001.CR3")
        _ = try Self.cutCR3(folder, name: "IMG_0002.CR3")
        try Self.clip(
            "IMG_0003.MOV", in: folder,
            metadata: [
                "creation_time=2021-05-13T03:30:00.000000Z",
                "com.apple.quicktime.creationdate=2021-05-12T20:30:00-0700",
            ])
        folder.write(try #require(Fixtures.read(raw + "/nikon-d7100-head.NEF")), to: "DSC_0001.NEF")
        var options = WallOptions()
        (options.layout.width, options.layout.columns, options.layout.captionHeight) = (600, 3, 14)
        options.rendering.caption = try CaptionTemplate("{camera}")
        options.grouping = .day
        options.input.scan.pairs = .separate
        let manifest = try Wall(inputs: [folder.path]).render(to: output.file("days.png"), options: options)
        #expect(manifest.sections.map(\.title) == ["3 September 2013", "12 May 2021"])
        let tiles = Dictionary(uniqueKeysWithValues: manifest.tiles.map { (FilePaths.name(of: $0.source), $0) })
        #expect(
            tiles["IMG_0001.CR3"]?.date == "2021-05-12T12:21:21+02:00" && tiles["IMG_0001.CR3"]?.dateFrom == .metadata)
        #expect(tiles["IMG_0002.CR3"]?.dateFrom == .metadata && tiles["IMG_0002.CR3"]?.warnings.count == 1)
        #expect(tiles["IMG_0003.MOV"]?.date == "2021-05-12T20:30:00-07:00")
        #expect(tiles["DSC_0001.NEF"]?.date == "2013-09-03T09:45:16" && tiles["DSC_0001.NEF"]?.section == 0)
        #expect(Set(["IMG_0001.CR3", "IMG_0002.CR3", "IMG_0003.MOV"].compactMap { tiles[$0]?.section }) == [1])
    }
}
