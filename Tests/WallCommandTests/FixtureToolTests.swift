import ArgumentParser
import Foundation
import ImageWall
import Synchronization
import Testing
import WallCodecs
import WallCommand
import WallCore
import WallLayout
import WallPages
import WallReview
import WallSamples
import _WallTestSupport

@Suite("Fixtures: diff, render again, HTML")
struct FixtureToolTests {
    let folder = TemporaryFolder()

    func render(_ inputs: [String], to name: String) throws -> Manifest {
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (500, 3)
        return try Wall(inputs: inputs).render(
            to: folder.file(name), manifest: folder.file(name + ".json"), options: options)
    }

    @Test("diff counts changed pixels, draws them, names the tiles, and exits 0, 1 or 2")
    func diff() throws {
        let sources = folder.file("src")
        mkdir(sources, 0o755)
        defer { for f in Fixtures.files(in: sources) { unlink(sources + "/" + f) }; rmdir(sources) }
        for name in ["a.png", "b.png", "c.png"] {
            FileManager.default.createFile(
                atPath: sources + "/" + name, contents: Data(Fixtures.read(Fixtures.sample("png-rgb.png"))!))
        }
        let before = try render([sources], to: "before.png")
        // Paint a red block into b.png: same size, different pixels.
        var changed = try SheetDiff.load(sources + "/b.png")
        for y in 100..<150 {
            for x in 100..<150 {
                changed.pixels.replaceSubrange((y * 420 + x) * 3..<(y * 420 + x) * 3 + 3, with: [255, 0, 0])
            }
        }
        try PNGEncoder.write(changed, to: sources + "/b.png")
        _ = try render([sources], to: "after.png")
        let (result, mask, picture) = try SheetDiff.compare(
            try SheetDiff.load(folder.file("before.png")), try SheetDiff.load(folder.file("after.png")), tolerance: 2)
        #expect(result.changedPixels > 100 && result.maxDelta > 100)
        #expect(picture.pixels.contains(255))
        let after = try Wall.readManifest(folder.file("after.png.json"))
        let changes = SheetDiff.compare(
            before, after, mask: SheetDiff.ChangeMask(width: result.size.width, flags: mask))
        // Named by their path under the folder given.
        #expect(changes.changed == ["b.png"] && changes.moved.isEmpty && changes.appeared.isEmpty)
        // Exit statuses.
        let same = try ImageWallCommand.Diff.parse([folder.file("before.png"), folder.file("before.png")])
        try same.run()
        let different = try ImageWallCommand.Diff.parse([
            folder.file("before.png"), folder.file("after.png"), "-o", folder.file("d.png"),
        ])
        #expect(throws: ExitCode(1)) { try different.run() }
        #expect(Fixtures.read(folder.file("d.png")) != nil)
        let allowed = try ImageWallCommand.Diff.parse([
            folder.file("before.png"), folder.file("after.png"), "--max-diff-pixels", "5%",
        ])
        try allowed.run()
        _ = try render([Fixtures.sample("png-rgba.png")], to: "other.png")
        let mismatch = try ImageWallCommand.Diff.parse([folder.file("before.png"), folder.file("other.png")])
        #expect(throws: ExitCode(2)) { try mismatch.run() }
        #expect(throws: SheetDiff.SizeMismatch.self) {
            try SheetDiff.compare(
                Bitmap(size: Size(width: 1, height: 1), alpha: .none),
                Bitmap(size: Size(width: 2, height: 1), alpha: .none), tolerance: 0)
        }
    }

    @Test("--from-manifest renders the recorded layout again, even after a source changed size")
    func fromManifest() throws {
        var options = WallOptions()
        (options.layout.kind, options.layout.width, options.layout.columns) = (.grid, 600, 3)
        options.rendering.caption = try CaptionTemplate("{stem}")
        options.rendering.style = TileStyle(cornerRadius: 6)
        let manifest = try Wall(inputs: [Fixtures.sampleImages]).render(
            to: folder.file("first.png"), manifest: folder.file("first.json"), options: options)
        let again = try Wall.render(
            from: try Wall.readManifest(folder.file("first.json")), to: folder.file("again.png"), options: WallOptions()
        )
        #expect(Fixtures.read(folder.file("first.png")) == Fixtures.read(folder.file("again.png")))
        #expect(again.tiles.map(\.cell) == manifest.tiles.map(\.cell))
        // A source replaced by a bigger picture keeps its rectangle.
        let source = folder.file("grow.png")
        FileManager.default.createFile(atPath: source, contents: Data(Fixtures.read(Fixtures.sample("png-rgb.png"))!))
        let small = try Wall(inputs: [source]).render(
            to: folder.file("g1.png"), manifest: folder.file("g1.json"), options: options)
        FileManager.default.createFile(
            atPath: source, contents: Data(Fixtures.read(Fixtures.sample("panorama-4x1.jpg"))!))
        let redone = try Wall.render(
            from: try Wall.readManifest(folder.file("g1.json")), to: folder.file("g2.png"), options: WallOptions())
        #expect(redone.tiles[0].cell == small.tiles[0].cell && redone.tiles[0].sourceWidth == 800)
    }

    @Test("the HTML page links every tile to its source in percentages of its page, with relative, escaped links")
    func html() throws {
        let manifest = try render(
            [Fixtures.sample("png-rgb.png"), Fixtures.sample("orientation-6.jpg")], to: "sheet one.png")
        let page = GalleryPage.html(manifest, at: folder.file("index.html"))
        #expect(page.contains("src=\"./sheet%20one.png\""))
        #expect(page.components(separatedBy: "<a href=").count - 1 == 2)
        #expect(!page.contains("<map") && !page.contains("<area"))
        let tile = manifest.tiles[1]
        let sheet = manifest.pages[0]
        let left = String(format: "%.4f%%", Double(tile.x) * 100 / Double(sheet.width))
        let width = String(format: "%.4f%%", Double(tile.width) * 100 / Double(sheet.width))
        let top = String(format: "%.4f%%", Double(tile.y) * 100 / Double(sheet.height))
        let height = String(format: "%.4f%%", Double(tile.height) * 100 / Double(sheet.height))
        #expect(page.contains("style=\"left: \(left); top: \(top); width: \(width); height: \(height)\""))
        #expect(page.contains("aspect-ratio: \(sheet.width) / \(sheet.height)"))
        #expect(page.contains("title=\"orientation-6.jpg\" aria-label=\"orientation-6.jpg\""))
        #expect(page.contains("/SampleImages/png-rgb.png\""))
        #expect(page.contains("name=\"viewport\""))
        #expect(!page.contains("http://") && !page.contains("https://"))
    }

    @Test("a stack's tile carries its pictures' views and originals, named as a stack; renditions for each member")
    func stackPage() throws {
        // The same picture as a HEIC, a PNG and a TIFF: look-alikes, one tile.
        let sources = ["heic-rotated-6.heic", "orientation-6.jpg", "tiff-palette-orientation-8.tif"]
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (500, 3)
        options.input.stacking = StackOptions(mode: .similar)
        let manifest = try Wall(inputs: sources.map(Fixtures.sample)).render(
            to: folder.file("s.png"), manifest: folder.file("s.json"), options: options)
        let stacked = try #require(manifest.tiles.first { $0.stack != nil })
        let members = try #require(stacked.stack?.members)
        #expect(members.count >= 2)
        _ = try GalleryPage.write(manifest, to: folder.file("s.html"))
        let page = String(decoding: try #require(Fixtures.read(folder.file("s.html"))), as: UTF8.self)
        let name = (stacked.source as NSString).lastPathComponent
        #expect(page.contains("aria-label=\"\(name), a stack of \(members.count)\""))
        let attribute = try #require(page.range(of: "data-originals=\""))
        let originals = page[attribute.upperBound...].prefix { $0 != "\"" }.split(separator: " ")
        #expect(originals.count == members.count)
        for (original, member) in zip(originals, members) {
            #expect(original.hasSuffix("/SampleImages/" + (member as NSString).lastPathComponent))
        }
        // A member a browser cannot show (the HEIC, the TIFF) gets a rendition too.
        let made = try FileManager.default.contentsOfDirectory(atPath: folder.file("s_files/renditions"))
        for member in members where !member.hasSuffix(".jpg") {
            let stem = ((member as NSString).lastPathComponent as NSString).deletingPathExtension
            #expect(made.contains { $0.hasSuffix("-\(stem).jpg") }, "\(member): \(made)")
        }
        #expect(page.contains("ArrowDown") && page.contains("class=\"stack\""))
    }

    @Test("one page for variants of different columns shows each window one, and the others' images are blank there")
    func variantsPage() throws {
        try ImageWallCommand.Render.parse([
            Fixtures.sample("png-rgb.png"), Fixtures.sample("orientation-6.jpg"), "-o", folder.file("v-{columns}.jpg"),
            "--columns", "2,4", "--width", "400", "--html", folder.file("v.html"), "-q",
        ]).run()
        let page = String(decoding: try #require(Fixtures.read(folder.file("v.html"))), as: UTF8.self)
        #expect(page.contains("src=\"./v-2.jpg\"") && page.contains("src=\"./v-4.jpg\""))
        #expect(page.components(separatedBy: "<a href=").count - 1 == 4, "each variant's own tile links")
        // 2 columns below 640 px, 4 from there; each variant's images blank outside its windows.
        #expect(page.contains("@media (max-width: 639.98px) { .variant-0 { display: block; } }"))
        #expect(page.contains("@media (min-width: 640px) { .variant-1 { display: block; } }"))
        #expect(page.contains("<source media=\"(min-width: 640px)\" srcset=\"data:image/gif"))
        #expect(page.contains("<source media=\"(max-width: 639.98px)\" srcset=\"data:image/gif"))
        #expect(page.contains("loading=\"lazy\""))
        // Variants of the same columns cannot share a page.
        #expect(throws: (any Error).self) {
            try ImageWallCommand.Render.parse([
                Fixtures.sampleImages, "-o", "w-{width}.png", "--width", "400,800", "--html", "w.html",
            ])
        }
    }

    @Test("a gallery page shows the originals a browser cannot through JPEG renditions beside it, upright")
    func renditions() throws {
        let sources = ["heic-rotated-6.heic", "png-rgb.png", "video-rotated-6.mov", "tiff-rgba-lzw.tif"]
        let manifest = try render(sources.map(Fixtures.sample), to: "r.png")
        let warnings = try GalleryPage.write(manifest, to: folder.file("r.html"))
        #expect(warnings.isEmpty)
        let made = try FileManager.default.contentsOfDirectory(atPath: folder.file("r_files/renditions")).sorted()
        #expect(made.count == 3 && !made.contains { $0.contains("png-rgb") }, "\(made)")
        let page = String(decoding: try #require(Fixtures.read(folder.file("r.html"))), as: UTF8.self)
        for name in made {
            #expect(page.contains("data-view=\"./r_files/renditions/\(name)\""))
            let rendition = try SheetDiff.load(folder.file("r_files/renditions/\(name)"))
            let source = try #require(sources.first { name.contains(($0 as NSString).deletingPathExtension) })
            let shown = try ImageProbe().probe(path: Fixtures.sample(source)).displayedSize
            // Upright as displayed: the same shape as the source shown, at most 2048 px long.
            let aspect = Double(rendition.size.width) / Double(rendition.size.height)
            #expect(abs(aspect - Double(shown.width) / Double(shown.height)) < 0.02, "\(name): \(rendition.size)")
            #expect(max(rendition.size.width, rendition.size.height) <= GalleryRenditions.longSide)
        }
        #expect(page.contains("<dialog") && page.contains("ArrowRight"))
        // The PNG sheet stays the fixture; the page shows a JPEG copy of it, of the same size.
        #expect(page.contains("src=\"./r_files/sheets/1-r.jpg\""))
        let copy = try SheetDiff.load(folder.file("r_files/sheets/1-r.jpg"))
        let sheet = try SheetDiff.load(folder.file("r.png"))
        #expect(copy.size == sheet.size)
        #expect(
            try #require(Fixtures.read(folder.file("r_files/sheets/1-r.jpg"))).count
                < (try #require(Fixtures.read(folder.file("r.png")))).count)
        // The copy is ImageWall's, as the sheet is (a later render leaves it out); the renditions
        // are the pictures'.
        #expect(
            try ImageProbe().probe(path: folder.file("r_files/sheets/1-r.jpg")).software == ImageWallRelease.software)
        for name in made {
            #expect(try ImageProbe().probe(path: folder.file("r_files/renditions/\(name)")).software == nil)
        }
    }

    @Test("every command's help has examples; --version answers")
    func help() {
        for command in [
            ImageWallCommand.Render.self, ImageWallCommand.Layout.self, ImageWallCommand.Probe.self,
            ImageWallCommand.Diff.self,
        ] as [any ParsableCommand.Type] {
            #expect(ImageWallCommand.helpMessage(for: command).contains("EXAMPLES"), "\(command)")
        }
        #expect(ImageWallCommand.configuration.version == Wall.version)
        let render = ImageWallCommand.helpMessage(for: ImageWallCommand.Render.self)
        for option in [
            "--recursive", "--include", "--exclude", "--files-from", "--sort", "--reverse", "--seed", "--quiet",
            "--verbose", "--progress", "--from-manifest", "--html", "{columns}",
        ] {
            #expect(render.contains(option), "\(option)")
        }
    }
}
