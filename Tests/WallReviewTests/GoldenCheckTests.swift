import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import WallReview
import _WallTestSupport

/// The one way a sheet is settled against its golden, for `check` and `render --check` alike.
@Suite("Golden checks")
struct GoldenCheckTests {
    let folder = TemporaryFolder()

    /// SampleImages' first stills rendered to `name`.png and .json, `gap` px apart.
    func render(_ name: String, gap: Int = 10) throws {
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (400, 3)
        (options.layout.columnGap, options.layout.rowGap) = (gap, gap)
        let stills = ["orientation-1.jpg", "png-rgb.png", "grayscale.jpg", "landscape-baseline-420.jpg"]
        try Wall(inputs: stills.map(Fixtures.sample)).render(
            to: folder.file(name + ".png"), manifest: folder.file(name + ".json"), options: options)
    }

    func settle(_ check: GoldenCheck, golden: String = "golden") -> FixtureResult {
        check.settle(
            "sheet", golden: folder.file(golden + ".png"), goldenManifest: folder.file(golden + ".json"),
            sheet: folder.file("sheet.png"), manifest: folder.file("sheet.json"), started: Date()
        ).result
    }

    @Test("new, created, passed byte for byte, changed, updated; an obsolete golden pruned with its manifest")
    func outcomes() throws {
        try render("sheet")
        let check = GoldenCheck(options: SheetDiff.Options())
        #expect(settle(check).status == .new)
        #expect(!FileManager.default.fileExists(atPath: folder.file("golden.png")))
        var updating = check
        updating.update = true
        #expect(settle(updating).status == .updated)
        #expect(Fixtures.read(folder.file("golden.png")) == Fixtures.read(folder.file("sheet.png")))
        let passed = settle(check)
        #expect(passed.status == .passed && passed.message.contains("byte for byte"), "\(passed.message)")
        #expect(passed.pixels?.changed == 0)
        try render("sheet", gap: 14)
        let changed = settle(check)
        #expect(changed.status == .changed, "\(changed.message)")
        #expect(Fixtures.read(folder.file("golden.png")) != Fixtures.read(folder.file("sheet.png")))
        #expect(settle(updating).status == .updated)
        #expect(settle(check).status == .passed)
        // Every pixel allowed to change: a changed sheet passes, and says so.
        try render("sheet", gap: 12)
        let lenient = GoldenCheck(options: SheetDiff.Options(), allowance: { $0 })
        #expect(
            lenient.settle(
                "sheet", golden: folder.file("golden.png"), goldenManifest: nil, sheet: folder.file("sheet.png"),
                manifest: folder.file("sheet.json"), started: Date()
            ).result.status == .passed)
        let kept = GoldenCheck.obsolete(folder.file("golden.png"), prune: false)
        #expect(kept.status == .obsolete && FileManager.default.fileExists(atPath: folder.file("golden.png")))
        let pruned = GoldenCheck.obsolete(folder.file("golden.png"), prune: true)
        #expect(pruned.status == .obsolete && pruned.message.hasPrefix("removed"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("golden.png")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("golden.json")))
    }
}
