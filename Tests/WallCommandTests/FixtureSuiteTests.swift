import ArgumentParser
import Foundation
import ImageWall
import Testing
import WallCommand
import WallReview
import _WallTestSupport

/// `imagewall check`: the repository's example suite (`examples/fixtures`) passes as committed,
/// and a copy of it made to change, grow, lose a golden and fail gives each status, the exit
/// statuses, JSON and JUnit, and `--update` and `--prune` touch only what they should.
@Suite("Fixture suites")
struct FixtureSuiteTests {
    let folder = TemporaryFolder()
    static let example = Fixtures.packageRoot + "/examples/fixtures"

    /// The example suite copied into the scratch folder, its inputs pointing at SampleImages,
    /// with `extra` fixtures (JSON objects) added and `arguments` replacing a fixture's.
    func suite(extra: [String] = [], replacing: [String: String] = [:]) throws -> String {
        let goldens = folder.file("goldens")
        if !FileManager.default.fileExists(atPath: goldens) {
            try FileManager.default.copyItem(atPath: Self.example + "/goldens", toPath: goldens)
        }
        var text = String(decoding: try #require(Fixtures.read(Self.example + "/suite.json")), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"../../SampleImages\"", with: "\"\(Fixtures.sampleImages)\"")
        for (old, new) in replacing { text = text.replacingOccurrences(of: old, with: new) }
        if !extra.isEmpty {
            let end = try #require(text.range(of: "]\n}", options: .backwards))
            text.replaceSubrange(end, with: "," + extra.joined(separator: ",") + "]\n}")
        }
        return folder.write(Array(text.utf8), to: "suite.json")
    }

    func check(_ arguments: [String]) throws {
        try ImageWallCommand.Check.parse(arguments).run()
    }

    func results(_ path: String) throws -> FixtureResults {
        try JSONDecoder().decode(FixtureResults.self, from: Data(try #require(Fixtures.read(path))))
    }

    @Test("the example suite in the repository passes as committed")
    func example() throws {
        let json = folder.file("r.json")
        try check([Self.example + "/suite.json", "--json", json])
        let read = try results(json)
        #expect(read.fixtures.count == 3 && read.fixtures.allSatisfy { $0.status == .passed })
        // A render that did not change is the golden byte for byte: nothing is decoded to say so.
        #expect(read.fixtures.allSatisfy { $0.message == "match: the sheet is the golden, byte for byte" })
    }

    @Test("changed, new, obsolete and error fixtures get their statuses and exit statuses; --update and --prune")
    func statuses() throws {
        let golden = { (name: String) in Fixtures.read(self.folder.file("goldens/\(name).png")) }
        let path = try suite(
            extra: [
                #"{"name": "new-one", "inputs": ["\#(Fixtures.sampleImages)"], "arguments": ["--include", "grayscale.jpg"]}"#,
                #"{"name": "broken", "inputs": ["\#(folder.file("missing"))"]}"#,
            ],
            replacing: [#""--layout", "grid", "--columns", "4""#: #""--layout", "grid", "--columns", "3""#])
        _ = folder.write(try #require(golden("pngs-grid")), to: "goldens/old.png")
        let json = folder.file("r.json"), xml = folder.file("r.xml")
        let before = (golden("jpegs-masonry"), golden("pngs-grid"))
        #expect(throws: ExitCode(2)) { try check([path, "--json", json, "--junit", xml]) }
        let read = try results(json)
        let statuses = Dictionary(uniqueKeysWithValues: read.fixtures.map { ($0.name, $0.status) })
        #expect(
            statuses == [
                "jpegs-masonry": .passed, "pngs-grid": .changed, "videos-and-jxl-justified": .passed,
                "new-one": .new, "broken": .error, "old": .obsolete,
            ])
        let changed = try #require(read.fixtures.first { $0.name == "pngs-grid" })
        #expect((changed.tiles?.moved.count ?? 0) > 0 || changed.sizes != nil)
        #expect(read.fixtures.first { $0.name == "broken" }?.message.contains("missing") == true)
        let junit = String(decoding: try #require(Fixtures.read(xml)), as: UTF8.self)
        #expect(junit.contains("tests=\"6\" failures=\"2\" errors=\"1\" skipped=\"1\""))

        // Without the broken one: 1 (a fixture changed and one is new); obsolete alone passes
        // unless asked; --update writes the changed and new goldens only; --prune removes old.
        let repaired = try suite(
            extra: [
                #"{"name": "new-one", "inputs": ["\#(Fixtures.sampleImages)"], "arguments": ["--include", "grayscale.jpg"]}"#
            ],
            replacing: [#""--layout", "grid", "--columns", "4""#: #""--layout", "grid", "--columns", "3""#])
        #expect(throws: ExitCode(1)) { try check([repaired]) }
        try check([repaired, "--update"])
        #expect(golden("jpegs-masonry") == before.0 && golden("pngs-grid") != before.1 && golden("new-one") != nil)
        try check([repaired])
        #expect(throws: ExitCode(1)) { try check([repaired, "--fail-on-obsolete"]) }
        try check([repaired, "--prune", "--json", json])
        let pruned = try results(json)
        #expect(golden("old") == nil && pruned.fixtures.contains { $0.status == .obsolete })
        try check([repaired, "--fail-on-obsolete"])
    }

    @Test("one report page for the suite: every fixture in the table, failing first; each changed one's tiles")
    func report() throws {
        let path = try suite(
            replacing: [#""--layout", "grid", "--columns", "4""#: #""--layout", "grid", "--columns", "3""#])
        _ = folder.write(try #require(Fixtures.read(folder.file("goldens/pngs-grid.png"))), to: "goldens/old.png")
        let page = folder.file("report.html")
        #expect(throws: ExitCode(1)) { try check([path, "--report", page]) }
        let html = String(decoding: try #require(Fixtures.read(page)), as: UTF8.self)
        let rows = html.components(separatedBy: "<tr data-status=\"").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        #expect(rows == ["changed", "obsolete", "passed", "passed"])
        #expect(html.contains("<h1>1 of 3 fixtures failed</h1>"))
        #expect(html.contains("<h2>pngs-grid</h2>") && html.contains("options changed: columns 4 → 3"))
        #expect(html.contains("data-kind=\"moved\" data-name=\"png-rgb.png\""))
        #expect(!html.contains("src=\"http") && html.contains("data:image/png;base64,"))
    }

    @Test("two folders of sheets are compared by name: passed, changed, new and obsolete")
    func folders() throws {
        let expected = folder.file("expected"), actual = folder.file("actual")
        for dir in [expected, actual] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        let goldens = Self.example + "/goldens"
        for name in ["jpegs-masonry", "pngs-grid"] {
            try FileManager.default.copyItem(atPath: "\(goldens)/\(name).png", toPath: "\(expected)/\(name).png")
        }
        try FileManager.default.copyItem(atPath: "\(goldens)/jpegs-masonry.png", toPath: "\(actual)/jpegs-masonry.png")
        try FileManager.default.copyItem(atPath: "\(goldens)/pngs-grid.png", toPath: "\(actual)/videos.png")
        let json = folder.file("r.json")
        #expect(throws: ExitCode(1)) { try check(["--expected", expected, "--actual", actual, "--json", json]) }
        let statuses = Dictionary(uniqueKeysWithValues: try results(json).fixtures.map { ($0.name, $0.status) })
        #expect(statuses == ["jpegs-masonry": .passed, "videos": .new, "pngs-grid": .obsolete])
        #expect(throws: (any Error).self) { try ImageWallCommand.Check.parse(["--expected", expected]) }
        #expect(throws: ExitCode(2)) { try check(["--expected", expected, "--actual", folder.file("nowhere")]) }
    }

    @Test("a suite file that cannot be used is refused with where and why")
    func invalid() throws {
        let path = folder.write(Array(#"{"fixtures": [{"name": "a/b", "inputs": ["x"]}]}"#.utf8), to: "bad.json")
        #expect(throws: (any Error).self) { try FixtureSuite(contentsOf: path) }
        do {
            _ = try FixtureSuite(contentsOf: path)
        } catch {
            #expect(error.message.contains("a name is a file name without a slash"))
        }
        let missing = folder.write(Array(#"{"fixtures": [{"inputs": ["x"]}]}"#.utf8), to: "missing.json")
        do {
            _ = try FixtureSuite(contentsOf: missing)
        } catch {
            #expect(error.message.contains("\"name\" is missing"), "\(error.message)")
        }
        #expect(throws: ExitCode(2)) { try check([path]) }
    }

    @Test("a fixture's bad argument is said in words, results name no deleted file, and check -q prints what failed")
    func messages() throws {
        let path = try suite(extra: [
            #"{"name": "misspelt", "inputs": ["\#(Fixtures.sampleImages)"], "arguments": ["--colums", "4"]}"#
        ])
        let json = folder.file("r.json")
        let quiet = try Fixtures.run(Fixtures.binary, ["check", path, "-q", "--json", json])
        #expect(quiet.status == 2)
        #expect(
            quiet.errors.contains("misspelt: the render failed: its arguments: Unknown option '--colums'"),
            "\(quiet.errors)")
        #expect(!quiet.errors.contains("CommandError") && !quiet.errors.contains("commandStack"))
        let printed = String(decoding: quiet.output, as: UTF8.self)
        #expect(printed.isEmpty, "the three that passed and the summary are not printed with -q: \(printed)")
        for fixture in try results(json).fixtures {
            #expect(fixture.actual == FixtureResult.thisRender, "\(fixture.name): \(fixture.actual)")
        }
        let loud = try Fixtures.run(Fixtures.binary, ["check", path])
        #expect(String(decoding: loud.output, as: UTF8.self).contains("passed: jpegs-masonry"))
    }
}
