import ArgumentParser
import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallFiles
import WallPages
import WallReview

extension ImageWallCommand {
    /// `imagewall check`: every fixture of a suite rendered and compared with its golden sheet,
    /// or two folders of sheets compared by name.
    public struct Check: ParsableCommand {
        /// The command's abstract and its discussion, with examples.
        public static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check a suite of fixture sheets against their goldens, or two folders of sheets.",
            discussion: """
                A suite file (JSON) names each fixture: its inputs, or a manifest to render \
                again, and the options of `imagewall render` it is made with; the golden sheets \
                are NAME.png (and their manifests NAME.json) in the suite's goldens folder:

                  {"goldens": "goldens", "arguments": ["--width", "600"],
                   "fixtures": [{"name": "samples", "inputs": ["../SampleImages"], "arguments": ["--columns", "4"]},
                                {"name": "wall", "manifest": "walls/wall.json"}]}

                Paths are relative to the suite file. Each fixture is rendered (on every core) \
                and compared with its golden as `render --check` does, and reported: passed, \
                changed (with its tiles), new (no golden yet), error (with the reason); a golden \
                that no fixture makes is obsolete. With --expected and --actual instead, the \
                sheets of two folders are compared by name, as reg-cli does: a sheet only in \
                the actual folder is new, one only in the expected folder obsolete.

                --update writes the goldens that changed or are new, and only those; --prune \
                removes the obsolete ones. --json and --junit write every result for CI; \
                --report one self-contained page: every fixture in a table, the failing first, \
                and each changed one's sheets and tiles before, after and their changes.

                EXIT STATUS:
                  0   every fixture passed (or was updated); obsolete goldens too, unless --fail-on-obsolete
                  1   a fixture changed or is new (or a golden is obsolete, with --fail-on-obsolete)
                  2   a fixture could not be checked, or the suite file cannot be used

                EXAMPLES:
                  imagewall check fixtures/suite.json
                  imagewall check fixtures/suite.json --threshold 0.1 --junit out/fixtures.xml --json out/fixtures.json
                  imagewall check fixtures/suite.json --report out/fixtures.html
                  imagewall check fixtures/suite.json --update --prune
                  imagewall check --expected goldens --actual out/sheets --max-diff-pixels 0.1%
                """)

        @Argument(help: "The suite file.")
        var suite: String?

        @Option(help: ArgumentHelp("Compare this folder's sheets (the goldens) …", valueName: "dir"))
        var expected: String?

        @Option(help: ArgumentHelp("… with the sheets of the same names in this one.", valueName: "dir"))
        var actual: String?

        @Flag(help: "Write the goldens that changed or are new (and only those).")
        var update = false

        @Flag(help: "Remove obsolete goldens: those no fixture makes (or not in the actual folder).")
        var prune = false

        @Flag(help: "Fail (exit 1) when a golden is obsolete.")
        var failOnObsolete = false

        @Option(help: ArgumentHelp("Threads each render uses (default: every core).", valueName: "n"))
        var threads: Int?

        @Flag(
            name: [.short, .long],
            help: "Print only what did not pass (changed, new, obsolete fixtures and errors), and no summary.")
        var quiet = false

        /// Each changed fixture's part of the report, by name, when --report asks for one.
        final class Sections {
            var byName: [String: String] = [:]
            let images: ReportImages?
            init(_ wanted: Bool) throws { images = wanted ? try ReportImages() : nil }
        }

        @OptionGroup(title: "Comparison")
        var compare: CompareOptions

        /// A command with every option at its default, as ArgumentParser makes it.
        public init() {}

        /// Refuses options that cannot work together, before anything is read.
        public func validate() throws {
            if suite != nil && (expected != nil || actual != nil) {
                throw ValidationError("give a suite file, or --expected and --actual, not both")
            }
            if suite == nil && (expected == nil || actual == nil) {
                throw ValidationError("give a suite file, or --expected DIR and --actual DIR")
            }
            if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        }

        /// Runs the command; failures end in an exit code, never a crash.
        public func run() throws {
            do {
                try OutputFolders.check(compare.outputs)
            } catch {
                Console.error("error: \(error.message)")
                throw ExitStatus.cannotCompare
            }
            var results: [FixtureResult]
            let sections: Sections
            do {
                sections = try Sections(compare.report != nil)
                if let suite {
                    results = try checkSuite(FixtureSuite(contentsOf: suite), sections: sections)
                } else {
                    for folder in [expected, actual].compactMap({ $0 }) {
                        var isFolder: ObjCBool = false
                        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
                        else { throw SuiteError(message: "\(folder) is not a folder of sheets") }
                    }
                    results = checkFolders(expected: expected ?? "", actual: actual ?? "", sections: sections)
                }
            } catch let error as WallError {
                Console.error("error: \(error.message)")
                throw ExitStatus.cannotCompare
            }
            let all = FixtureResults(
                fixtures: results, libraries: CodecLibraries.versions, obsoleteFails: failOnObsolete)
            compare.publish(all)
            if let report = compare.report {
                do {
                    try AtomicFile.write(Array(ReportPage.suite(all, sections: sections.byName).utf8), to: report)
                } catch {
                    Console.error("error: the report was not written: \(error)")
                }
            }
            let counts = [FixtureResult.Status.passed, .changed, .new, .updated, .error, .obsolete].compactMap {
                status -> String? in
                let n = all.count(status)
                return n == 0 && status != .passed ? nil : "\(n) \(status.rawValue)"
            }
            if !quiet {
                Console.output(
                    Render.counted(results.count - all.count(.obsolete), "fixture") + ": "
                        + counts.joined(separator: ", "))
            }
            if all.count(.error) > 0 { throw ExitStatus.cannotCompare }
            if all.fails { throw ExitStatus.differ }
        }

