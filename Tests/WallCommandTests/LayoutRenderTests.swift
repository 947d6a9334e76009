import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCommand
import WallCore
import WallLayout
import WallSamples
import _WallTestSupport

@Suite("Layouts rendered end to end")
struct LayoutRenderTests {
    let folder = TemporaryFolder()

    func decode(_ path: String) throws -> Bitmap {
        try ImageDecoder().decode(path: path, info: try ImageProbe().probe(path: path)).bitmap
    }

    /// A 300x100 PNG: left third red, middle green, right third blue.
    func stripes(_ name: String = "stripes.png") throws -> String {
        var bitmap = Bitmap(size: Size(width: 300, height: 100), alpha: .none)
        for y in 0..<100 {
            for x in 0..<300 {
                let color: [UInt8] = x < 100 ? [255, 0, 0] : x < 200 ? [0, 255, 0] : [0, 0, 255]
                bitmap.pixels.replaceSubrange((y * 300 + x) * 3..<(y * 300 + x) * 3 + 3, with: color)
            }
        }
        let path = folder.file(name)
        try PNGEncoder.write(bitmap, to: path)
        return path
    }

    @Test("every layout renders SampleImages where its manifest says", arguments: LayoutKind.allCases)
    func everyLayout(kind: LayoutKind) throws {
        var layout = LayoutConfiguration(kind: kind)
        layout.width = kind == .strip ? 1600 : 900
        layout.rowHeight = 120
        var options = WallOptions(layout: layout)
        options.background = RGBAColor(red: 1, green: 2, blue: 3)
        let output = folder.file("\(kind).png")
        let manifest = try Wall(inputs: [Fixtures.sampleImages]).render(to: output, options: options)
        let sheet = try decode(output)
        #expect(sheet.size == Size(width: manifest.width, height: manifest.height))
        #expect(manifest.tiles.count == SampleCatalog.all.count)
        for tile in manifest.tiles {
            // Tile centres are painted (no sample is the background colour there).
            #expect(
                sheet.pixel(x: tile.x + tile.width / 2, y: tile.y + tile.height / 2) != [1, 2, 3], "\(tile.source)")
        }
        #expect(sheet.pixel(x: 0, y: 0) == [1, 2, 3])
    }

    @Test(
        "cover crops keep the part gravity names",
        arguments: [
            (Gravity.center, [0, 255, 0]), (.west, [255, 0, 0]), (.east, [0, 0, 255]),
        ])
    func gravity(gravity: Gravity, expected: [UInt8]) throws {
        var layout = LayoutConfiguration(kind: .grid)
        (layout.width, layout.columns, layout.padding, layout.gravity) = (100, 1, Insets(all: 0), gravity)
        let output = folder.file("crop-\(gravity).png")
        let manifest = try Wall(inputs: [try stripes()]).render(to: output, options: WallOptions(layout: layout))
        let tile = manifest.tiles[0]
        #expect(tile.crop?.width == 100 && tile.crop?.height == 100)
        let sheet = try decode(output)
        let mean = sheet.mean(in: Rect(x: 20, y: 20, width: 60, height: 60)).map { Int($0.rounded()) }
        #expect(mean == expected.map(Int.init), "\(mean)")
    }

    @Test("contain letterboxes on the background")
    func contain() throws {
        var layout = LayoutConfiguration(kind: .grid)
        (layout.width, layout.columns, layout.padding, layout.fit) = (100, 1, Insets(all: 0), .contain)
        var options = WallOptions(layout: layout)
        options.background = .black
        let output = folder.file("contain.png")
        let manifest = try Wall(inputs: [try stripes()]).render(to: output, options: options)
        #expect(manifest.tiles[0].height == 33 && manifest.tiles[0].cell.height == 100)
        let sheet = try decode(output)
        #expect(sheet.pixel(x: 50, y: 5) == [0, 0, 0])
        #expect(sheet.pixel(x: 5, y: 50)[0] > 240 && sheet.pixel(x: 95, y: 50)[2] > 240)
    }

    @Test("--group-by folder makes one section per folder, titled by it")
    func sections() throws {
        let a = folder.file("alpha"), b = folder.file("beta")
        mkdir(a, 0o755)
        mkdir(b, 0o755)
        defer {
            for f in Fixtures.files(in: a) { unlink(a + "/" + f) }
            for f in Fixtures.files(in: b) { unlink(b + "/" + f) }
            rmdir(a)
            rmdir(b)
        }
        let png = Fixtures.read(Fixtures.sample("png-rgb.png"))!
        for (dir, names) in [(a, ["1.png", "2.png"]), (b, ["3.png"])] {
            for name in names { _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(png)) }
        }
        var options = WallOptions(layout: LayoutConfiguration())
        options.grouping = .folder
        options.background = .white
        let manifest = try Wall(inputs: [a, b]).render(to: folder.file("sections.png"), options: options)
        #expect(manifest.sections.map(\.title) == [a, b])
        #expect(manifest.tiles.map(\.section) == [0, 0, 1])
        #expect(manifest.tiles[2].y > manifest.sections[1].header.y)
        // The headers carry their folder's name in dark text on the white background.
        let sheet = try decode(folder.file("sections.png"))
        for section in manifest.sections {
            let band = Rect(
                x: section.header.x, y: section.header.y, width: section.header.width, height: section.header.height)
            #expect(sheet.mean(in: band)[0] < 250, "header \(section.index) has no text")
        }
    }

    @Test("imagewall layout prints the manifest without decoding")
    func layoutCommand() throws {
        let sizes = folder.write(Array("# w h\n4000 3000\n3000 4000\n\n6000 1500\n".utf8), to: "sizes.txt")
        let json = folder.write(
            Array(#"[{"width": 4000, "height": 3000}, {"width": 3000, "height": 4000}]"#.utf8), to: "sizes.json")
        for file in [sizes, json] {
            let command = try ImageWallCommand.Layout.parse(["--sizes", file, "--layout", "justified", "--json"])
            try command.run()
        }
        let manifest = try Wall.manifest(
            ofSizes: [Size(width: 4000, height: 3000), Size(width: 3000, height: 4000)], options: WallOptions())
        #expect(manifest.tiles.map(\.source) == ["sizes[0]", "sizes[1]"])
        // Every page's size, and no file: nothing was written.
        #expect(manifest.pages.count == 1 && manifest.pages.allSatisfy { $0.file == nil })
        #expect(manifest.pages[0].width == manifest.width && manifest.pages[0].height == manifest.height)
        let bad = folder.write(Array("4000 x\n".utf8), to: "bad.txt")
        let command = try ImageWallCommand.Layout.parse(["--sizes", bad])
        #expect(throws: (any Error).self) { try command.run() }
    }

    @Test("layout options reach the configuration")
    func layoutOptions() throws {
        let command = try ImageWallCommand.Render.parse([
            "x", "-o", "o.png", "--layout", "grid", "--cell-aspect", "4:3", "--fit", "contain", "--row-gap-after",
            "2:30",
            "--row-gap-after", "3:5", "--gravity", "north", "--direction", "rtl", "--caption-height", "18",
            "--padding-top", "40", "--column-width", "300", "--max-columns", "5", "--group-by", "folder",
            "--order", "down",
        ])
        let c = command.options.layout
        #expect(c.kind == .grid && c.cellAspect == AspectRatio(width: 4, height: 3) && c.fit == .contain)
        #expect(c.rowGapsAfter == [2: 30, 3: 5] && c.gravity == .north && c.direction == .rtl && c.order == .down)
        #expect(c.captionHeight == 18 && c.padding.top == 40 && c.padding.left == 10)
        #expect(c.resolvedColumns == 5)
        #expect(command.options.grouping == .folder)
        #expect(throws: (any Error).self) {
            try ImageWallCommand.Render.parse(["x", "-o", "o.png", "--cell-aspect", "4x3"])
        }
        #expect(throws: (any Error).self) {
            try ImageWallCommand.Render.parse(["x", "-o", "o.png", "--layout", "mosaic", "--columns", "1"])
        }
        #expect(throws: (any Error).self) {
            try ImageWallCommand.Render.parse(["x", "-o", "o.png", "--order", "down"])
        }
    }

    @Test("manifest layouts decode back to the same configuration")
    func manifestRoundTrip() throws {
        var layout = LayoutConfiguration(kind: .justified)
        (layout.rowHeight, layout.lastRow, layout.captionHeight) = (222, .center, 12)
        var options = WallOptions(layout: layout)
        options.background = .transparent
        let manifest = try Wall.manifest(ofSizes: [Size(width: 3, height: 2)], options: options)
        let decoded = try JSONDecoder().decode(Manifest.self, from: try ManifestWriter.encode(manifest))
        #expect(decoded.layout.configuration == layout)
        #expect(decoded.layout.background == .transparent)
        var grid = LayoutConfiguration(kind: .grid)
        (grid.order, grid.maxPageHeight) = (.down, 900)
        let gridManifest = try Wall.manifest(
            ofSizes: Array(repeating: Size(width: 3, height: 2), count: 30), options: WallOptions(layout: grid))
        let data = try ManifestWriter.encode(gridManifest)
        #expect(try JSONDecoder().decode(Manifest.self, from: data).layout.configuration == grid)
    }
}
