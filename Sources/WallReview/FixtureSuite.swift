import Foundation
import ImageWall
import WallCore
import WallFiles

/// A suite of fixture sheets kept in a repository: a JSON file naming each fixture, its inputs
/// (or a manifest to render again) and the command-line options it is rendered with, beside a
/// folder of golden sheets (`NAME.png` and its manifest `NAME.json`). Paths in the file are
/// relative to the file's folder.
///
/// ```json
/// {
///   "goldens": "goldens",
///   "arguments": ["--width", "600"],
///   "fixtures": [
///     {"name": "samples", "inputs": ["../SampleImages"], "arguments": ["--columns", "4"]},
///     {"name": "wall-again", "manifest": "walls/wall.json"}
///   ]
/// }
/// ```
public struct FixtureSuite: Sendable, Equatable {
    /// One fixture: what is rendered, and how.
    public struct Fixture: Sendable, Equatable {
        /// Its name: the golden sheet is `NAME.png` in the goldens folder.
        public var name: String
        /// Image files and folders rendered (resolved against the suite's folder).
        public var inputs: [String]
        /// A manifest whose layout is rendered again instead (resolved), when given.
        public var manifest: String?
        /// Options as on `imagewall render`'s command line: the suite's, then the fixture's own.
        public var arguments: [String]

        /// The golden sheet's path in `goldens`.
        public func golden(in goldens: String) -> String { goldens + "/" + name + ".png" }
        /// The golden manifest's path in `goldens`.
        public func goldenManifest(in goldens: String) -> String { goldens + "/" + name + ".json" }
    }

    /// The folder of golden sheets (resolved).
    public var goldens: String
    /// The fixtures, in the file's order.
    public var fixtures: [Fixture]

    /// A suite file that cannot be used, and why.
    public struct Invalid: WallError {
        /// The file and the reason.
        public var message: String
    }

    /// Reads the suite file at `path`.
    public init(contentsOf path: String) throws(Invalid) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Invalid(message: "\(path): cannot read the suite file")
        }
        let file: SuiteFile
        do {
            file = try JSONDecoder().decode(SuiteFile.self, from: data)
        } catch let error as DecodingError {
            throw Invalid(message: "\(path): not a fixture suite: \(Self.describe(error))")
        } catch {
            throw Invalid(message: "\(path): not a fixture suite: \(error.localizedDescription)")
        }
        let folder = FilePaths.parent(of: path)
        func resolved(_ relative: String) -> String {
            relative.hasPrefix("/") || folder.isEmpty ? relative : folder + "/" + relative
        }
        goldens = resolved(file.goldens ?? "goldens")
        var seen = Set<String>()
        fixtures = []
        for (i, fixture) in file.fixtures.enumerated() {
            let name = fixture.name
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
                throw Invalid(
                    message: "\(path): fixture \(i + 1): a name is a file name without a slash, got \"\(name)\"")
            }
            guard seen.insert(name).inserted else {
                throw Invalid(message: "\(path): two fixtures are named \"\(name)\"")
            }
            let inputs = fixture.inputs ?? []
            guard inputs.isEmpty != (fixture.manifest == nil) else {
                throw Invalid(message: "\(path): fixture \"\(name)\" needs either inputs or a manifest, not both")
            }
            fixtures.append(
                Fixture(
                    name: name, inputs: inputs.map(resolved), manifest: fixture.manifest.map(resolved),
                    arguments: (file.arguments ?? []) + (fixture.arguments ?? [])))
        }
        guard !fixtures.isEmpty else { throw Invalid(message: "\(path): the suite names no fixtures") }
    }

    /// The golden sheets in the goldens folder that no fixture makes, sorted.
    public var obsoleteGoldens: [String] {
        let made = Set(fixtures.map { $0.name + ".png" })
        return Self.sheets(in: goldens).subtracting(made).sorted().map { goldens + "/" + $0 }
    }

    /// The names of the sheets (PNG files, hidden ones left out) in `folder`.
    public static func sheets(in folder: String) -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Set(names.filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") })
    }

    /// The file's shape.
    private struct SuiteFile: Decodable {
        var goldens: String?
        var arguments: [String]?
        var fixtures: [FixtureEntry]

        struct FixtureEntry: Decodable {
            var name: String
            var inputs: [String]?
            var manifest: String?
            var arguments: [String]?
        }
    }

    /// A decoding error said as where and what.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return keys.isEmpty ? "" : "at \(keys.hasPrefix(".") ? String(keys.dropFirst()) : keys): "
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context))\"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return path(context) + context.debugDescription
        @unknown default: return "\(error)"
        }
    }
}