        /// Every fixture of `suite` rendered and compared, then its obsolete goldens.
        func checkSuite(_ suite: FixtureSuite, sections: Sections) throws -> [FixtureResult] {
            let scratch = try PrivateFolder(temporaryNamed: "imagewall-suite")
            defer { scratch.remove() }
            var results: [FixtureResult] = []
            for fixture in suite.fixtures {
                let started = Date()
                let sheet = scratch.path + "/" + fixture.name + ".png"
                let manifest = scratch.path + "/" + fixture.name + ".json"
                let golden = fixture.golden(in: suite.goldens)
                func result(_ status: FixtureResult.Status, _ message: String) -> FixtureResult {
                    FixtureResult(
                        name: fixture.name, status: status, expected: golden, actual: FixtureResult.thisRender,
                        message: message, seconds: Date().timeIntervalSince(started))
                }
                do {
                    try render(fixture, to: sheet, manifest: manifest)
                } catch {
                    results.append(say(result(.error, "the render failed: \(error.reason)")))
                    continue
                }
                results.append(
                    say(
                        settle(
                            fixture.name, golden: golden, goldenManifest: fixture.goldenManifest(in: suite.goldens),
                            sheet: sheet, manifest: manifest, started: started, sections: sections,
                            shownAs: FixtureResult.thisRender)))
            }
            for golden in suite.obsoleteGoldens {
                results.append(say(obsolete(golden)))
            }
            return results
        }

        /// The sheets of `expected` and `actual` matched by name and compared; a sheet only in
        /// `actual` is new, one only in `expected` obsolete.
        func checkFolders(expected: String, actual: String, sections: Sections) -> [FixtureResult] {
            let expectedSheets = FixtureSuite.sheets(in: expected), actualSheets = FixtureSuite.sheets(in: actual)
            var results: [FixtureResult] = []
            for name in actualSheets.sorted() {
                let stem = String(name.dropLast(4))
                results.append(
                    say(
                        settle(
                            stem, golden: expected + "/" + name, goldenManifest: expected + "/" + stem + ".json",
                            sheet: actual + "/" + name, manifest: actual + "/" + stem + ".json", started: Date(),
                            sections: sections)))
            }
            for name in expectedSheets.subtracting(actualSheets).sorted() {
                results.append(say(obsolete(expected + "/" + name)))
            }
            return results
        }

        /// Renders `fixture` to `sheet` and its manifest, as `imagewall render` would with its
        /// arguments; one page.
        func render(_ fixture: FixtureSuite.Fixture, to sheet: String, manifest: String) throws {
            var arguments = fixture.inputs + fixture.arguments
            if let recorded = fixture.manifest { arguments += ["--from-manifest", recorded] }
            let command: Render
            do {
                command = try Render.parse(arguments + ["-o", sheet, "--manifest", manifest, "-q"])
            } catch {
                // ArgumentParser's own words, as `imagewall render` would print them.
                throw SuiteError(message: "its arguments: " + Render.message(for: error))
            }
            var options = command.options
            if let threads { options.limits.threads = threads }
            let made: Manifest
            if let recorded = fixture.manifest {
                made = try Wall.render(
                    from: Wall.readManifest(recorded, threads: options.limits.threads), to: sheet, manifest: manifest,
                    recordedAt: recorded,
                    options: options)
            } else {
                made = try Wall(inputs: fixture.inputs).render(to: sheet, manifest: manifest, options: options)
            }
            guard made.pages.count == 1 else {
                throw SuiteError(message: "a fixture is one page; this one has \(made.pages.count) (drop --max-height)")
            }
        }

        /// Compares `sheet` with `golden` (and the manifests, where both exist) and settles the
        /// outcome (see ``GoldenCheck``), the sheet named `shownAs` when it is not kept; a changed
        /// fixture's part of the report is kept.
        func settle(
            _ name: String, golden: String, goldenManifest: String, sheet: String, manifest: String, started: Date,
            sections: Sections, shownAs: String? = nil
        ) -> FixtureResult {
            let check = compare.goldenCheck(update: update, drawing: sections.images != nil)
            var (result, comparison) = check.settle(
                name, golden: golden, goldenManifest: goldenManifest, sheet: sheet, manifest: manifest, started: started
            )
            if let shownAs {
                result.actual = shownAs
                comparison?.actual = shownAs
            }
            if let comparison, !comparison.matches, let images = sections.images {
                do {
                    sections.byName[name] = try comparison.reportSection(
                        number: sections.byName.count + 1, title: name, images: images)
                } catch {
                    Console.error("error: \(name): its part of the report was not made: \(error.reason)")
                }
            }
            return result
        }

        /// A golden no fixture makes: reported, and with --prune removed with its manifest.
        func obsolete(_ golden: String) -> FixtureResult { GoldenCheck.obsolete(golden, prune: prune) }

        /// Prints a fixture's line (and its tiles when it changed); returns it.
        func say(_ result: FixtureResult) -> FixtureResult {
            let line = "\(result.status.rawValue): \(result.name)"
            switch result.status {
            case .passed where quiet: break
            case .passed where result.pixels?.rounded != nil:
                Console.output(line + ": " + result.message)  // never silent about an allowance
            case .passed: Console.output(line)
            case .changed:
                Console.output(line + ": " + result.message)
                for (kind, names) in result.differingTiles {
                    for tile in names.prefix(10) { Console.output("  \(kind): \(tile)") }
                    if names.count > 10 { Console.output("  \(kind): … and \(names.count - 10) more") }
                }
            case .error: Console.error("error: \(result.name): \(result.message)")
            default: Console.output(line + ": " + result.message)
            }
            return result
        }

        /// A fixture that cannot be made as the suite says.
        struct SuiteError: WallError {
            var message: String
        }
    }
}
