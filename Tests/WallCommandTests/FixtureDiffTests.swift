import ArgumentParser
import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCommand
import WallCore
import WallReview
import _WallTestSupport

/// Fixtures that travel: portable manifests, diffs by tile identity, tolerance, reports, --check.
@Suite("Fixtures across folders")
struct FixtureDiffTests {
    let folder = TemporaryFolder()
    static let names = [
        "png-rgb.png", "landscape-baseline-420.jpg", "orientation-6.jpg", "png-palette.png", "gif-animated.gif",
    ]

    /// A copy of a few samples in `name`, optionally without `leaving` or with `adding`.
    func sources(_ name: String, leaving: String? = nil, adding: String? = nil) throws -> String {
        let path = folder.file(name)
        try FileManager.default.createDirectory(atPath: path + "/sub", withIntermediateDirectories: true)
        for sample in Self.names + [adding].compactMap({ $0 }) where sample != leaving {
            let target = sample == "png-palette.png" ? "\(path)/sub/\(sample)" : "\(path)/\(sample)"
            try FileManager.default.copyItem(atPath: Fixtures.sample(sample), toPath: target)
        }
        return path
    }

    /// Renders `inputs` to `name`.png and `name`.json.
    @discardableResult
    func render(_ inputs: [String], _ name: String) throws -> Manifest {
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (400, 2)
        options.input.scan.recursive = true
        return try Wall(inputs: inputs).render(
            to: folder.file(name + ".png"), manifest: folder.file(name + ".json"), options: options)
    }

    /// `path` brightened by a tenth, written back in place (same size).
    func brighten(_ path: String) throws {
        var bitmap = try SheetDiff.load(path)
        bitmap.pixels = bitmap.pixels.map { UInt8(min(255, Int($0) * 11 / 10)) }
        try PNGEncoder.write(bitmap, to: path)
    }

    func compare(_ a: String, _ b: String, ignore: [String] = []) throws -> SheetComparison {
        try SheetComparison(
            expected: folder.file(a + ".png"), actual: folder.file(b + ".png"),
            manifests: (folder.file(a + ".json"), folder.file(b + ".json")), options: SheetDiff.Options(),
            ignore: ignore)
    }

    @Test("manifests record each tile's root and path under it, and a render finds its sources after both moved")
    func portable() throws {
        let first = try sources("one")
        let manifest = try render([first], "one")
        #expect(manifest.roots?.map(\.path) == [first])
        #expect(manifest.tiles.contains { $0.path == "sub/png-palette.png" && $0.root == 0 })
        let written = try Wall.readManifest(folder.file("one.json"))
        #expect(written.roots?.first?.fromManifest == "one")
        // Move the folder and the manifest together; render the recorded layout from there.
        let moved = TemporaryFolder()
        try FileManager.default.moveItem(atPath: first, toPath: moved.file("one"))
        try FileManager.default.moveItem(atPath: folder.file("one.json"), toPath: moved.file("one.json"))
        let again = try Wall.render(
            from: Wall.readManifest(moved.file("one.json")), to: moved.file("again.png"),
            recordedAt: moved.file("one.json"), options: WallOptions())
        #expect(again.skipped.isEmpty)
        #expect(Fixtures.read(moved.file("again.png")) == Fixtures.read(folder.file("one.png")))
        // Or anywhere, with --root.
        let root = try Wall.render(
            from: written, to: moved.file("root.png"), root: moved.file("one"), options: WallOptions())
        #expect(root.skipped.isEmpty && Fixtures.read(moved.file("root.png")) == Fixtures.read(folder.file("one.png")))
        // Their manifests, which record where each source was found, read back.
        for (name, manifest) in [("again.json", again), ("root.json", root)] {
            try ManifestWriter.write(manifest, to: moved.file(name))
            #expect(try Wall.readManifest(moved.file(name)).tiles.count == manifest.tiles.count)
        }
    }

