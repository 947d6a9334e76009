import Foundation
import ImageWall
import Synchronization
import Testing
import WallCodecs
import WallCore
import WallLayout
import WallReview
import WallSamples
import _WallTestSupport

@Suite("Error policy")
struct ErrorPolicyTests {
    let folder = TemporaryFolder()

    func options(_ policy: ErrorPolicy) -> WallOptions {
        var layout = LayoutConfiguration()
        (layout.width, layout.columns, layout.columnGap, layout.rowGap, layout.padding) = (600, 3, 4, 4, Insets(all: 4))
        var options = WallOptions(layout: layout)
        options.onError = policy
        return options
    }

    func mixedInputs() -> [String] {
        let good = Fixtures.read(Fixtures.sample("png-rgb.png"))!
        let jpeg = Fixtures.read(Fixtures.sample("landscape-baseline-420.jpg"))!
        folder.write(good, to: "a-good.png")
        folder.write(Array("not an image".utf8), to: "b-text.jpg")
        folder.write(Array(jpeg.prefix(jpeg.count / 2)), to: "c-truncated.jpg")
        folder.write(Array("plain notes".utf8), to: "d-notes.txt")  // not an image name: ignored
        folder.write(good, to: ".hidden.png")  // hidden: ignored
        return [folder.path]
    }

    @Test("skip: bad files are reported and listed, damaged ones drawn with a warning")
    func skip() throws {
        let inputs = mixedInputs()
        let output = folder.file("out.png")
        let seen = Mutex<[String]>([])
        let hooks = RunHooks(diagnostics: { diagnostic in seen.withLock { $0.append(diagnostic.description) } })
        let manifest = try Wall(inputs: inputs).render(to: output, options: options(.skip), hooks: hooks)
        #expect(manifest.tiles.map(\.source) == [folder.file("a-good.png"), folder.file("c-truncated.jpg")])
        #expect(manifest.skipped.map(\.source) == [folder.file("b-text.jpg")])
        #expect(
            manifest.skipped.map(\.reason) == [
                "not an image ImageWall reads (JPEG, PNG, HEIF, AVIF, WebP, TIFF, GIF, JPEG XL, RAW and video)"
            ])
        #expect(manifest.tiles[1].warnings.first?.contains("Premature end of JPEG file") == true)
        let messages = seen.withLock { $0 }
        #expect(
            messages.contains {
                $0.contains("b-text.jpg")
                    && $0.contains(
                        "not an image ImageWall reads (JPEG, PNG, HEIF, AVIF, WebP, TIFF, GIF, JPEG XL, RAW and video)")
            })
        #expect(messages.contains { $0.contains("c-truncated.jpg") && $0.contains("Premature end") })
        #expect(Fixtures.read(output) != nil)
    }

    @Test("fail: the first bad file stops the run and nothing is written")
    func fail() throws {
        let inputs = mixedInputs()
        let output = folder.file("out.png")
        #expect(
            throws: CodecError(
                .probe, path: folder.file("b-text.jpg"),
                reason: "not an image ImageWall reads (JPEG, PNG, HEIF, AVIF, WebP, TIFF, GIF, JPEG XL, RAW and video)")
        ) {
            try Wall(inputs: inputs).render(to: output, manifest: folder.file("out.json"), options: options(.fail))
        }
        #expect(Fixtures.read(output) == nil)
        #expect(Fixtures.read(folder.file("out.json")) == nil)
        #expect(Fixtures.hiddenFiles(in: folder.path) == [".hidden.png"])
    }

    @Test("no images at all is a clear error")
    func noImages() {
        #expect(throws: WallRunError.noInputs) {
            try Wall(inputs: []).render(to: folder.file("x.png"), options: options(.skip))
        }
        #expect(throws: WallRunError.noImages(tried: 0)) {
            try Wall(inputs: [folder.path]).render(to: folder.file("x.png"), options: options(.skip))
        }
        let bad = folder.write([1, 2, 3], to: "bad.png")
        #expect(
            throws: WallRunError.noImages(
                tried: 1,
                first: CodecError(
                    .probe, path: bad,
                    reason:
                        "not an image ImageWall reads (JPEG, PNG, HEIF, AVIF, WebP, TIFF, GIF, JPEG XL, RAW and video)")
            )
        ) {
            try Wall(inputs: [folder.path]).render(to: folder.file("x.png"), options: options(.skip))
        }
        // The message names the file and the reason, also when nothing else is printed (-q).
        let error = WallRunError.noImages(
            tried: 1, first: CodecError(.probe, path: bad, reason: "BMP is not a supported format"))
        #expect(
            error.message
                == "no input images: the input could not be read; \(bad): probe: BMP is not a supported format")
    }

    @Test("a folder holding only an earlier sheet says so, naming it")
    func onlyAnEarlierSheet() throws {
        let sheets = folder.file("sheets")
        try FileManager.default.createDirectory(atPath: sheets, withIntermediateDirectories: true)
        try Wall(inputs: [Fixtures.sample("png-rgb.png")]).render(to: sheets + "/sheet.png", options: options(.skip))
        do {
            try Wall(inputs: [sheets]).render(to: folder.file("again.png"), options: options(.skip))
            Issue.record("rendered a folder holding only an earlier sheet")
        } catch let error as WallRunError {
            #expect(
                error.message
                    == "no input images: a sheet ImageWall wrote, left out as earlier outputs: \(sheets)/sheet.png "
                    + "(name one to draw it)")
        }
        unlink(sheets + "/sheet.png")
        rmdir(sheets)
    }

    @Test("an output that is one of the inputs is refused, and the input left alone")
    func outputIsInput() {
        let input = folder.write(Fixtures.read(Fixtures.sample("png-rgb.png"))!, to: "in.png")
        let before = Fixtures.read(input)
        #expect(throws: WallRunError.outputIsInput(input)) {
            try Wall(inputs: [folder.path]).render(to: input, options: options(.skip))
        }
        #expect(Fixtures.read(input) == before)
    }

    @Test("an existing output is replaced only by a complete new sheet")
    func replaceExisting() throws {
        let output = folder.write(Array("old".utf8), to: "sheet.png")
        _ = try? Wall(inputs: [folder.file("missing.jpg")]).render(to: output, options: options(.skip))
        #expect(Fixtures.read(output) == Array("old".utf8))
        try Wall(inputs: [Fixtures.sample("png-rgb.png")]).render(to: output, options: options(.skip))
        #expect(ImageFormat.sniff(Fixtures.read(output)!) == .png)
    }
}

