import Foundation
import ImageWall
import Testing
import WallCore
import _WallTestSupport

/// A manifest rendered again after one of its sources changed shape (issue 26, item 7).
@Suite("Replaying a manifest whose source changed")
struct ReplayChangedSourceTests {
    let folder = TemporaryFolder()

    /// A manifest of two images, then the first replaced by a picture of another shape.
    func changed() throws -> (manifest: String, replaced: String) {
        let a = folder.file("a.jpg"), b = folder.file("b.png")
        try FileManager.default.copyItem(atPath: Fixtures.sample("square-baseline-444.jpg"), toPath: a)
        try FileManager.default.copyItem(atPath: Fixtures.sample("png-rgb.png"), toPath: b)
        var options = WallOptions()
        options.layout.width = 600
        let manifest = folder.file("m.json")
        try Wall(inputs: [a, b]).render(to: folder.file("one.png"), manifest: manifest, options: options)
        try FileManager.default.removeItem(atPath: a)
        try FileManager.default.copyItem(atPath: Fixtures.sample("panorama-4x1.jpg"), toPath: a)
        return (manifest, a)
    }

    @Test("it is drawn cropped to its cell, never squeezed, and the change is warned about and recorded")
    func croppedAndWarned() throws {
        let (path, replaced) = try changed()
        let recorded = try Wall.readManifest(path)
        let warned = Locked<[String]>([])
        let hooks = RunHooks(diagnostics: { d in warned.withLock { $0.append(d.description) } })
        let again = try Wall.render(
            from: recorded, to: folder.file("two.png"), recordedAt: path, options: WallOptions(), hooks: hooks)
        let tile = again.tiles[0]
        #expect(tile.sourceWidth == 800 && tile.sourceHeight == 200)
        let crop = try #require(tile.crop)
        // The part shown has the shape of the rectangle it is drawn into.
        #expect(abs(crop.width / crop.height - Double(tile.width) / Double(tile.height)) < 0.02)
        #expect(tile.warnings.contains { $0.contains("400x400 then, 800x200 now") }, "\(tile.warnings)")
        #expect(
            warned.withLock { $0 }.contains { $0.contains(replaced) && $0.contains("800x200 now") },
            "\(warned.withLock { $0 })")
        #expect(again.tiles[1].warnings.isEmpty)
    }

    @Test("--strict refuses it: listed as skipped and drawn as a placeholder, or the run stops")
    func strictRefuses() throws {
        let (path, _) = try changed()
        var options = WallOptions()
        options.strict = true
        let again = try Wall.render(
            from: try Wall.readManifest(path), to: folder.file("s.png"), recordedAt: path, options: options)
        #expect(again.skipped.count == 1 && again.tiles[0].placeholder?.contains("(--strict)") == true)
        options.onError = .fail
        #expect(throws: (any Error).self) {
            try Wall.render(
                from: try Wall.readManifest(path), to: folder.file("f.png"), recordedAt: path, options: options)
        }
    }
}
