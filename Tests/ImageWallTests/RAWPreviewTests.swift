import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

/// RAW camera files (`../shared/corpora/raw`) through the real command: each is drawn from its
/// embedded JPEG preview or its sensor data, or refused by name with the reason, in little CPU
/// and memory; none is drawn from sensor data that may be cut short.
@Suite("RAW camera files by their previews or sensor data")
struct RAWPreviewTests {
    static let binary = Fixtures.binary
    static let folder = Fixtures.corpora.map { $0 + "/raw" }
    static let files: [String] =
        folder.map { folder in
            Fixtures.corpusImages(in: folder)
        } ?? []
    /// The files whose preview can be drawn, with its size (from the corpus's SOURCE.txt).
    static let previews = [
        "canon-powershot-g2.CRW": Size(width: 640, height: 480),
        "canon-eos-d30.CRW": Size(width: 1440, height: 960),
        "nikon-d7100-head.NEF": Size(width: 6000, height: 4000),
        "exiftool-fuji-s5pro.raf": Size(width: 160, height: 120),
        // A camera LibRaw 0.20 does not know: its preview found by Exiv2.
        "canon-eos-r6-pruned.CR3": Size(width: 1620, height: 1080),
    ]
    /// The CPU a file may take, drawn or refused: over five times the most measured (see above).
    static let mostCPUSeconds = 3.0

    /// The complete files without a usable preview, developed at half size.
    static let developed = [
        "canon-550d-magiclantern.dng": Size(width: 867, height: 578), "kodak-dc50.KDC": Size(width: 384, height: 256),
    ]

