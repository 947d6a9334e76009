import Testing
import WallCore

@Suite("Colours and geometry")
struct ColorTests {
    @Test(
        "colour notations",
        arguments: [
            ("#fff", RGBAColor.white), ("#FFFFFF", .white), ("white", .white), ("Transparent", .transparent),
            ("#20202080", RGBAColor(red: 32, green: 32, blue: 32, alpha: 128)),
            ("#123456", RGBAColor(red: 0x12, green: 0x34, blue: 0x56)),
        ])
    func parses(text: String, color: RGBAColor) {
        #expect(RGBAColor(parsing: text) == color)
    }

    @Test("bad colours are refused", arguments: ["", "#12", "#12345", "#gggggg", "whitish", "123456"])
    func refuses(text: String) {
        #expect(RGBAColor(parsing: text) == nil)
    }

    @Test("colours print back as they parse")
    func roundTrip() {
        for text in ["#202020", "#ffffff", "#00000000", "#12345678"] {
            #expect(RGBAColor(parsing: text)?.description == text)
        }
    }

    @Test("rectangles meet only when they share a pixel")
    func intersection() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.intersects(Rect(x: 9, y: 9, width: 5, height: 5)))
        #expect(!a.intersects(Rect(x: 10, y: 0, width: 5, height: 5)))
        #expect(!a.intersects(Rect(x: 0, y: 10, width: 5, height: 5)))
        #expect(a.contains(Rect(x: 2, y: 2, width: 8, height: 8)))
        #expect(!a.contains(Rect(x: 2, y: 2, width: 9, height: 8)))
    }

    @Test("area reports overflow instead of trapping")
    func areaOverflow() {
        #expect(Size(width: Int.max, height: 2).area == nil)
        #expect(Size(width: 20000, height: 20000).area == 400_000_000)
    }
}
