import Foundation
import Testing

@testable import ImageWall

@Suite("The tile key holds every tile setting")
struct TileKeyTests {
    /// Each field of ``TileSettings`` changed on its own, named as it is coded.
    static let changes: [(field: String, change: @Sendable (inout TileSettings) -> Void)] = [
        ("linear", { $0.linear = true }),
        ("fast", { $0.fast = true }),
        ("decodeFloor", { $0.decodeFloor = 320 }),
    ]

    @Test("each setting changed on its own changes the key's text, and every field is in it")
    func everyField() throws {
        let plain = TileMaker.keyText(of: TileSettings())
        var texts: Set<String> = [plain]
        for (field, change) in Self.changes {
            var settings = TileSettings()
            change(&settings)
            let text = TileMaker.keyText(of: settings)
            #expect(text.contains("\"\(field)\""), "\(field) in \(text)")
            texts.insert(text)
        }
        #expect(texts.count == Self.changes.count + 1, "every change gives a key of its own")
        // Every stored field is changed above: a field added to TileSettings fails here until
        // it is, and the key holds it whatever the test says (the settings are encoded whole).
        let fields = Mirror(reflecting: TileSettings()).children.compactMap(\.label)
        #expect(Set(fields) == Set(Self.changes.map(\.field)))
        // The same text in every process (Swift's own hashing is seeded per process).
        #expect(plain == "{\"fast\":false,\"linear\":false}")
    }

    /// ``TileSettings`` with one more setting, as a change to ImageWall would add it.
    struct WithSharpening: Encodable {
        var linear = false
        var fast = false
        var decodeFloor: Int?
        var sharpen = 0.0
    }

    @Test("a setting added to the tile's settings changes the key with nothing else changed")
    func addedSetting() throws {
        var sharpened = WithSharpening()
        #expect(TileMaker.keyText(of: sharpened) != TileMaker.keyText(of: TileSettings()))
        let before = TileMaker.keyText(of: sharpened)
        sharpened.sharpen = 0.5
        #expect(TileMaker.keyText(of: sharpened) != before)
    }
}
