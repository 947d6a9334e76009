import ArgumentParser
import Foundation
import ImageWall
import WallCodecs
import WallParts
import WallReview

/// How two sheets are compared, for `diff` and `render --check`.
struct CompareOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Channel differences up to this count as equal.", valueName: "0-255"))
    var tolerance = SheetDiff.Options().tolerance

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "A perceptual threshold as pixelmatch's: colour differences (YIQ) up to this share of the largest count as equal.",
            valueName: "0-1"))
    var threshold: Double?

    @Flag(
        help:
            "Do not count pixels that only show an edge moved by under a pixel (anti-aliasing); they are reported apart either way."
    )
    var ignoreAntialiasing = false

    @Flag(
        help:
            "Count every pixel that differs, also in tiles of decoders that round otherwise on other CPUs (JPEG XL's lossy files: one level on a few pixels, allowed by default)."
    )
    var exact = false

    @Option(
        help: ArgumentHelp(
            "Leave out the tiles whose path under their input or file name matches (needs the manifests); repeatable.",
            valueName: "TILE-GLOB"))
    var ignore: [String] = []

    @Option(help: ArgumentHelp("Changed pixels allowed: a count, or a share like 0.5%.", valueName: "n|p%"))
    var maxDiffPixels = "0"

    @Option(
        help: ArgumentHelp(
            "Write an HTML report (self-contained: both sheets, the changes, each differing tile before and after).",
            valueName: "diff.html"))
    var report: String?

    @Option(
        help: ArgumentHelp(
            "Write the result as JSON: status, changed pixels, the tiles by kind, the versions that drew the sheets, time.",
            valueName: "result.json"))
    var json: String?

    @Option(
        help: ArgumentHelp(
            "Write the result as JUnit XML (a test case; a failure names the tiles that differ), as GitHub Actions, GitLab and Jenkins read it.",
            valueName: "result.xml"))
    var junit: String?

    /// The files this comparison writes besides the sheet: the report and the results.
    var outputs: [String] { [report, json, junit].compactMap { $0 } }

    func validate() throws {
        if !(0...255).contains(tolerance) { throw ValidationError("--tolerance must be 0 to 255") }
        if let threshold, !(0...1).contains(threshold) { throw ValidationError("--threshold must be 0 to 1") }
        if allowance(pixels: 1) == nil {
            throw ValidationError("--max-diff-pixels must be a count or a percentage like 0.5%")
        }
    }

    /// The pixel comparison's options.
    var options: SheetDiff.Options {
        var options = SheetDiff.Options()
        options.tolerance = tolerance
        options.threshold = threshold
        options.ignoreAntialiasing = ignoreAntialiasing
        options.exact = exact
        return options
    }

    /// Changed pixels allowed on a sheet of `pixels`, or nil when the option is malformed.
    func allowance(pixels: Int) -> Int? {
        if maxDiffPixels.hasSuffix("%") {
            guard let percent = Double(maxDiffPixels.dropLast()), percent >= 0 else { return nil }
            return Int((percent / 100 * Double(pixels)).rounded(.down))
        }
        guard let count = Int(maxDiffPixels), count >= 0 else { return nil }
        return count
    }

    /// The check of a sheet against its golden these options make (see ``GoldenCheck``).
    func goldenCheck(update: Bool, drawing: Bool) -> GoldenCheck {
        let options = self
        return GoldenCheck(
            options: self.options, ignore: ignore, allowance: { options.allowance(pixels: $0) ?? 0 }, update: update,
            drawing: drawing)
    }

    /// Writes one comparison's `result` as JSON and JUnit where asked.
    func publish(_ result: FixtureResult) {
        publish(FixtureResults(fixtures: [result], libraries: CodecLibraries.versions))
    }

    /// Writes `all` as JSON and JUnit where asked. A file that cannot be written is an error
    /// line, never a change of the outcome.
    func publish(_ all: FixtureResults) {
        for (path, write) in [(json, all.writeJSON), (junit, all.writeJUnit)] {
            guard let path else { continue }
            do {
                try write(path)
            } catch {
                Console.error("error: \(path) was not written: \(error.localizedDescription)")
            }
        }
    }

    /// Compares `expected` with `actual` (and their manifests), prints the summary and lists,
    /// writes the report when asked; returns the comparison, with the picture of the changes
    /// drawn when `drawing` or for the report.
    /// `actualName` names the actual sheet in the lines and the report when its file is not
    /// one to show (a temporary file). A report that cannot be written is an error after the
    /// lines, never a change of the comparison's outcome.
    func compare(
        _ expected: String, _ actual: String, manifests: (String, String)?, drawing: Bool = false,
        actualName: String? = nil
    ) throws -> SheetComparison {
        var comparison = try SheetComparison(
            expected: expected, actual: actual, manifests: manifests, options: options, ignore: ignore,
            allowance: { allowance(pixels: $0) ?? 0 },
            drawing: drawing ? .always : report != nil ? .whenDiffering : .never)
        if let actualName { comparison.actual = actualName }
        for line in comparison.lines() { Console.output(line) }
        if let report, !comparison.matches {
            do {
                try comparison.writeReport(to: report)
            } catch {
                Console.error("error: the report was not written: \(error.reason)")
            }
        }
        return comparison
    }
}
