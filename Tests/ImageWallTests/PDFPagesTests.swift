import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

/// `--pages all`: each page of a PDF a tile of its own, in order, recorded in the manifest and
/// drawn the same from it.
@Suite("PDF pages as tiles")
struct PDFPagesTests {
    let folder = TemporaryFolder()

    /// A PDF whose pages are `sizes` (points), page k filled with grey level 40 k.
    func document(_ sizes: [(Int, Int)]) -> [UInt8] {
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>"]
        let kids = sizes.indices.map { "\(3 + 2 * $0) 0 R" }.joined(separator: " ")
        objects.append("<< /Type /Pages /Kids [\(kids)] /Count \(sizes.count) >>")
        for (k, size) in sizes.enumerated() {
            let grey = Double(40 * (k + 1)) / 255
            let content = "\(grey) g 0 0 \(size.0) \(size.1) re f"
            objects.append(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(size.0) \(size.1)] /Contents \(4 + 2 * k) 0 R >>")
            objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        }
        var text = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let table = text.utf8.count
        text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { text += String(String(offset + 10_000_000_000).dropFirst()) + " 00000 n \n" }
        text += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(table)\n%%EOF\n"
        return Array(text.utf8)
    }

    @Test("each page a tile at its own size, in order; the first page alone by default; a replay draws the same")
    func pages() throws {
        mkdir(folder.file("docs"), 0o755)
        _ = folder.write(document([(300, 150), (150, 300), (225, 225)]), to: "docs/slides.pdf")
        try FileManager.default.copyItem(atPath: Fixtures.sample("png-rgb.png"), toPath: folder.file("docs/z.png"))
        var options = WallOptions()
        options.threads = 1
        options.layout.kind = .justified
        options.rendering.caption = try CaptionTemplate("{stem}[ p{page}]")
        let single = try Wall(inputs: [folder.file("docs")]).plan(options: options)
        #expect(single.images.count == 2 && single.images[0].info.page == nil)
        options.pages = .all
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
