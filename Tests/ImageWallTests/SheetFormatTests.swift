import ArgumentParser
import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCommand
import WallCore
import WallParts
import WallReview
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
        (options.layout.width, options.layout.columns, options.threads) = (800, 4, threads)
        options.scan.include = ["*.jpg", "png-*.png"]
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
        options.scan.include = ["png-*.png"]
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
}
