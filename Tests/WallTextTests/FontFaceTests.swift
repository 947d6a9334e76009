import Foundation
import Testing
import WallText

@Suite("FreeType text")
struct FontFaceTests {
    @Test("DejaVu renders anti-aliased text whose width grows with the string")
    func renders() throws {
        let face = try FontFace(path: FontFace.defaultPath)
        let short = try face.render("Wall", pixelSize: 24)
        let long = try face.render("ImageWall contact sheet", pixelSize: 24)
        #expect(long.size.width > 3 * short.size.width)
        #expect(short.size.height >= 24)
        #expect(short.mask.coverage.contains(255))
        #expect(short.mask.coverage.contains { $0 > 0 && $0 < 255 })  // anti-aliased edges
        let accented = try face.render("Café Ŝ 東", pixelSize: 24)  // the last falls back to a box
        #expect(accented.mask.coverage.contains(255))
        let fallback = try face.render("東", pixelSize: 24)
        #expect(fallback.mask.coverage.contains { $0 > 0 })  // the box, not nothing
    }

    @Test("measure agrees with the rendered width, and fitting ellipsises")
    func fitting() throws {
        let face = try FontFace(path: FontFace.defaultPath)
        let text = "a-rather-long-file-name-from-a-camera.jpg"
        let width = try face.measure(text, pixelSize: 14)
        #expect(abs(width - (try face.render(text, pixelSize: 14)).size.width) <= 2)
        #expect(try face.fitting(text, width: width, pixelSize: 14) == text)
        let short = try face.fitting(text, width: 100, pixelSize: 14)
        #expect(short.hasSuffix("…") && short.count < text.count)
        #expect(try face.measure(short, pixelSize: 14) <= 100)
        #expect(try face.fitting(text, width: 3, pixelSize: 14) == "")
    }

    @Test("fonts are found by name under the system font folders")
    func byName() throws {
        #expect(try FontFace(named: "DejaVu Sans Bold").path.hasSuffix("DejaVuSans-Bold.ttf"))
        #expect(try FontFace(named: "dejavusansmono").path.hasSuffix("DejaVuSansMono.ttf"))
        #expect(throws: TextError.self) { try FontFace(named: "No Such Font") }
    }

    @Test("a missing font file is reported with its path")
    func missing() {
        #expect(throws: TextError.self) { try FontFace(path: "/no/such/font.ttf") }
    }
}
