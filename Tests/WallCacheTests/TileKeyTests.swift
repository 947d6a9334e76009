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
        // it is listed, and then `recorded()` checks the manifest's coding has it too (the key
        // holds it by construction: the settings are encoded whole).
        let fields = Mirror(reflecting: TileSettings()).children.compactMap(\.label)
        #expect(Set(fields) == Set(Self.changes.map(\.field)))
        // The same text in every process (Swift's own hashing is seeded per process).
        #expect(plain == "{\"fast\":false,\"linear\":false}")
    }

    @Test("each setting is recorded in the manifest and in the parts' settings key too")
    func recorded() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let plain = WallOptions()
        let plainText = try encoder.encode(plain.rendering)
        for (field, change) in Self.changes {
            var options = WallOptions()
            change(&options.rendering.tile)
            let text = try encoder.encode(options.rendering)
            #expect(text != plainText, "\(field) is in the manifest's render object")
            #expect(
                try JSONDecoder().decode(RenderSettings.self, from: text) == options.rendering, "\(field) read back")
            #expect(
                RenderSession.settingsID(options) != RenderSession.settingsID(plain), "\(field) in the parts' key")
        }
    }
}
