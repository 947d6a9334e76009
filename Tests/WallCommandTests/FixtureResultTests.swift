import ArgumentParser
import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCommand
import WallCore
import WallReview
import _WallTestSupport

/// `diff` and `render --check` write their results for machines: JSON (status, pixels, tiles by
/// kind, versions) and JUnit XML read back by a real XML parser (Python's xml.etree, as CI
/// tools' JUnit readers are built on).
@Suite("Fixture results as JSON and JUnit")
struct FixtureResultTests {
    let folder = TemporaryFolder()

    /// A few samples copied into `name/`.
    func sources(_ name: String) throws -> String {
        let path = folder.file(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for sample in ["png-rgb.png", "landscape-baseline-420.jpg", "orientation-6.jpg", "png-palette.png"] {
            try FileManager.default.copyItem(atPath: Fixtures.sample(sample), toPath: path + "/" + sample)
        }
        return path
    }

    /// `source` rendered with `options` to `name`.png and its manifest `name`.json.
    func sheet(_ source: String, _ name: String, _ options: WallOptions) throws {
        try Wall(inputs: [source]).render(
            to: folder.file(name + ".png"), manifest: folder.file(name + ".json"), options: options)
    }

    /// `path` brightened by a tenth, written back in place.
    func brighten(_ path: String) throws {
        var bitmap = try SheetDiff.load(path)
        bitmap.pixels = bitmap.pixels.map { UInt8(min(255, Int($0) * 11 / 10)) }
        try PNGEncoder.write(bitmap, to: path)
    }

    /// The JUnit file's test cases as Python's xml.etree reads them: name, and the kind of the
    /// failure or error it holds ("" when it passed) with its message; the suites' counts.
    func junit(_ path: String) throws -> (cases: [(name: String, outcome: String, message: String)], counts: String) {
        let script = """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            assert root.tag == 'testsuites'
            suite = root.find('testsuite')
            print('\\t'.join(suite.get(k) for k in ('tests', 'failures', 'errors')))
            for case in suite.findall('testcase'):
                bad = case.find('failure') if case.find('failure') is not None else case.find('error')
                print('\\t'.join([case.get('name'), '' if bad is None else bad.tag + ':' + bad.get('type'),
                    '' if bad is None else bad.get('message')]))
            """
        let run = try Fixtures.run("/usr/bin/python3", ["-c", script, path])
        #expect(run.status == 0, "\(run.errors)")
        var lines = String(decoding: run.output, as: UTF8.self).split(separator: "\n").map(String.init)
        let counts = lines.isEmpty ? "" : lines.removeFirst()
        return (
            lines.map { line in
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return (fields[0], fields.count > 1 ? fields[1] : "", fields.count > 2 ? fields[2] : "")
            }, counts
        )
    }

    /// `imagewall diff a.png b.png` with their manifests, writing `--json` and `--junit`.
    func diffWithManifests(json: String, junit: String) throws {
        try ImageWallCommand.Diff.parse([
            folder.file("a.png"), folder.file("b.png"), "--manifest", folder.file("a.json"), folder.file("b.json"),
            "--json", json, "--junit", junit,
        ]).run()
    }

    @Test(
        "diff writes the status, pixels, tiles and versions as JSON, and a JUnit failure naming the changed tile",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func diff() throws {
        let source = try sources("src")
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (400, 2)
        try sheet(source, "a", options)
        try brighten(source + "/png-palette.png")
        try sheet(source, "b", options)
        let json = folder.file("r.json"), xml = folder.file("r.xml")
        #expect(throws: ExitCode(1)) { try diffWithManifests(json: json, junit: xml) }
        let results = try JSONDecoder().decode(FixtureResults.self, from: Data(try #require(Fixtures.read(json))))
        #expect(results.version == ImageWallRelease.version && results.libraries == CodecLibraries.versions)
        let result = try #require(results.fixtures.first)
        #expect(result.status == .changed && result.name == folder.file("b.png"))
        #expect(result.tiles?.changed == ["png-palette.png"] && result.tiles?.moved == [])
        let height = try SheetDiff.load(folder.file("a.png")).size.height
        #expect((result.pixels?.changed ?? 0) > 0 && result.pixels?.total == 400 * height)
        let read = try junit(xml)
        #expect(read.counts == "1\t1\t0")
        #expect(read.cases.count == 1 && read.cases[0].outcome == "failure:changed")
        #expect(read.cases[0].message == "changed: png-palette.png")

        // The same sheets pass; an unreadable one is a JUnit error, and exit status 2.
        try ImageWallCommand.Diff.parse([folder.file("a.png"), folder.file("a.png"), "--junit", xml]).run()
        #expect(try junit(xml).counts == "1\t0\t0")
        #expect(throws: ExitCode(2)) {
            try ImageWallCommand.Diff.parse([
                folder.file("a.png"), folder.file("missing.png"), "--json", json, "--junit", xml,
            ]).run()
        }
        let failed = try junit(xml)
        #expect(failed.counts == "1\t0\t1" && failed.cases.first?.outcome == "error:error")
        #expect(failed.cases.first?.message.contains("missing.png") == true)
        let error = try JSONDecoder().decode(FixtureResults.self, from: Data(try #require(Fixtures.read(json))))
        #expect(error.fixtures.first?.status == .error && error.fixtures.first?.pixels == nil)
    }

    @Test(
        "render --check records new, updated, passed and changed in JUnit, with names and messages CI can show",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func check() throws {
        let source = try sources("src")
        let golden = folder.file("golden/sheet.png"), goldenManifest = folder.file("golden/sheet.json")
        let xml = folder.file("check.xml")
        func run(_ extra: [String]) throws {
            try ImageWallCommand.Render.parse(
                [source, "--width", "400", "--columns", "2", "--no-cache", "-q", "--check", golden, "--junit", xml]
                    + extra
            ).run()
        }
        #expect(throws: ExitCode(2)) { try run([]) }
        var read = try junit(xml)
        #expect(read.cases.first?.outcome == "failure:new" && read.cases.first?.name == golden)
        try run(["--check-manifest", goldenManifest, "--update"])
        read = try junit(xml)
        #expect(read.counts == "1\t0\t0" && read.cases.first?.outcome == "")
        try run(["--check-manifest", goldenManifest])
        #expect(try junit(xml).counts == "1\t0\t0")
        try brighten(source + "/landscape-baseline-420.jpg")
        #expect(throws: ExitCode(1)) { try run(["--check-manifest", goldenManifest]) }
        read = try junit(xml)
        #expect(read.cases.first?.outcome == "failure:changed")
        #expect(read.cases.first?.message == "changed: landscape-baseline-420.jpg")
    }

    @Test("JUnit text escapes what XML must, and keeps a failure's lines")
    func escaping() {
        let results = FixtureResults(
            fixtures: [
                FixtureResult(
                    name: "a&b <c>.png", status: .changed, expected: "e", actual: "a", message: "say \"no\"\nnow",
                    tiles: SheetDiff.TileChanges(changed: ["x&y.jpg"]),
                    seconds: 0.5)
            ], libraries: "test")
        let xml = results.junit
        #expect(xml.contains("name=\"a&amp;b &lt;c&gt;.png\""))
        #expect(xml.contains("message=\"changed: x&amp;y.jpg\""))
        #expect(xml.contains(">say \"no\"\nnow\nchanged: x&amp;y.jpg</failure>"))
    }

    @Test(
        "options are compared before pixels, and versions that differ from the golden's are said",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func optionsAndVersions() throws {
        let source = try sources("src")
        for (name, columns) in [("a", 4), ("b", 3)] {
            var options = WallOptions()
            (options.layout.width, options.layout.columns) = (400, columns)
            try sheet(source, name, options)
        }
        // The golden made with another libjpeg and ImageWall.
        var golden = try Wall.readManifest(folder.file("a.json"))
        let here = try #require(golden.madeBy)
        #expect(here.imagewall == ImageWallRelease.version && here.libraries == CodecLibraries.versions)
        let libjpeg = try #require(here.libraries.components(separatedBy: ", ").first { $0.hasPrefix("libjpeg ") })
        golden.madeBy = Manifest.MadeBy(
            imagewall: "0.1.0", libraries: here.libraries.replacingOccurrences(of: libjpeg, with: "libjpeg 3000001"))
        try ManifestWriter.write(golden, to: folder.file("a.json"))
        let json = folder.file("r.json"), xml = folder.file("r.xml")
        #expect(throws: ExitCode(1)) { try diffWithManifests(json: json, junit: xml) }
        let data = Data(try #require(Fixtures.read(json)))
        let result = try #require(try JSONDecoder().decode(FixtureResults.self, from: data).fixtures.first)
        #expect(result.options == ["columns 4 → 3"])
        #expect(result.message.hasPrefix("differ: options changed: columns 4 → 3;"))
        #expect(
            result.versions == [
                "ImageWall \(ImageWallRelease.version) here, 0.1.0 in the golden",
                "\(libjpeg) here, 3000001 in the golden",
            ])
        let read = try junit(xml)
        #expect(read.cases.first?.message == "options changed: columns 4 → 3")
    }

    @Test("a tile that moved and changed is reported changed, resized or not; tiles that only moved are not")
    func movedAndChanged() throws {
        let source = try sources("src")
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (600, 4)
        try sheet(source, "a", options)
        // One picture replaced by another of the same shape, and the gaps widened: every tile
        // moves (and shrinks a little); one also changed.
        try FileManager.default.removeItem(atPath: source + "/landscape-baseline-420.jpg")
        try FileManager.default.copyItem(
            atPath: Fixtures.sample("rgb-stored.jpg"), toPath: source + "/landscape-baseline-420.jpg")
        (options.layout.columnGap, options.layout.rowGap) = (14, 14)
        try sheet(source, "b", options)
        let comparison = try SheetComparison(
            expected: folder.file("a.png"), actual: folder.file("b.png"),
            manifests: (folder.file("a.json"), folder.file("b.json")), options: SheetDiff.Options())
        #expect(comparison.tiles?.moved.count == 4)
        #expect(comparison.tiles?.changed == ["landscape-baseline-420.jpg"])
        // Moved at the same size (the rows' gap alone grown): compared pixel by pixel, so a
        // faint change (a tenth brighter) of one of them shows.
        try FileManager.default.removeItem(atPath: source + "/landscape-baseline-420.jpg")
        try FileManager.default.copyItem(
            atPath: Fixtures.sample("landscape-baseline-420.jpg"), toPath: source + "/landscape-baseline-420.jpg")
        (options.layout.columns, options.layout.columnGap, options.layout.rowGap) = (2, 10, 10)
        try sheet(source, "c", options)
        var brighter = try SheetDiff.load(source + "/png-rgb.png")
        brighter.pixels = brighter.pixels.map { UInt8(min(255, Int($0) * 11 / 10)) }
        try PNGEncoder.write(brighter, to: source + "/png-rgb.png")
        options.layout.rowGap = 40
        try sheet(source, "d", options)
        let shifted = try SheetComparison(
            expected: folder.file("c.png"), actual: folder.file("d.png"),
            manifests: (folder.file("c.json"), folder.file("d.json")), options: SheetDiff.Options())
        #expect(shifted.tiles?.moved.contains("png-rgb.png") == true)
        #expect(shifted.tiles?.changed == ["png-rgb.png"], "\(String(describing: shifted.tiles))")
        // Moved and resized (the wall narrower), one photo 3 % brighter: compared on average,
        // that one is changed, and only it.
        // (Written as a PNG under its name: formats are told by their bytes.)
        var photo = try SheetDiff.load(source + "/landscape-baseline-420.jpg")
        photo.pixels = photo.pixels.map { UInt8(min(255, (Double($0) * 1.03).rounded())) }
        try PNGEncoder.write(photo, to: source + "/landscape-baseline-420.jpg")
        options.layout.width = 560
        try sheet(source, "e", options)
        let resized = try SheetComparison(
            expected: folder.file("d.png"), actual: folder.file("e.png"),
            manifests: (folder.file("d.json"), folder.file("e.json")), options: SheetDiff.Options())
        #expect(resized.tiles?.moved.count == 4, "\(String(describing: resized.tiles))")
        #expect(resized.tiles?.changed == ["landscape-baseline-420.jpg"], "\(String(describing: resized.tiles))")
    }
}
