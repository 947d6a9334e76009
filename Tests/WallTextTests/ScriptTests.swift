import Foundation
import Testing
import WallText

/// Names in every script, set with the fonts `make deps` installs: no glyph is the missing-glyph
/// box, each script comes from a font that has it, and complex scripts are shaped.
@Suite(
    "Text in every script",
    .enabled(
        if: ["/usr/share/fonts/truetype/droid", "/usr/share/fonts/truetype/ancient-scripts"].allSatisfy {
            FileManager.default.fileExists(atPath: $0)
        }))
struct ScriptTests {
    let face: FontFace

    init() throws { face = try FontFace(path: FontFace.defaultPath) }

    static let names: [(script: String, text: String, font: String)] = [
        ("Latin", "Ærøskøbing Straße", "DejaVuSans"), ("Cyrillic", "Москва зимой", "DejaVuSans"),
        ("Greek", "Ακρόπολη", "DejaVuSans"), ("Arabic", "سلام عليكم", "DejaVuSans"),
        ("Hebrew", "שלום עולם", "DejaVuSans"),
        ("CJK", "東京タワー 北京", "DroidSansFallback"), ("emoji", "🙂🎉", "NotoColorEmoji"),
        ("symbols", "🜁 ⯄", "Symbola"), ("Devanagari", "हिन्दी", "Lohit"),
    ]

    @Test("no glyph is a missing-glyph box, and each script is drawn by a font that has it", arguments: names)
    func everyScript(script: String, text: String, font: String) throws {
        let glyphs = try face.shape(text, pixelSize: 20)
        #expect(!glyphs.isEmpty)
        #expect(
            glyphs.allSatisfy { $0.index != 0 }, "\(script): a missing glyph in \(glyphs.map { ($0.font, $0.index) })")
        let letters = glyphs.filter { !$0.font.hasSuffix("DejaVuSans.ttf") || font == "DejaVuSans" }
        #expect(letters.contains { $0.font.contains(font) }, "\(script): drawn from \(Set(glyphs.map(\.font)))")
        let line = try face.render("name " + text, pixelSize: 20)
        #expect(line.mask.coverage.contains(255) && line.size.width > 40)
    }

    @Test("Arabic letters join, Hebrew reads right to left, Devanagari's vowel sign goes before its consonant")
    func shaping() throws {
        func ids(_ text: String) throws -> [UInt32] { try face.shape(text, pixelSize: 20).map(\.index) }
        // Isolated forms of the letters of سلام, against the joined word: some forms differ.
        let isolated = try Set(["س", "ل", "ا", "م"].flatMap { try ids($0) })
        #expect(try !Set(ids("سلام")).isSubset(of: isolated))
        // In visual order the last letter of שלום (final mem) comes first, the first (shin) last.
        let hebrew = try ids("שלום")
        let mem = try ids("ם"), shin = try ids("ש"), he = try ids("ह")
        #expect(hebrew.first == mem.first && hebrew.last == shin.first)
        // ह + ि: the sign is drawn left of the consonant.
        let deva = try face.shape("हि", pixelSize: 20)
        #expect(deva.count == 2 && deva[1].index == he.first && deva[0].x < deva[1].x)
        // A Hebrew word inside a Latin line keeps the line's order around it, reversed itself.
        #expect(try ids("ab שלום cd") == ids("ab ") + hebrew + ids(" cd"))
        // Numbers inside right-to-left text read left to right; the words around them swap.
        let digits = try ids("123")
        #expect(try ids("אב 123 גד") == ids("גד") + ids(" ") + digits + ids(" ") + ids("אב"))
    }

    @Test("lines ordered by the Unicode bidirectional algorithm: times, dates and dashes between scripts")
    func bidirectional() throws {
        func ids(_ text: String) throws -> [UInt32] { try face.shape(text, pixelSize: 20).map(\.index) }
        // A time inside Hebrew keeps its digits in order; the words around it swap.
        #expect(try ids("שלום 12:30 עולם") == ids("עולם") + ids(" ") + ids("12:30") + ids(" ") + ids("שלום"))
        // A Hebrew name and a date: the date's own order kept, its parts not swapped.
        let date = try ids("2026-11-21"), time = try ids("15:10")
        let line = try ids("שלום 2026-11-21 15:10")
        #expect(try line == time + ids(" ") + date + ids(" ") + ids("שלום"), "\(line)")
        // Four scripts: the right-to-left words between two dashes are one stretch, read from
        // the right (Arabic, then Hebrew), the digits stay with the Chinese before them, and
        // each dash is drawn once.
        let mixed = try ids("東京 2026 — שלום עולם — مرحبا — नमस्ते")
        let dash = try ids("—")
        #expect(mixed.filter { dash.contains($0) }.count == 3)
        let expected =
            try ids("東京 2026 — ") + ids("مرحبا") + ids(" — ") + ids("שלום עולם") + ids(" — ") + ids("नमस्ते")
        #expect(mixed == expected, "\(mixed) against \(expected)")
        // Brackets around right-to-left text are paired and mirrored: they still open and close it.
        #expect(try ids("(שלום)") == ids("(") + ids("שלום") + ids(")"))
    }

    @Test("emoji are drawn in colour from the emoji font, and a sequence is one glyph: a family, a flag, a skin tone")
    func emojiSequences() throws {
        for sequence in ["👨‍👩‍👧", "🇯🇵", "👍🏽", "❤️", "1️⃣"] {
            let glyphs = try face.shape(sequence, pixelSize: 24)
            #expect(glyphs.count == 1, "\(sequence): \(glyphs.count) glyphs")
            #expect(glyphs.allSatisfy { $0.font.hasSuffix("NotoColorEmoji.ttf") && $0.index != 0 }, "\(sequence)")
        }
        // Without the emoji selector a symbol keeps its text face; spaces after an emoji too.
        #expect(try face.shape("☺", pixelSize: 24).allSatisfy { !$0.font.hasSuffix("NotoColorEmoji.ttf") })
        #expect(
            try face.shape("🙂 a", pixelSize: 24).map(\.font).filter { $0.hasSuffix("NotoColorEmoji.ttf") }.count == 1)
        // Drawn in its own colours, at the size asked, on the line's baseline.
        let line = try face.render("a 👍🏽 b", pixelSize: 24)
        let paint = try #require(line.mask.paint)
        var colours = Set<[UInt8]>()
        for at in 0..<(paint.count / 4) where paint[at * 4 + 3] == 255 {
            colours.insert(Array(paint[at * 4..<at * 4 + 3]))
        }
        #expect(colours.count > 20, "a picture, not a shape in one colour: \(colours.count) colours")
        #expect(line.size.height <= 40 && line.size.width < 24 * 4, "\(line.size)")
        // Text without emoji has no paint.
        #expect(try face.render("a b", pixelSize: 24).mask.paint == nil)
    }

    @Test("--font by family name through fontconfig, as well as by file name")
    func families() throws {
        #expect(try FontFace(named: "DejaVu Serif").path.hasSuffix("DejaVuSerif.ttf"))
        #expect(try FontFace(named: "DejaVu Sans:bold").path.hasSuffix("DejaVuSans-Bold.ttf"))
        #expect(try FontFace(named: "Lohit Devanagari").path.contains("Lohit-Devanagari"))
    }
}
