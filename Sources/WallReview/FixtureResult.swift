import Foundation
import WallCore
import WallFiles

/// The outcome of checking one fixture sheet against its golden, in the shape machines read:
/// written as JSON by ``FixtureResults/writeJSON(to:)`` and as a JUnit test case by
/// ``FixtureResults/writeJUnit(to:)``.
public struct FixtureResult: Sendable, Codable, Equatable {
    /// What became of the fixture.
    public enum Status: String, Sendable, Codable {
        /// Its sheet matches the golden.
        case passed
        /// Its sheet differs from the golden.
        case changed
        /// There is no golden yet (a failure unless it was created).
        case new
        /// The golden was written from this render (`--update`).
        case updated
        /// It could not be checked: an unreadable input or golden, a failed render.
        case error
        /// A golden sheet no fixture makes any more (a failure only when asked).
        case obsolete

        /// Whether the status fails a run.
        public var fails: Bool { self == .changed || self == .new || self == .error }
    }

    /// Pixel counts of the comparison.
    public struct Pixels: Sendable, Codable, Equatable {
        /// Pixels that differ beyond the tolerance (anti-aliased ones included unless ignored).
        public var changed: Int
        /// Pixels compared.
        public var total: Int
        /// Of the changed pixels, those that only show an edge moved by under a pixel.
        public var antialiased: Int
        /// Pixels in ignored areas.
        public var ignored: Int
        /// The largest channel difference, 0–255.
        public var largestDifference: Int
        /// Changed pixels allowed (`--max-diff-pixels`).
        public var allowed: Int
        /// Pixels one level apart in tiles of decoders that round otherwise on other CPUs, taken
        /// for that rounding (absent when there are none).
        public var rounded: Int?

        /// The counts of a comparison.
        public init(
            changed: Int, total: Int, antialiased: Int, ignored: Int, largestDifference: Int, allowed: Int,
            rounded: Int? = nil
        ) {
            (self.changed, self.total, self.antialiased) = (changed, total, antialiased)
            (self.ignored, self.largestDifference, self.allowed) = (ignored, largestDifference, allowed)
            self.rounded = rounded
        }
    }

    /// The fixture's name: the golden sheet's path (or the checked sheet's, for `diff`).
    public var name: String
    /// What became of it.
    public var status: Status
    /// The golden sheet.
    public var expected: String
    /// The sheet checked against it: its file, or ``thisRender`` for a render not kept.
    public var actual: String

    /// What ``actual`` says of a sheet rendered for the check and not kept (`render --check`
    /// without `-o`, a suite's fixtures): no file to name.
    public static let thisRender = "this render"
    /// One line that says why: the comparison's summary, or the error.
    public var message: String
    /// The pixel counts, when the sheets were compared.
    public var pixels: Pixels?
    /// The tiles that differ, by kind, named by their paths, when the manifests were compared.
    public var tiles: SheetDiff.TileChanges?
    /// The sizes of the two sheets when they differ ("2000x4454" each).
    public var sizes: [String]?
    /// The options that differ between the golden's manifest and this render's ("columns 4 → 3").
    public var options: [String]?
    /// The libraries (or ImageWall) whose versions differ from the golden's ("libjpeg 2001005
    /// here, 3000001 in the golden").
    public var versions: [String]?
    /// Seconds the check took.
    public var seconds: Double

    /// A fixture's result.
    public init(
        name: String, status: Status, expected: String, actual: String, message: String, pixels: Pixels? = nil,
        tiles: SheetDiff.TileChanges? = nil, sizes: [String]? = nil, seconds: Double
    ) {
        self.name = name
        self.status = status
        self.expected = expected
        self.actual = actual
        self.message = message
        self.pixels = pixels
        self.tiles = tiles
        self.sizes = sizes
        self.seconds = seconds
    }

    /// The result of `comparison`, named `name`, `status` given when it is not the comparison's
    /// own (a golden updated).
    public init(_ comparison: SheetComparison, name: String, status: Status? = nil, seconds: Double) {
        let result = comparison.result
        self.init(
            name: name, status: status ?? (comparison.matches ? .passed : .changed), expected: comparison.expected,
            actual: comparison.actual, message: comparison.lines(limit: 0).first ?? "",
            pixels: Pixels(
                changed: result.changedPixels, total: result.size.width * result.size.height,
                antialiased: result.antialiasedPixels, ignored: result.ignoredPixels,
                largestDifference: result.maxDelta, allowed: comparison.allowance,
                rounded: result.roundedPixels > 0 ? result.roundedPixels : nil),
            tiles: comparison.tiles,
            sizes: comparison.sizes.map { ["\($0.expected)", "\($0.actual)"] }, seconds: seconds)
        let options = comparison.optionChanges, versions = comparison.versionChanges
        self.options = options.isEmpty ? nil : options
        self.versions = versions.isEmpty ? nil : versions
    }

    /// The tiles that differ, kind by kind ("changed", "moved", "appeared", "disappeared"),
    /// the kinds without tiles left out.
    public var differingTiles: [(kind: String, names: [String])] {
        tiles?.byKind.filter { !$0.names.isEmpty } ?? []
    }

    /// The lines a failure shows: the message, the versions that differ, then the tiles that
    /// differ by kind.
    var details: [String] {
        [message] + (versions.map { ["versions: " + $0.joined(separator: "; ")] } ?? [])
            + differingTiles.flatMap { kind, names in names.map { "\(kind): \($0)" } }
    }

