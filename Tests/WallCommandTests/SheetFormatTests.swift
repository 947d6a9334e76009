import ArgumentParser
import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCommand
import WallCore
import WallParts
import WallReview
import WallText
import _WallTestSupport

/// JPEG and WebP sheets: the PNG's pixels, lossy, deterministic, within each format's limits.
@Suite("JPEG and WebP sheets")
struct SheetFormatTests {
    let folder = TemporaryFolder()

    /// The photos and graphics of SampleImages, 800 px wide in 4 columns, to `name`.
    @discardableResult
    func render(_ name: String, threads: Int = 1, configure: (inout WallOptions) -> Void = { _ in }) throws -> Manifest
    {
        var options = WallOptions()
        (options.layout.width, options.layout.columns, options.limits.threads) = (800, 4, threads)
        options.input.scan.include = ["*.jpg", "png-*.png"]
        configure(&options)
        return try Wall(inputs: [Fixtures.sampleImages]).render(to: folder.file(name), options: options)
    }

    /// The mean absolute difference of two bitmaps' colour channels.
    func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        let count = a.size.width * a.size.height
        var total = 0
        for i in 0..<count {
            for c in 0..<3 { total += abs(Int(a.pixels[i * a.channels + c]) - Int(b.pixels[i * b.channels + c])) }
        }
        return Double(total) / Double(3 * count)
    }

    @Test(
        "a JPEG or WebP sheet holds the PNG's picture, smaller, and the same bytes on any thread count",
        arguments: ["jpg", "webp"])
    func lossySheets(ext: String) throws {
        try render("sheet.png")
        try render("sheet.\(ext)")
        try render("again.\(ext)", threads: 2)
        let bytes = try #require(Fixtures.read(folder.file("sheet.\(ext)")))
        let png = try #require(Fixtures.read(folder.file("sheet.png")))
        if ext == "jpg" {
            #expect(Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
        } else {
            #expect(Array(bytes.prefix(4)) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WEBP".utf8))
        }
        #expect(bytes.count < png.count, "\(bytes.count) bytes against the PNG's \(png.count)")
        #expect(Fixtures.read(folder.file("again.\(ext)")) == bytes)
        let lossless = try SheetDiff.load(folder.file("sheet.png"))
        let lossy = try SheetDiff.load(folder.file("sheet.\(ext)"))
        #expect(lossy.size == lossless.size)
        let difference = meanDifference(lossless, lossy)
        #expect(difference > 0 && difference < 4, "mean difference \(difference)")
    }

    /// Whether Debian's Pillow is there to read sheets as another program would.
    static let hasPillow =
        (try? Fixtures.run("/usr/bin/python3", ["-c", "import PIL"]))?.status == 0

    @Test(
        "Pillow reads the JPEG and WebP sheets at their size, the WebP with its alpha",
        .enabled(if: SheetFormatTests.hasPillow))
    func pillowReads() throws {
        try render("p.jpg")
        let manifest = try render("p.webp") { $0.background = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }
        let script =
            "import sys; from PIL import Image\nfor p in sys.argv[1:]:\n    i = Image.open(p); i.load(); print(i.format, i.size[0], i.size[1], i.mode)"
        let run = try Fixtures.run("/usr/bin/python3", ["-c", script, folder.file("p.jpg"), folder.file("p.webp")])
        #expect(run.status == 0, "\(run.errors)")
        let size = "\(manifest.pages[0].width) \(manifest.pages[0].height)"
        #expect(String(decoding: run.output, as: UTF8.self) == "JPEG \(size) RGB\nWEBP \(size) RGBA\n")
    }

    @Test("--quality trades size for fidelity, and is recorded only when given")
    func quality() throws {
        let plain = try render("q.jpg")
        let low = try render("q40.jpg") { $0.rendering.quality = 40 }
        let small = try #require(Fixtures.read(folder.file("q40.jpg"))).count
        #expect(small < (try #require(Fixtures.read(folder.file("q.jpg")))).count)
        #expect(plain.render?.quality == nil && low.render?.quality == 40)
        #expect(throws: (any Error).self) {
            try ImageWallCommand.Render.parse([Fixtures.sampleImages, "-o", "x.jpg", "--quality", "0"])
        }
    }

    @Test("a JPEG sheet refuses a transparent background; a WebP sheet keeps it")
    func transparency() throws {
        let transparent: (inout WallOptions) -> Void = {
            $0.background = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
        }
        #expect {
            try render("t.jpg", configure: transparent)
        } throws: { error in
            (error as? PageFormatError)?.message.contains("--background") == true
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("t.jpg")))
        try render("t.webp", configure: transparent)
        let decoded = try SheetDiff.load(folder.file("t.webp"))
        #expect(decoded.channels == 4 && decoded.pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element == 0 })
    }

    @Test("a WebP page over 16,383 px is refused naming --max-height, which splits it into pages that fit")
    func webpLimit() throws {
        let tall: (inout WallOptions) -> Void = {
            $0.layout.width = 1200
            $0.layout.columns = 1
        }
        #expect {
            try render("tall.webp", configure: tall)
        } throws: { error in
            (error as? PageFormatError)?.message.contains("--max-height") == true
        }
        let pages = try render("tall-{page}.webp") {
            tall(&$0)
            $0.layout.maxPageHeight = 16000
        }
        #expect(pages.pages.count > 1)
        for page in pages.pages { #expect(page.height <= 16000) }
    }

    @Test("--format names the output; parts are not assembled into a lossy format")
    func formatAndParts() throws {
        try ImageWallCommand.Render.parse([
            Fixtures.sampleImages, "--include", "png-*.png", "-o", folder.file("s"), "--format", "jpeg", "-q",
        ]).run()
        #expect(Fixtures.read(folder.file("s.jpg"))?.prefix(3) == [0xFF, 0xD8, 0xFF])
        let manifest = folder.file("plan.json")
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (400, 2)
        options.input.scan.include = ["png-*.png"]
        try Wall(inputs: [Fixtures.sampleImages]).render(to: folder.file("p.png"), manifest: manifest, options: options)
        try Wall.render(
            part: try #require(SheetPart(1, of: 1)), ofManifestAt: manifest, to: folder.file("part-1"), options: options
        )
        #expect {
            try Wall.assemble(parts: [folder.file("part-1")], to: folder.file("p.jpg"))
        } throws: { error in
            (error as? PartError)?.message.contains("rendered in one process") == true
        }
    }

    /// The RGB pixels of `bitmap` inside `rect` (which lies inside it).
    func crop(_ bitmap: Bitmap, _ rect: Rect) -> Bitmap {
        var pixels: [UInt8] = []
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                for c in 0..<3 { pixels.append(bitmap.pixels[(y * bitmap.size.width + x) * bitmap.channels + c]) }
            }
        }
        return Bitmap(size: Size(width: rect.width, height: rect.height), alpha: .none, pixels: pixels)
    }

    /// Runs `render` with `arguments` on the stills of SampleImages.
    func run(_ arguments: [String]) throws {
        try ImageWallCommand.Render.parse(
            [Fixtures.sampleImages, "--include", "*.jpg", "--include", "png-*.png", "-q"] + arguments
        ).run()
    }

    @Test(
        "a PDF holds the sheet's pages on paper: the size asked, one sheet page a PDF page, drawn back as the sheet",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftoppm")))
    func pdf() throws {
        let paper = try #require(Paper("a4")), dpi = 100
        var printed = paper
        printed.dpi = dpi
        try run(["-o", folder.file("s.pdf"), "--paper", "a4", "--dpi", "\(dpi)", "--manifest", folder.file("s.json")])
        try run(["-o", folder.file("again.pdf"), "--paper", "a4", "--dpi", "\(dpi)"])
        #expect(Fixtures.read(folder.file("s.pdf")) == Fixtures.read(folder.file("again.pdf")))
        let manifest = try Wall.readManifest(folder.file("s.json"))
        #expect(manifest.pages.count > 1 && manifest.pages.allSatisfy { $0.file == folder.file("s.pdf") })
        #expect(manifest.pages.allSatisfy { $0.width == printed.sheetWidth && $0.height <= printed.pageHeight })
        let info = try Fixtures.run("/usr/bin/pdfinfo", [folder.file("s.pdf")])
        let text = String(decoding: info.output, as: UTF8.self)
        #expect(text.contains("Pages:           \(manifest.pages.count)\n"), "\(text)")
        #expect(text.contains("Page size:       595.276 x 841.89 pts (A4)"), "\(text)")
        #expect(text.contains("Producer:        \(ImageWallRelease.software)\n"), "\(text)")
        // Page 1 drawn back at the paper's resolution: the sheet's first page, where the margins put it.
        try run([
            "-o", folder.file("p.png"), "--width", "\(printed.sheetWidth)", "--max-height", "\(printed.pageHeight)",
        ])
        let drawn = try Fixtures.run(
            "/usr/bin/pdftoppm",
            ["-r", "\(dpi)", "-f", "1", "-l", "1", "-png", "-singlefile", folder.file("s.pdf"), folder.file("back")])
        #expect(drawn.status == 0, "\(drawn.errors)")
        let back = try SheetDiff.load(folder.file("back.png"))
        let sheet = try SheetDiff.load(folder.file("p-001.png"))
        #expect(back.size.width == 827 && (1169...1170).contains(back.size.height), "\(back.size)")
        let left = printed.pixels(printed.margin), top = printed.pixels(printed.margin + Paper.bandHeight)
        let area = Rect(x: left, y: top, width: sheet.size.width, height: sheet.size.height)
        let placed = crop(back, area)
        let difference = meanDifference(placed, sheet)
        #expect(difference < 12, "mean difference \(difference) between the PDF's page and the sheet")
        let blank = crop(back, Rect(x: 0, y: 0, width: back.size.width, height: left / 2))
        #expect(blank.pixels.allSatisfy { $0 > 240 }, "the margin is paper")
    }

    @Test(
        "a PDF's later pages are headed by the title drawn as the sheet draws it, in any script; the title is the document's",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftoppm")))
    func pdfTitle() throws {
        let title = "عطلة — שלום 東京 Holidays"
        try run(["-o", folder.file("h.pdf"), "--paper", "a5", "--dpi", "150", "--title", title])
        let info = try Fixtures.run("/usr/bin/pdfinfo", [folder.file("h.pdf")])
        #expect(String(decoding: info.output, as: UTF8.self).contains("Title:           \(title)\n"))
        // No tool complains of the document: no font with a broken character map is embedded.
        let drawn = try Fixtures.run(
            "/usr/bin/pdftoppm",
            [
                "-r", "150", "-f", "2", "-l", "2", "-png", "-singlefile", folder.file("h.pdf"),
                folder.file("second"),
            ])
        #expect(drawn.status == 0 && info.errors.isEmpty && drawn.errors.isEmpty, "\(info.errors) \(drawn.errors)")
        let fonts = try Fixtures.run("/usr/bin/pdffonts", [folder.file("h.pdf")])
        #expect(String(decoding: fonts.output, as: UTF8.self).split(separator: "\n").count == 3, "Helvetica alone")
        // Page 2 holds its sheet page and, above it, the header band: a picture of the title
        // drawn by the headings' face at 150 dpi, every script's glyphs (none a box), as wide as
        // that face draws the line.
        let pictures = folder.file("pictures")
        try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: pictures) }
        let extracted = try Fixtures.run(
            "/usr/bin/pdfimages", ["-png", "-f", "2", "-l", "2", folder.file("h.pdf"), pictures + "/p"])
        #expect(extracted.status == 0)
        let files = Fixtures.files(in: pictures)
        #expect(files.count == 2, "\(files)")
        let band = try SheetDiff.load(pictures + "/" + files[1])
        let pixelSize = Int((Paper.fontSize * 150 / 72).rounded())
        let expected = try FontFace(path: FontFace.boldPath).render(title, pixelSize: pixelSize)
        var inked: [Int] = []
        for y in 0..<band.size.height {
            for x in 0..<band.size.width where band.pixels[(y * band.size.width + x) * 3] < 200 { inked.append(x) }
        }
        let drawnWidth = (inked.max() ?? 0) - (inked.min() ?? 0) + 1
        // The same ink as the face's coverage of a quarter or more (dark 34 over white 255).
        let mask = expected.mask
        let columns = (0..<mask.size.width).filter { x in
            (0..<mask.size.height).contains { y in mask.coverage(x: x, y: y) >= 64 }
        }
        let faceWidth = (columns.max() ?? 0) - (columns.min() ?? 0) + 1
        #expect(abs(drawnWidth - faceWidth) <= 1, "drawn \(drawnWidth) px wide, the face draws \(faceWidth)")
        #expect(try FontFace(path: FontFace.boldPath).shape(title, pixelSize: pixelSize).allSatisfy { $0.index != 0 })
    }

    @Test(
        "a PDF's pictures kept lossless, and paper options refused for other formats",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pdfinfo")))
    func pdfLossless() throws {
        try run(["-o", folder.file("j.pdf"), "--paper", "a5", "--dpi", "72"])
        try run(["-o", folder.file("l.pdf"), "--paper", "a5", "--dpi", "72", "--quality", "lossless"])
        let lossy = try #require(Fixtures.read(folder.file("j.pdf"))).count
        let lossless = try #require(Fixtures.read(folder.file("l.pdf"))).count
        #expect(lossless > lossy)
        let info = String(decoding: try Fixtures.run("/usr/bin/pdfinfo", [folder.file("l.pdf")]).output, as: UTF8.self)
        #expect(info.contains("Page size:       419.528 x 595.276 pts"), "\(info)")
        #expect(throws: (any Error).self) {
            try ImageWallCommand.Render.parse([Fixtures.sampleImages, "-o", "x.png", "--paper", "a4"])
        }
        #expect(throws: (any Error).self) {
            try ImageWallCommand.Render.parse([Fixtures.sampleImages, "-o", "x.jpg", "--quality", "lossless"])
        }
        #expect(throws: (any Error).self) {
            try ImageWallCommand.Render.parse([Fixtures.sampleImages, "-o", "x.pdf", "--margin", "200"])
        }
        #expect {
            try render("t.pdf") { $0.background = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }
        } throws: { error in
            (error as? PageFormatError)?.message.contains("opaque --background") == true
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("t.pdf")))
    }
}
