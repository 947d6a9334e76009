import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import WallLayout
import _WallTestSupport

@Suite("Captions, titles, pages")
struct CompositionTests {
    let folder = TemporaryFolder()

    func decode(_ path: String) throws -> Bitmap {
        try ImageDecoder().decode(path: path, info: try ImageProbe().probe(path: path)).bitmap
    }

    func options(width: Int = 600, columns: Int = 3) -> WallOptions {
        var layout = LayoutConfiguration()
        (layout.width, layout.columns) = (width, columns)
        var options = WallOptions(layout: layout)
        options.background = .black
        options.rendering.textColor = .white
        options.limits.threads = 2
        return options
    }

    @Test("captions are drawn in their band and never outside the tile's column")
    func captions() throws {
        var options = options()
        options.rendering.caption = try CaptionTemplate("{name} is a file with a very long caption that cannot fit")
        let output = folder.file("captions.png")
        let manifest = try Wall(inputs: [Fixtures.sampleImages]).render(to: output, options: options)
        let sheet = try decode(output)
        var lit = 0
        for tile in manifest.tiles {
            let band = try #require(tile.caption)
            #expect(band.y == tile.y + tile.height && band.height == 21)  // 13 px text: 21 px band
            let mean = sheet.mean(in: Rect(x: band.x, y: band.y, width: band.width, height: band.height))
            if mean[0] > 10 { lit += 1 }
        }
        #expect(lit == manifest.tiles.count)  // every caption has text
        // Nothing but background in the gaps between columns, caption rows included.
        let gaps = (0..<sheet.size.height).flatMap { y in
            [manifest.tiles.map { $0.x + $0.width }.min()!].map { sheet.pixel(x: $0 + 4, y: y) }
        }
        #expect(gaps.allSatisfy { $0 == [0, 0, 0] })
    }

    @Test("a title band tops the first page")
    func title() throws {
        var options = options()
        options.rendering.title = "Contact sheet"
        let output = folder.file("title.png")
        let manifest = try Wall(inputs: [Fixtures.sample("png-rgb.png")]).render(to: output, options: options)
        let title = try #require(manifest.title)
        #expect(title.text == "Contact sheet" && title.box.y == 10 && title.box.height == 47)
        #expect(manifest.tiles[0].y == title.box.y + title.box.height + 10)
        let sheet = try decode(output)
        #expect(
            sheet.mean(in: Rect(x: title.box.x, y: title.box.y, width: title.box.width, height: title.box.height))[0]
                > 5)
    }

    @Test(
        "pages: split at the height asked, no tile cut, every tile on its page",
        arguments: [LayoutKind.masonry, .columns, .justified, .grid, .mosaic])
    func pages(kind: LayoutKind) throws {
        var options = options()
        options.layout.kind = kind
        options.layout.rowHeight = 150
        options.layout.maxPageHeight = 700
        let output = folder.file("\(kind)-{page}.png")
        let manifest = try Wall(inputs: [Fixtures.sampleImages]).render(to: output, options: options)
        #expect(manifest.pages.count > 1)
        #expect(
            manifest.pages.map(\.file)
                == (1...manifest.pages.count).map { folder.file("\(kind)-\(String(format: "%03d", $0)).png") })
        for (number, page) in manifest.pages.enumerated() {
            #expect(page.height <= 700)
            let sheet = try decode(try #require(page.file))
            #expect(sheet.size == Size(width: page.width, height: page.height))
            for tile in manifest.tiles where tile.page == number {
                #expect(tile.y >= 0 && tile.y + tile.height <= page.height - 10)
            }
        }
        #expect(Set(manifest.tiles.map(\.page)) == Set(0..<manifest.pages.count))
        #expect(manifest.tiles.map(\.page) == manifest.tiles.map(\.page).sorted())  // in reading order
    }

    @Test("pages without {page} are numbered before the extension; a pixel limit splits too")
    func pageNames() throws {
        #expect(OutputNaming.pages(for: "out/sheet.png", count: 1) == ["out/sheet.png"])
        #expect(OutputNaming.pages(for: "out/sheet.png", count: 2) == ["out/sheet-001.png", "out/sheet-002.png"])
        #expect(OutputNaming.pages(for: "out.d/sheet", count: 2) == ["out.d/sheet-001", "out.d/sheet-002"])
        #expect(OutputNaming.pages(for: "p{page}/s-{page}.png", count: 1) == ["p001/s-001.png"])
        var options = options()
        options.layout.maxPagePixels = 600 * 800
        let manifest = try Wall(inputs: [Fixtures.sampleImages]).render(to: folder.file("px.png"), options: options)
        #expect(manifest.pages.count > 1 && manifest.pages.allSatisfy { $0.width * $0.height <= 600 * 800 })
    }

    @Test("a sheet over the pixel cap is refused before anything is written")
    func cap() throws {
        var options = options()
        options.limits.maxSheetPixels = 100_000
        #expect(throws: SheetSizeError.self) {
            try Wall(inputs: [Fixtures.sampleImages]).render(to: folder.file("big.png"), options: options)
        }
        #expect(Fixtures.files(in: folder.path).isEmpty && Fixtures.hiddenFiles(in: folder.path).isEmpty)
    }

    @Test("with --on-error fail, a bad file on a later page leaves no page written")
    func pagesAllOrNothing() throws {
        let good = Fixtures.read(Fixtures.sample("png-rgb.png"))!
        for i in 0..<6 { folder.write(good, to: "img\(i).png") }
        var broken = good
        // The header is fine, the data gone.
        broken.replaceSubrange(60..<good.count, with: [UInt8](repeating: 0, count: good.count - 60))
        folder.write(broken, to: "img9.png")
        var options = options(width: 300, columns: 1)
        options.layout.maxPageHeight = 300
        options.limits.onError = .fail
        let output = folder.file("out/page.png")
        mkdir(folder.file("out"), 0o755)
        defer { rmdir(folder.file("out")) }
        #expect(throws: CodecError.self) { try Wall(inputs: [folder.path]).render(to: output, options: options) }
        #expect(Fixtures.files(in: folder.file("out")).isEmpty && Fixtures.hiddenFiles(in: folder.file("out")).isEmpty)
    }

    @Test("decorated, captioned renders are byte-identical across thread counts")
    func deterministic() throws {
        var options = options()
        options.rendering.caption = try CaptionTemplate("{index}: {stem}")
        options.rendering.style = TileStyle(cornerRadius: 9, border: 2, borderColor: .white)
        options.layout.maxPageHeight = 900
        options.limits.threads = 1
        let one = try Wall(inputs: [Fixtures.sampleImages]).render(to: folder.file("a.png"), options: options)
        options.limits.threads = 3
        let three = try Wall(inputs: [Fixtures.sampleImages]).render(to: folder.file("b.png"), options: options)
        for (a, b) in zip(one.pages, three.pages) {
            #expect(Fixtures.read(a.file ?? "") == Fixtures.read(b.file ?? ""))
        }
    }
}