    /// The failure's one-line message for JUnit: the options that changed, else what changed,
    /// naming the first tiles.
    var failureMessage: String {
        if let options { return "options changed: " + options.joined(separator: ", ") }
        guard !differingTiles.isEmpty else { return message }
        var parts: [String] = []
        for (kind, names) in differingTiles {
            let shown = names.prefix(3).joined(separator: ", ")
            parts.append("\(kind): \(shown)" + (names.count > 3 ? " and \(names.count - 3) more" : ""))
        }
        return parts.joined(separator: "; ")
    }
}

/// The results of a run of fixture checks, with what made them, written for machines.
public struct FixtureResults: Sendable, Codable, Equatable {
    /// ImageWall's version.
    public var version: String
    /// The decoding libraries and their versions.
    public var libraries: String
    /// Each fixture's result, in the order checked.
    public var fixtures: [FixtureResult]
    /// Whether obsolete goldens fail the run (`--fail-on-obsolete`); else they are skipped.
    public var obsoleteFails: Bool

    /// Results made by this ImageWall with its libraries.
    public init(fixtures: [FixtureResult], libraries: String, obsoleteFails: Bool = false) {
        version = ImageWallRelease.version
        self.libraries = libraries
        self.fixtures = fixtures
        self.obsoleteFails = obsoleteFails
    }

    /// Whether the run fails: a fixture changed, new or in error, or an obsolete golden when
    /// they fail.
    public var fails: Bool {
        fixtures.contains { $0.status.fails || ($0.status == .obsolete && obsoleteFails) }
    }

    /// How many fixtures have `status`.
    public func count(_ status: FixtureResult.Status) -> Int { fixtures.filter { $0.status == status }.count }

    /// Writes the results as JSON (keys sorted, indented), atomically.
    public func writeJSON(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write(Array(encoder.encode(self) + Data("\n".utf8)), to: path)
    }

    /// Writes the results as JUnit XML, atomically: one test case a fixture in one suite; a
    /// changed or new fixture is a failure naming its tiles, one that could not be checked an
    /// error, as GitHub Actions, GitLab and Jenkins read them.
    public func writeJUnit(to path: String) throws {
        try AtomicFile.write(Array(junit.utf8), to: path)
    }

    /// The JUnit XML text.
    public var junit: String {
        /// `text` escaped for XML: in an attribute (`quoted`) line breaks and tabs are kept as
        /// character references, in an element's text as they are.
        func escaped(_ text: String, quoted: Bool) -> String {
            var escaped = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": escaped += "&amp;"
                case "<": escaped += "&lt;"
                case ">": escaped += "&gt;"
                case "\"" where quoted: escaped += "&quot;"
                case "\n" where quoted: escaped += "&#10;"
                case "\t" where quoted: escaped += "&#9;"
                case "\n", "\t": escaped += String(scalar)
                default:
                    // XML 1.0 has no other control characters, even escaped.
                    escaped += scalar.value < 0x20 ? "?" : String(scalar)
                }
            }
            return escaped
        }
        func attribute(_ text: String) -> String { escaped(text, quoted: true) }
        func seconds(_ value: Double) -> String { String(format: "%.3f", value) }
        let failures =
            fixtures.filter { $0.status == .changed || $0.status == .new || ($0.status == .obsolete && obsoleteFails) }
            .count
        let errors = count(.error)
        let skipped = obsoleteFails ? 0 : count(.obsolete)
        let total = fixtures.reduce(0) { $0 + $1.seconds }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let counts = "tests=\"\(fixtures.count)\" failures=\"\(failures)\" errors=\"\(errors)\""
        xml += "<testsuites name=\"imagewall\" \(counts) time=\"\(seconds(total))\">\n"
        xml += "  <testsuite name=\"imagewall fixtures\" \(counts) skipped=\"\(skipped)\" time=\"\(seconds(total))\">\n"
        xml += "    <properties>\n"
        xml += "      <property name=\"imagewall\" value=\"\(attribute(version))\"/>\n"
        xml += "      <property name=\"libraries\" value=\"\(attribute(libraries))\"/>\n"
        xml += "    </properties>\n"
        for fixture in fixtures {
            let testcase =
                "<testcase classname=\"imagewall\" name=\"\(attribute(fixture.name))\" time=\"\(seconds(fixture.seconds))\""
            let body = escaped(fixture.details.joined(separator: "\n"), quoted: false)
            switch fixture.status {
            case .passed, .updated:
                xml += "    \(testcase)>\n      <system-out>\(body)</system-out>\n    </testcase>\n"
            case .obsolete where !obsoleteFails:
                xml += "    \(testcase)>\n      <skipped message=\"\(attribute(fixture.message))\"/>\n    </testcase>\n"
            case .changed, .new, .obsolete:
                xml += "    \(testcase)>\n"
                xml +=
                    "      <failure type=\"\(fixture.status.rawValue)\" message=\"\(attribute(fixture.failureMessage))\">"
                xml += "\(body)</failure>\n    </testcase>\n"
            case .error:
                xml += "    \(testcase)>\n"
                xml += "      <error type=\"error\" message=\"\(attribute(fixture.message))\">\(body)</error>\n"
                xml += "    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }
}
