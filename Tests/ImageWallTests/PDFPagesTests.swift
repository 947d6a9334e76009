import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import WallSamples
import _WallTestSupport

/// `--pages all`: each page of a PDF a tile of its own, in order, recorded in the manifest and
/// drawn the same from it.
@Suite("PDF pages as tiles")
struct PDFPagesTests {
    let folder = TemporaryFolder()

    /// A PDF whose pages are `sizes` (points), page k filled with grey level 40 k.
    func document(_ sizes: [(Int, Int)]) -> [UInt8] {
        MinimalPDF.document(
            sizes.enumerated().map { k, size in
                ("0 0 \(size.0) \(size.1)", "\(Double(40 * (k + 1)) / 255) g 0 0 \(size.0) \(size.1) re f")
            })
    }

    @Test("each page a tile at its own size, in order; the first page alone by default; a replay draws the same")
    func pages() throws {
        mkdir(folder.file("docs"), 0o755)
        _ = folder.write(document([(300, 150), (150, 300), (225, 225)]), to: "docs/slides.pdf")
        try FileManager.default.copyItem(atPath: Fixtures.sample("png-rgb.png"), toPath: folder.file("docs/z.png"))
        var options = WallOptions()
        options.limits.threads = 1
        options.layout.kind = .justified
        options.rendering.caption = try CaptionTemplate("{stem}[ p{page}]")
        let single = try Wall(inputs: [folder.file("docs")]).plan(options: options)
        #expect(single.images.count == 2 && single.images[0].info.page == nil)
        options.input.pages = .all
        let manifest = try Wall(inputs: [folder.file("docs")]).render(to: folder.file("pages.png"), options: options)
        #expect(manifest.tiles.map(\.sourcePage) == [1, 2, 3, nil])
        #expect(
            manifest.tiles.map { Size(width: $0.sourceWidth, height: $0.sourceHeight) } == [
                Size(width: 400, height: 200), Size(width: 200, height: 400), Size(width: 300, height: 300),
                Size(width: 420, height: 280),
            ])
        // Each tile shows its own page's grey.
        let sheetPath = folder.file("pages.png")
        let sheet = try ImageDecoder().decode(path: sheetPath, info: try ImageProbe().probe(path: sheetPath)).bitmap
        for (k, tile) in manifest.tiles.prefix(3).enumerated() {
            let pixel = sheet.pixel(x: tile.x + tile.width / 2, y: tile.y + tile.height / 2)
            #expect(abs(Int(pixel[0]) - 40 * (k + 1)) <= 2, "page \(k + 1): \(pixel)")
        }
        try Wall.render(from: manifest, to: folder.file("again.png"), options: WallOptions())
        #expect(folder.read("pages.png") == folder.read("again.png"))
    }
}
