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
        #expect(short.coverage.contains(255))
        #expect(short.coverage.contains { $0 > 0 && $0 < 255 })  // anti-aliased edges
        let accented = try face.render("Café Ŝ 東", pixelSize: 24)  // the last falls back to a box
        #expect(accented.coverage.contains(255))
    }

    @Test("a missing font file is reported with its path")
    func missing() {
        #expect(throws: TextError.self) { try FontFace(path: "/no/such/font.ttf") }
    }
}