    @Test("the same content from two folders matches; one changed image is named alone")
    func moved() throws {
        try render([try sources("a")], "a")
        let second = try sources("b")
        try render([second], "b")
        let same = try compare("a", "b")
        #expect(same.matches && same.tiles?.isEmpty == true && same.result.changedPixels == 0)
        try brighten(second + "/png-rgb.png")
        try render([second], "b")
        let changed = try compare("a", "b")
        #expect(!changed.matches)
        let tiles = try #require(changed.tiles)
        #expect(tiles.changed == ["png-rgb.png"] && tiles.moved.isEmpty && tiles.appeared.isEmpty)
        #expect(tiles.disappeared.isEmpty)
        #expect(changed.lines()[0].hasPrefix("differ: ") && changed.lines()[1] == "changed: png-rgb.png")
        // Left out by name: a match.
        let ignored = try compare("a", "b", ignore: ["png-rgb.*"])
        #expect(ignored.matches && ignored.result.ignoredPixels > 0)
        // The command: exit 1, then 0 with --ignore.
        let diff = try ImageWallCommand.Diff.parse([
            folder.file("a.png"), folder.file("b.png"), "--manifest", folder.file("a.json"), folder.file("b.json"),
            "--report", folder.file("report.html"),
        ])
        #expect(throws: ExitCode(1)) { try diff.run() }
        let report = String(decoding: try #require(Fixtures.read(folder.file("report.html"))), as: UTF8.self)
        #expect(report.contains("data-name=\"png-rgb.png\"") && report.contains("data:image/png;base64,"))
        #expect(!report.contains("src=\"http") && !report.contains("src=\"file"))
        try ImageWallCommand.Diff.parse([
            folder.file("a.png"), folder.file("b.png"), "--manifest", folder.file("a.json"), folder.file("b.json"),
            "--ignore", "png-rgb.png",
        ]).run()
    }

    @Test("a tile added appears, a tile removed disappears, each by its name")
    func addedAndRemoved() throws {
        try render([try sources("a")], "a")
        try render([try sources("b", adding: "png-gray.png")], "b")
        let added = try compare("a", "b")
        #expect(added.tiles?.appeared == ["png-gray.png"] && !added.matches)
        try render([try sources("c", leaving: "orientation-6.jpg")], "c")
        let removed = try compare("a", "c")
        #expect(removed.tiles?.disappeared == ["orientation-6.jpg"] && !removed.matches)
    }

    @Test("an edge moved by under a pixel is told apart as anti-aliasing, and ignored on request")
    func antialiasing() throws {
        // A black-to-white edge at x = 50 blended half-way, and the same edge a quarter pixel on.
        func edge(_ blend: UInt8) -> Bitmap {
            var image = Bitmap(size: Size(width: 100, height: 40), alpha: .none)
            for y in 0..<40 {
                for x in 0..<100 {
                    let v: UInt8 = x < 50 ? 0 : x == 50 ? blend : 255
                    image.pixels.replaceSubrange((y * 100 + x) * 3..<(y * 100 + x) * 3 + 3, with: [v, v, v])
                }
            }
            return image
        }
        let (counted, _, _) = try SheetDiff.compare(edge(128), edge(64), options: SheetDiff.Options())
        #expect(counted.changedPixels == 40 && counted.antialiasedPixels == 40)
        var options = SheetDiff.Options()
        options.ignoreAntialiasing = true
        let (ignored, _, picture) = try SheetDiff.compare(edge(128), edge(64), options: options)
        #expect(ignored.changedPixels == 0 && ignored.antialiasedPixels == 40)
        #expect(picture.pixel(x: 50, y: 20) == [250, 200, 0])
        // New content is not anti-aliasing: a grey square on the white.
        var square = edge(128)
        for y in 10..<20 {
            for x in 70..<80 {
                square.pixels.replaceSubrange((y * 100 + x) * 3..<(y * 100 + x) * 3 + 3, with: [90, 90, 90])
            }
        }
        let (content, _, _) = try SheetDiff.compare(edge(128), square, options: options)
        #expect(content.changedPixels >= 90)
        // A perceptual threshold lets a faint change pass that a channel tolerance would not.
        var faint = edge(128)
        faint.pixels = faint.pixels.map { $0 == 255 ? 250 : $0 }
        var perceptual = SheetDiff.Options()
        perceptual.threshold = 0.1
        #expect(try SheetDiff.compare(edge(128), faint, options: perceptual).result.changedPixels == 0)
        #expect(try SheetDiff.compare(edge(128), faint, tolerance: 2).result.changedPixels > 0)
    }

    @Test("a caption changed by the file's date names its tile, though the picture is the same")
    func captionChanged() throws {
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (400, 2)
        options.rendering.caption = try CaptionTemplate("{name} {mtime}")
        let a = try sources("a"), b = try sources("b")
        for (root, day) in [(a, 1), (b, 1)] {
            for name in Self.names where name != "png-palette.png" {
                var times = [timespec(tv_sec: 1_700_000_000 + day * 86_400, tv_nsec: 0)]
                times.append(times[0])
                _ = utimensat(AT_FDCWD, root + "/" + name, times, 0)
            }
        }
        var later = [timespec(tv_sec: 1_700_000_000 + 40 * 86_400, tv_nsec: 0)]
        later.append(later[0])
        _ = utimensat(AT_FDCWD, b + "/png-rgb.png", later, 0)
        for (root, name) in [(a, "a"), (b, "b")] {
            try Wall(inputs: [root]).render(
                to: folder.file(name + ".png"), manifest: folder.file(name + ".json"), options: options)
        }
        let comparison = try compare("a", "b")
        #expect(!comparison.matches)
        #expect(comparison.tiles?.changed == ["png-rgb.png"], "\(comparison.lines())")
        #expect(comparison.tiles?.moved.isEmpty == true)
    }

    @Test("with a threshold, a photo 2 % darker is changed though none of its pixels passes it alone")
    func darkerWithinThreshold() throws {
        let a = try sources("a"), b = try sources("b")
        var bitmap = try SheetDiff.load(b + "/png-rgb.png")
        bitmap.pixels = bitmap.pixels.map { UInt8(Int($0) * 98 / 100) }
        try PNGEncoder.write(bitmap, to: b + "/png-rgb.png")
        try render([a], "a")
        try render([b], "b")
        var options = SheetDiff.Options()
        options.threshold = 0.1
        let comparison = try SheetComparison(
            expected: folder.file("a.png"), actual: folder.file("b.png"),
            manifests: (folder.file("a.json"), folder.file("b.json")), options: options, drawing: .never)
        #expect(comparison.result.changedPixels == 0, "each pixel passes the threshold")
        #expect(!comparison.matches)
        #expect(comparison.tiles?.changed == ["png-rgb.png"] && comparison.tiles?.shifted == ["png-rgb.png"])
        #expect(comparison.lines().first?.contains("shifted in colour") == true, "\(comparison.lines())")
        // The same sheets rendered twice still match.
        try render([a], "a2")
        let same = try SheetComparison(
            expected: folder.file("a.png"), actual: folder.file("a2.png"),
            manifests: (folder.file("a.json"), folder.file("a2.json")), options: options, drawing: .never)
        #expect(same.matches)
    }

    @Test("manifests written before roots are read, and matched by file name")
    func oldManifests() throws {
        try render([try sources("a")], "a")
        try render([try sources("b")], "b")
        for name in ["a", "b"] {
            let text: [UInt8] = try #require(Fixtures.read(folder.file(name + ".json")))
            var object: [String: Any] = try #require(
                try JSONSerialization.jsonObject(with: Data(text)) as? [String: Any])
            object["roots"] = nil
            object["tiles"] = (object["tiles"] as? [[String: Any]])?.map { tile in
                var tile = tile
                tile["root"] = nil
                tile["path"] = nil
                return tile
            }
            let data = try JSONSerialization.data(withJSONObject: object)
            _ = folder.write(Array(data), to: name + ".json")
        }
        let old = try Wall.readManifest(folder.file("a.json"))
        #expect(old.roots == nil && old.tiles.allSatisfy { $0.path == nil })
        #expect(old.identity(of: old.tiles[0]) == (old.tiles[0].source as NSString).lastPathComponent)
        #expect(try compare("a", "b").matches)
    }