@Suite("Strict mode")
struct StrictTests {
    let folder = TemporaryFolder()

    @Test(
        "--strict turns a truncated file's warning into its error; the tile is a placeholder no one takes for a photo")
    func strict() throws {
        let jpeg = Fixtures.read(Fixtures.sample("landscape-baseline-420.jpg"))!
        folder.write(Array(jpeg.prefix(jpeg.count / 2)), to: "half.jpg")
        folder.write(Fixtures.read(Fixtures.sample("png-rgb.png"))!, to: "whole.png")
        var options = WallOptions()
        options.strict = true
        let manifest = try Wall(inputs: [folder.path]).render(to: folder.file("s.png"), options: options)
        let tile = manifest.tiles[0]
        #expect(
            tile.warnings.first?.hasPrefix("not decoded, drawn as a placeholder: damaged (--strict): Premature end")
                == true)
        #expect(tile.placeholder?.hasPrefix("damaged (--strict): Premature end") == true)
        #expect(manifest.tiles[1].placeholder == nil)
        // Not a plain grey box: the pale hatching, the red mark and dark text all show.
        let sheet = try SheetDiff.load(folder.file("s.png"))
        var colours = Set<[UInt8]>()
        for y in stride(from: tile.y, to: tile.y + tile.height, by: 2) {
            for x in stride(from: tile.x, to: tile.x + tile.width, by: 2) { colours.insert(sheet.pixel(x: x, y: y)) }
        }
        #expect(colours.contains([238, 238, 238]) && colours.contains([214, 214, 214]))
        #expect(colours.contains([150, 30, 30]))
        #expect(colours.contains { $0[0] < 100 && $0[1] < 100 && $0[2] < 100 })  // the reason's text
        #expect(!colours.contains([128, 128, 128]))
        options.onError = .fail
        #expect(throws: CodecError.self) {
            try Wall(inputs: [folder.path]).render(to: folder.file("f.png"), options: options)
        }
        #expect(Fixtures.read(folder.file("f.png")) == nil)
    }
}

@Suite("Damaged files, marked")
struct DamagedMarkTests {
    let folder = TemporaryFolder()

    /// A PNG with a valid header whose image data is zeros and junk: zlib's checksum fails,
    /// and what libpng inflates of it is black.
    static func garbagePNG() -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            }
            return ~crc
        }
        let header = bigEndian(200) + bigEndian(150) + [8, 2, 0, 0, 0]
        let junk = [UInt8](repeating: 0, count: 100) + (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", junk)
            + chunk("IEND", [])
    }

    @Test("a tile drawn from a damaged file carries a red frame and DAMAGED, is recorded and counted")
    func marked() throws {
        folder.write(Self.garbagePNG(), to: "a-garbage.png")
        folder.write(Fixtures.read(Fixtures.sample("png-rgb.png"))!, to: "b-whole.png")
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (600, 2)
        let manifest = try Wall(inputs: [folder.path]).render(to: folder.file("d.png"), options: options)
        let damaged = manifest.tiles[0], whole = manifest.tiles[1]
        #expect(damaged.damaged == true && damaged.placeholder == nil, "\(damaged)")
        #expect(damaged.warnings == ["IDAT: ADLER32 checksum mismatch"], "libpng's words, its chunk named once")
        #expect(whole.damaged == nil)
        let sheet = try SheetDiff.load(folder.file("d.png"))
        // The frame is red at every edge; inside, the picture (black) shows.
        for (x, y) in [
            (damaged.x, damaged.y + damaged.height / 2), (damaged.x + damaged.width - 1, damaged.y + 5),
            (damaged.x + damaged.width / 2, damaged.y), (damaged.x + damaged.width / 2, damaged.y + damaged.height - 1),
        ] {
            let pixel = sheet.pixel(x: x, y: y)
            #expect(pixel[0] > 150 && pixel[1] < 60 && pixel[2] < 60, "(\(x), \(y)): \(pixel)")
        }
        #expect(sheet.pixel(x: damaged.x + damaged.width / 2, y: damaged.y + damaged.height / 3) == [0, 0, 0])
        // "DAMAGED" in white in the bottom-left corner.
        var white = 0
        for y in damaged.y + damaged.height * 3 / 4..<damaged.y + damaged.height {
            for x in damaged.x..<damaged.x + damaged.width / 2 where sheet.pixel(x: x, y: y).allSatisfy({ $0 > 200 }) {
                white += 1
            }
        }
        #expect(white > 20, "the label's letters")
        // The whole file's tile has no frame.
        #expect(sheet.pixel(x: whole.x, y: whole.y + whole.height / 2) != sheet.pixel(x: damaged.x, y: damaged.y))
        // With --strict the damaged file is refused: a placeholder, not a marked picture.
        options.strict = true
        let strict = try Wall(inputs: [folder.path]).render(to: folder.file("s.png"), options: options)
        #expect(strict.tiles[0].placeholder?.contains("damaged (--strict)") == true && strict.tiles[0].damaged == nil)
    }
}
