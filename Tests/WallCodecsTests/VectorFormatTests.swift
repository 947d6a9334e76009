import Testing
import WallCodecs
import WallCore
import WallSamples
import _WallTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// SVG through librsvg and PDF through poppler: drawn at the tile's size, reading nothing outside
/// the SVG's folder, and refusing what would exhaust memory.
@Suite("SVG and PDF")
struct VectorFormatTests {
    let folder = TemporaryFolder()

    func probeError(_ text: String, _ name: String) -> String? {
        do {
            _ = try ImageProbe().probe(path: folder.write(Array(text.utf8), to: name))
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("an SVG reads images in its own folder only: not through .., an absolute path or the network")
    func ownFolderOnly() throws {
        // A red PNG in the SVG's folder and the same beside it, outside, where the SVG reaches for it.
        let red = Bitmap(size: Size(width: 8, height: 8), alpha: .none, fill: [255, 0, 0])
        mkdir(folder.file("drawings"), 0o755)
        try PNGEncoder.write(red, to: folder.file("drawings/inside.png"))
        try PNGEncoder.write(red, to: folder.file("outside.png"))
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="100">
            <rect width="400" height="100" fill="#0000ff"/>
            <image x="0" width="100" height="100" xlink:href="inside.png"/>
            <image x="100" width="100" height="100" xlink:href="../outside.png"/>
            <image x="200" width="100" height="100" xlink:href="file://\(folder.file("outside.png"))"/>
            <image x="300" width="100" height="100" xlink:href="http://127.0.0.1:9/outside.png"/>
            </svg>
            """
        let path = folder.write(Array(svg.utf8), to: "drawings/refs.svg")
        let info = try ImageProbe().probe(path: path)
        #expect(info.format == .svg && info.storedSize == Size(width: 400, height: 100) && info.hasAlpha)
        let bitmap = try ImageDecoder().decode(path: path, info: info).bitmap
        // The picture beside the SVG is drawn; the three outside it are not: blue shows.
        #expect(bitmap.pixel(x: 50, y: 50) == [255, 0, 0, 255])
        for x in [150, 250, 350] { #expect(bitmap.pixel(x: x, y: 50) == [0, 0, 255, 255], "at \(x)") }
    }

    @Test("an SVG is drawn at the size asked, sharp: a one-pixel line stays one pixel at any size")
    func drawnAtTileSize() throws {
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\
            <rect width="10" height="10" fill="#ffffff"/><rect x="5" width="5" height="10" fill="#000000"/></svg>
            """
        let path = folder.write(Array(svg.utf8), to: "half.svg")
        let info = try ImageProbe().probe(path: path)
        // No width or height: the viewBox's size.
        #expect(info.storedSize == Size(width: 10, height: 10))
        for side in [10, 96, 1000] {
            let bitmap = try ImageDecoder().decode(path: path, info: info, target: Size(width: side, height: side))
                .bitmap
            #expect(bitmap.size == Size(width: side, height: side))
            // The edge between white and black falls between two pixels, unblurred.
            #expect(bitmap.pixel(x: side / 2 - 1, y: side / 2) == [255, 255, 255, 255])
            #expect(bitmap.pixel(x: side / 2, y: side / 2) == [0, 0, 0, 255])
        }
    }

    @Test("bombs: an entity expansion, a 10⁹-pixel canvas and a huge PDF page are refused from their headers")
    func bombs() {
        var laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg [\n<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">\n"
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h", "i"] {
            laughs += "<!ENTITY \(name) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
            previous = name
        }
        laughs += "]>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><text>&i;</text></svg>\n"
        #expect(probeError(laughs, "laughs.svg")?.contains("entity reference loop") == true)
        let canvas = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40000\" height=\"40000\"/>"
        #expect(probeError(canvas, "canvas.svg")?.contains("over the limit") == true)
        #expect(
            probeError(VectorFormatTests.pdf(mediaBox: "0 0 14400000 14400000"), "poster.pdf")?.contains(
                "over the limit") == true)
        #expect(probeError("%PDF-1.4\n%%EOF\n", "empty.pdf")?.hasPrefix("PDF: poppler cannot read it") == true)
    }

    @Test("a PDF is laid out at its first page's size and drawn from it, on white")
    func pdfFirstPage() throws {
        let path = folder.write(Array(VectorFormatTests.pdf(mediaBox: "0 0 300 150").utf8), to: "two.pdf")
        let info = try ImageProbe().probe(path: path)
        #expect(info.format == .pdf && info.storedSize == Size(width: 400, height: 200) && !info.hasAlpha)
        #expect(info.drawnFrom == "page 1 of 2")
        let bitmap = try ImageDecoder().decode(path: path, info: info, target: Size(width: 200, height: 100)).bitmap
        #expect(bitmap.size == Size(width: 200, height: 100) && bitmap.alpha == .none)
        // The first page's red square (from 10, 10 to 60, 60 points, y up) and white elsewhere.
        #expect(bitmap.pixel(x: 20, y: 80) == [255, 0, 0])
        #expect(bitmap.pixel(x: 150, y: 20) == [255, 255, 255])
    }

    @Test("a PDF's second page is probed at its own size and drawn from itself")
    func secondPage() throws {
        let path = folder.write(Array(VectorFormatTests.pdf(mediaBox: "0 0 300 150").utf8), to: "pages.pdf")
        let first = try ImageProbe().probe(path: path)
        #expect(first.pageCount == 2 && first.page == nil)
        let second = try ImageProbe().probe(path: path, page: 2)
        #expect(second.page == 2 && second.storedSize == Size(width: 400, height: 400))
        #expect(second.drawnFrom == "page 2 of 2")
        // The second page is green all over.
        let bitmap = try ImageDecoder().decode(path: path, info: second, target: Size(width: 40, height: 40)).bitmap
        #expect(bitmap.pixel(x: 20, y: 20) == [0, 255, 0])
        #expect(throws: CodecError.self) { try ImageProbe().probe(path: path, page: 3) }
        // A picture of one page has no second.
        #expect(throws: CodecError.self) { try ImageProbe().probe(path: Fixtures.sample("png-rgb.png"), page: 2) }
    }

    /// A PDF of two pages: the first `mediaBox` with a red square, the second green all over.
    static func pdf(mediaBox: String) -> String {
        String(
            decoding: MinimalPDF.document([
                (mediaBox, "1 0 0 rg 10 10 50 50 re f"), ("0 0 300 300", "0 1 0 rg 0 0 300 300 re f"),
            ]), as: UTF8.self)
    }
}
