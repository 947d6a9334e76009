import ImageWall
import Testing
import WallCore

/// One page format, decided once from the output's name or a choice, for every layer.
@Suite("Page formats")
struct PageFormatTests {
    @Test(
        "the name says the format; a name without one, or with one that is no image's, is a PNG",
        arguments: [
            ("sheet.png", PageFormat.png), ("out/Sheet.PNG", .png), ("wall.dzi", .deepZoom), ("sheet", .png),
            ("sheet.v2", .png), ("dir.jpg/sheet", .png), (".hidden", .png), ("sheet-{page}.png", .png),
            ("sheet.jpg", .jpeg), ("Sheet.JPEG", .jpeg), ("sheet.webp", .webp), ("print.pdf", .pdf),
        ])
    func named(path: String, format: PageFormat) throws {
        #expect(try PageFormat(path: path) == format)
    }

    @Test(
        "a name that asks for an image format ImageWall does not write is refused, naming it",
        arguments: [("s.gif", "GIF"), ("s.tiff", "TIFF"), ("s.heic", "HEIF"), ("s.bmp", "BMP")])
    func refused(path: String, named: String) {
        #expect(throws: PageFormatError(path: path, named: named)) { try PageFormat(path: path) }
        #expect { try PageFormat(path: path) } throws: { ($0 as? PageFormatError)?.kind == .unknownFormat }
        let message = PageFormatError(path: path, named: named).message
        #expect(
            message.contains(path)
                && message.contains("PNG (.png), JPEG (.jpg), WebP (.webp), PDF (.pdf) and Deep Zoom (.dzi)"))
    }

    @Test("a format asked for names the output, or disagrees with its name")
    func resolved() throws {
        for (output, format, path, resolved) in [
            ("wall", PageFormat.deepZoom, "wall.dzi", PageFormat.deepZoom),
            ("wall.dzi", .deepZoom, "wall.dzi", .deepZoom),
            ("wall.dzi", nil, "wall.dzi", .deepZoom), ("sheet", nil, "sheet", .png), ("sheet", .png, "sheet", .png),
            ("sheet", .jpeg, "sheet.jpg", .jpeg), ("s.jpeg", .jpeg, "s.jpeg", .jpeg), ("s", .webp, "s.webp", .webp),
        ] {
            let result = try PageFormat.resolve(output: output, format: format)
            #expect(result.path == path && result.format == resolved, "\(output)")
        }
        #expect(throws: PageFormatError(path: "wall.dzi", named: "Deep Zoom", asked: .png)) {
            try PageFormat.resolve(output: "wall.dzi", format: .png)
        }
        #expect(throws: PageFormatError(path: "s.png", named: "PNG", asked: .deepZoom)) {
            try PageFormat.resolve(output: "s.png", format: .deepZoom)
        }
        #expect(throws: PageFormatError(path: "s.jpg", named: "JPEG", asked: .webp)) {
            try PageFormat.resolve(output: "s.jpg", format: .webp)
        }
        #expect { try PageFormat.resolve(output: "s.jpg", format: .webp) } throws: {
            ($0 as? PageFormatError)?.kind == .otherThanAsked
        }
        // Pages the format cannot hold: alpha in a JPEG, a side past WebP's largest.
        #expect {
            try PageFormat.jpeg.check(pages: [Size(width: 10, height: 10)], opaque: false, output: "s.jpg")
        } throws: {
            ($0 as? PageFormatError)?.kind == .cannotHold
        }
        #expect {
            try PageFormat.webp.check(pages: [Size(width: 20_000, height: 10)], opaque: true, output: "s.webp")
        } throws: {
            ($0 as? PageFormatError)?.kind == .cannotHold && "\($0)".contains("a smaller --width")
        }
        #expect(throws: Never.self) {
            try PageFormat.png.check(pages: [Size(width: 20_000, height: 10)], opaque: false, output: "s.png")
        }
    }

    @Test("only pyramids escape the sheet's pixel cap; a page's stem drops its extension")
    func capAndStem() {
        #expect(PageFormat.png.isPixelCapped && PageFormat.jpeg.isPixelCapped && !PageFormat.deepZoom.isPixelCapped)
        #expect(PageFormat.jpeg.stem(of: "a/s.JPEG") == "a/s" && PageFormat.jpeg.stem(of: "a/s.jpg") == "a/s")
        #expect(PageFormat.deepZoom.stem(of: "a/wall.dzi") == "a/wall")
        #expect(PageFormat.deepZoom.stem(of: "a/wall") == "a/wall")
    }

    @Test("the library refuses the same names the command does")
    func libraryRefuses() {
        #expect(throws: PageFormatError.self) {
            try Wall(inputs: ["x.jpg"]).render(to: "sheet.bmp", options: WallOptions())
        }
    }
}