    @Test(
        "every file is drawn from its preview or sensor, or refused with its name and why, in bounded CPU and 300 MB",
        .enabled(if: folder != nil && FileManager.default.isExecutableFile(atPath: binary)),
        arguments: files)
    func file(name: String) throws {
        let scratch = TemporaryFolder()
        let path = Self.folder! + "/" + name
        let run = MeasuredRun(
            Self.binary,
            [
                "render", path, "-o", scratch.file("sheet.png"), "--manifest", scratch.file("m.json"), "--width",
                "300", "--columns", "1", "--threads", "1", "--no-cache", "-q",
            ])
        // A bound against a hang, not a speed target (those are `make bench`'s): the slowest file
        // took 0.33 s of CPU here and 0.52 s on another machine of this kind, debug build; 3 s
        // is over five times that.
        #expect((run.cpuSeconds ?? 0) < RAWPreviewTests.mostCPUSeconds, "\(name): \(run.cpuSeconds ?? 0) s of CPU")
        #expect((run.peakMB ?? 0) < 300, "\(name): \(run.peakMB ?? 0) MB")
        if let preview = Self.previews[name] {
            #expect(run.status == 0, "\(name): \(run.errors)")
            let info = try ImageProbe().probe(path: path)
            #expect(info.format == .raw && info.storedSize == preview)
            let manifest = try Wall.readManifest(scratch.file("m.json"))
            #expect(manifest.tiles.first?.format == "raw")
            // Drawn from the preview, or from the sensor data where the preview is smaller than
            // the tile needs and the file holds it all (the G2's 640x480).
            let reader = name.hasSuffix(".CR3") ? " (Exiv2)" : ""
            #expect(manifest.tiles.first?.drawnFrom == "preview \(preview.width)x\(preview.height) JPEG\(reader)")
            #expect(
                manifest.tiles.first?.notes?.contains {
                    $0.contains("JPEG preview") || ($0.contains("sensor data") && info.fullerSize != nil)
                } == true)
        } else if let developed = Self.developed[name] {
            #expect(run.status == 0, "\(name): \(run.errors)")
            let info = try ImageProbe().probe(path: path)
            #expect(info.format == .raw && info.drawnFrom == "sensor, half size" && info.storedSize == developed)
            let manifest = try Wall.readManifest(scratch.file("m.json"))
            #expect(manifest.tiles.first?.notes?.contains { $0.contains("developed from its sensor data") } == true)
        } else {
            #expect(run.status == 1, "\(name) was drawn")
            #expect(run.errors.contains(path) && run.errors.contains("RAW camera file"), "\(name): \(run.errors)")
            if name.hasSuffix(".GPR") {
                // Named as what it is: a camera this LibRaw does not know, with no preview to fall back on.
                #expect(run.errors.contains("a GoPro ") && run.errors.contains("LibRaw 0.20"), "\(run.errors)")
            }
        }
    }

    @Test("a preview is drawn upright and as the JPEG it is", .enabled(if: folder != nil))
    func previewPixels() throws {
        let path = Self.folder! + "/canon-eos-d30.CRW"
        let info = try ImageProbe().probe(path: path)
        let decoded = try ImageDecoder().decode(path: path, info: info, target: Size(width: 360, height: 240))
        // Shrunk on load (1/2 of 1440x960 keeps twice the target), with the note that says so.
        #expect(decoded.bitmap.size == Size(width: 720, height: 480))
        #expect(decoded.notes.contains("drawn from its embedded 1440x960 JPEG preview"))
        #expect(ImageDecoder().decodePlan(info: info, target: Size(width: 360, height: 240)).contains("preview"))
    }

    @Test(
        "a preview the file holds as LibRaw reads it is decoded from where it lies, to LibRaw's pixels",
        .enabled(if: folder != nil),
        arguments: ["canon-eos-d30.CRW", "canon-powershot-g2.CRW", "nikon-d7100-head.NEF", "exiftool-fuji-s5pro.raf"])
    func previewWhereItLies(name: String) throws {
        let path = Self.folder! + "/" + name
        let info = try ImageProbe().probe(path: path)
        let range = try #require(info.embeddedPreview, "\(name): no preview located")
        let file = try #require(Fixtures.read(path))
        let scratch = TemporaryFolder()
        let alone = try ImageProbe().probe(path: scratch.write(Array(file[range]), to: "preview.jpg"))
        #expect(alone.format == .jpeg && alone.storedSize == info.storedSize, "\(name): \(alone.storedSize)")
        // The same pixels and notes as from the preview LibRaw unpacks, and from a range the file
        // no longer holds a JPEG at (its first bytes), which gives way to LibRaw's.
        let target = Size(width: 300, height: 200)
        let located = try ImageDecoder().decode(path: path, info: info, target: target)
        for stale in [nil, 0..<range.count] as [Range<Int>?] {
            var other = info
            other.embeddedPreview = stale
            let unpacked = try ImageDecoder().decode(path: path, info: other, target: target)
            #expect(
                located.bitmap == unpacked.bitmap && located.notes == unpacked.notes,
                "\(name), \(String(describing: stale))")
        }
        // Read from the range, not through LibRaw: a copy whose header is broken after its probe
        // (LibRaw can no longer read it) is still drawn from where its preview lies.
        let copy = scratch.write(file, to: name)
        let copied = try ImageProbe().probe(path: copy)
        var broken = file
        broken.replaceSubrange(0..<8, with: [UInt8](repeating: 0, count: 8))
        _ = scratch.write(broken, to: name)
        #expect(throws: CodecError.self) { try ImageProbe().probe(path: copy) }
        #expect(try ImageDecoder().decode(path: copy, info: copied, target: target).bitmap == located.bitmap)
    }

    @Test("a preview LibRaw mends, or finds through Exiv2, is not said to lie in the file", .enabled(if: folder != nil))
    func previewNotWhereItLies() throws {
        let path = Self.folder! + "/canon-eos-d30.CRW"
        let info = try ImageProbe().probe(path: path)
        let range = try #require(info.embeddedPreview)
        // The preview's start of image zeroed: LibRaw writes FF D8 back over it, so the bytes it
        // gives are not the file's, and the picture stays the one LibRaw unpacks.
        var bytes = try #require(Fixtures.read(path))
        bytes[range.lowerBound] = 0
        bytes[range.lowerBound + 1] = 0
        let scratch = TemporaryFolder()
        let mended = scratch.write(bytes, to: "mended.CRW")
        let mendedInfo = try ImageProbe().probe(path: mended)
        #expect(mendedInfo.drawnFrom == info.drawnFrom && mendedInfo.embeddedPreview == nil)
        let target = Size(width: 360, height: 240)
        #expect(
            try ImageDecoder().decode(path: mended, info: mendedInfo, target: target).bitmap
                == ImageDecoder().decode(path: path, info: info, target: target).bitmap)
        let exiv2 = try ImageProbe().probe(path: Self.folder! + "/canon-eos-r6-pruned.CR3")
        #expect(exiv2.drawnFrom?.hasSuffix("(Exiv2)") == true && exiv2.embeddedPreview == nil)
    }

    @Test(
        "a truncated phone DNG whose preview and sensor data lie past its end is refused, not developed into noise",
        .enabled(if: folder != nil))
    func truncated() {
        let path = Self.folder! + "/apple-iphone12pro-truncated.dng"
        #expect(throws: CodecError.self) { try ImageProbe().probe(path: path) }
        do {
            _ = try ImageProbe().probe(path: path)
        } catch {
            #expect(error.reason.contains("past the end of the file"), "\(error.reason)")
            #expect(error.reason.contains("too small to hold its 4032x3024 sensor's data"), "\(error.reason)")
        }
    }

    @Test("a complete file without a preview is developed from its sensor data, in colour", .enabled(if: folder != nil))
    func developedPixels() throws {
        let path = Self.folder! + "/canon-550d-magiclantern.dng"
        let info = try ImageProbe().probe(path: path)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.bitmap.size == info.storedSize)
        #expect(ImageDecoder().decodePlan(info: info, target: nil).contains("sensor, half size"))
        // A colour checker: many pixels far from grey, and many levels (a failed development is
        // flat, or noise without saturated patches).
        var saturated = 0
        var values = Set<UInt8>()
        for y in stride(from: 0, to: decoded.bitmap.size.height, by: 7) {
            for x in stride(from: 0, to: decoded.bitmap.size.width, by: 7) {
                let p = decoded.bitmap.pixel(x: x, y: y)
                if Int(p.max() ?? 0) - Int(p.min() ?? 0) > 80 { saturated += 1 }
                values.insert(p[1])
            }
        }
        #expect(saturated > 20 && values.count > 50, "\(saturated) \(values.count)")
    }

    @Test(
        "a preview smaller than the tile needs gives way to the sensor data when the file holds it all",
        .enabled(if: folder != nil))
    func fullerThanPreview() throws {
        let path = Self.folder! + "/canon-powershot-g2.CRW"
        let info = try ImageProbe().probe(path: path)
        #expect(info.drawnFrom == "preview 640x480 JPEG" && info.fullerSize == Size(width: 1156, height: 860))
        // A 300 px tile keeps twice its size from the 640 px preview; a 500 px one needs more.
        let small = try ImageDecoder().decode(path: path, info: info, target: Size(width: 300, height: 225))
        #expect(small.notes.contains("drawn from its embedded 640x480 JPEG preview"))
        #expect(ImageDecoder().decodePlan(info: info, target: Size(width: 500, height: 375)).contains("sensor"))
        let large = try ImageDecoder().decode(path: path, info: info, target: Size(width: 500, height: 375))
        #expect(large.bitmap.size == Size(width: 1156, height: 860))
        #expect(large.notes.contains { $0.contains("sensor data") }, "\(large.notes)")
        // A cut file's preview stays the picture: its sensor data is never developed.
        let cut = try ImageProbe().probe(path: Self.folder! + "/nikon-d7100-head.NEF")
        #expect(cut.fullerSize == nil)
    }

    @Test(
        "a RAW file whose header claims a huge sensor is refused from the header, by LibRaw or by its cell count",
        .enabled(if: folder != nil && FileManager.default.isExecutableFile(atPath: binary)),
        arguments: [65535, 40000, 20000])
    func hostileSensor(side: Int) throws {
        // The Magic Lantern DNG keeps its sensor in IFD0: ImageWidth and ImageLength (LONG
        // values at bytes 30 and 42) made to claim side x side cells.
        var bytes = try #require(Fixtures.read(Self.folder! + "/canon-550d-magiclantern.dng"))
        #expect(bytes[22...23] == [0x00, 0x01] && bytes[34...35] == [0x01, 0x01])
        for at in [30, 42] {
            for b in 0..<4 { bytes[at + b] = UInt8(truncatingIfNeeded: side >> (8 * b)) }
        }
        let scratch = TemporaryFolder()
        let path = scratch.write(bytes, to: "huge.dng")
        let run = MeasuredRun(Self.binary, ["render", path, "-o", scratch.file("sheet.png"), "--no-cache", "-q"])
        #expect(run.status == 1 && run.errors.contains(path), "\(run.errors)")
        #expect(
            run.errors.contains("LibRaw 0.20.2 cannot read") || run.errors.contains("its sensor claims")
                || run.errors.contains("too small to hold its \(side)x\(side) sensor's data"), "\(run.errors)")
        #expect(
            (run.cpuSeconds ?? 0) < RAWPreviewTests.mostCPUSeconds && (run.peakMB ?? 0) < 150,
            "\(run.cpuSeconds ?? 0) s, \(run.peakMB ?? 0) MB")
    }
}