    @Test("render --check exits 0, 1 or 2, writes the report on failure, and --update replaces the golden")
    func check() throws {
        let source = try sources("src")
        let golden = folder.file("golden/sheet.png"), goldenManifest = folder.file("golden/sheet.json")
        func run(_ extra: [String]) throws {
            try ImageWallCommand.Render.parse(
                [source, "-r", "--width", "400", "--columns", "2", "--no-cache", "-q", "--check", golden] + extra
            ).run()
        }
        #expect(throws: ExitCode(2)) { try run([]) }  // no golden yet
        try run(["--check-manifest", goldenManifest, "--update"])
        let created = try #require(Fixtures.read(golden))
        #expect(Fixtures.read(goldenManifest) != nil)
        try run(["--check-manifest", goldenManifest])
        try brighten(source + "/sub/png-palette.png")
        #expect(throws: ExitCode(1)) {
            try run(["--check-manifest", goldenManifest, "--report", folder.file("check.html")])
        }
        #expect(Fixtures.read(golden) == created)
        let report = String(decoding: try #require(Fixtures.read(folder.file("check.html"))), as: UTF8.self)
        #expect(report.contains("data-name=\"sub/png-palette.png\""))
        // Every pixel within the threshold, but the tile 10 % brighter as a whole: still changed.
        #expect(throws: ExitCode(1)) { try run(["--check-manifest", goldenManifest, "--threshold", "0.2"]) }
        try run(["--check-manifest", goldenManifest, "--update"])
        #expect(Fixtures.read(golden) != created)
        try run(["--check-manifest", goldenManifest])
        // An image added: a sheet of another size; with the manifests the new tile is named (1),
        // without them the sheets cannot be compared (2); --update replaces the golden all the same.
        try FileManager.default.copyItem(atPath: Fixtures.sample("png-gray.png"), toPath: source + "/png-gray.png")
        #expect(throws: ExitCode(1)) { try run(["--check-manifest", goldenManifest]) }
        #expect(throws: ExitCode(2)) { try run([]) }
        try run(["--update"])
        try run([])
        #expect(Fixtures.hiddenFiles(in: folder.file("golden")).isEmpty)
    }
}
