import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallFiles

/// A rendered sheet compared with its golden and the outcome settled: the one entry point of
/// `check` (each fixture of a suite) and `render --check` (its one sheet): passed, changed, new
/// or error; with `update`, a golden that changed or is new is written from the sheet (updated).
public struct GoldenCheck: Sendable {
    /// How pixels are compared.
    public var options: SheetDiff.Options
    /// Globs of tiles whose pixels are not compared.
    public var ignore: [String]
    /// The changed pixels allowed in a sheet of so many pixels.
    public var allowance: @Sendable (_ pixels: Int) -> Int
    /// Whether goldens that changed or are new are written.
    public var update: Bool
    /// Whether the picture of the changes is drawn when they differ (for a report).
    public var drawing: Bool

    /// A check comparing as `options` say, leaving out the tiles `ignore` names and allowing
    /// `allowance(pixels)` changed pixels; `update` writes goldens, `drawing` draws changes.
    public init(
        options: SheetDiff.Options, ignore: [String] = [], allowance: @escaping @Sendable (Int) -> Int = { _ in 0 },
        update: Bool = false, drawing: Bool = false
    ) {
        (self.options, self.ignore, self.allowance, self.update, self.drawing) =
            (options, ignore, allowance, update, drawing)
    }

    /// The outcome for the sheet `sheet` (with its manifest at `manifest`) against `golden` (and
    /// `goldenManifest`, when one is kept), named `name`, started at `started`; and the
    /// comparison, when the sheets were compared pixel by pixel.
    public func settle(
        _ name: String, golden: String, goldenManifest: String?, sheet: String, manifest: String, started: Date
    ) -> (result: FixtureResult, comparison: SheetComparison?) {
        let exists = FileManager.default.fileExists(atPath:)
        func result(_ status: FixtureResult.Status, _ message: String) -> FixtureResult {
            FixtureResult(
                name: name, status: status, expected: golden, actual: sheet, message: message,
                seconds: Date().timeIntervalSince(started))
        }
        guard exists(golden) else {
            guard update else { return (result(.new, "\(golden) does not exist: run with --update to create it"), nil) }
            do {
                try write(sheet: sheet, manifest: manifest, golden: golden, goldenManifest: goldenManifest)
                return (result(.updated, "created \(golden)"), nil)
            } catch {
                return (result(.error, "\(golden) was not written: \(error.reason)"), nil)
            }
        }
        do {
            let manifests = goldenManifest.flatMap { exists($0) && exists(manifest) ? ($0, manifest) : nil }
            // A golden manifest asked for and not there yet is made when the sheet matches.
            let manifestMissing = goldenManifest.map { update && !exists($0) } ?? false
            func written(_ result: FixtureResult) throws -> FixtureResult {
                if manifestMissing, result.status == .passed, let goldenManifest {
                    try write(manifest: manifest, to: goldenManifest, golden: golden)
                }
                return result
            }
            if let same = try identical(golden: golden, sheet: sheet, manifests: manifests) {
                let passed = FixtureResult(
                    name: name, status: .passed, expected: golden, actual: sheet,
                    message: "match: the sheet is the golden, byte for byte", pixels: same,
                    tiles: manifests.map { _ in SheetDiff.TileChanges() }, seconds: Date().timeIntervalSince(started))
                return (try written(passed), nil)
            }
            let comparison = try SheetComparison(
                expected: golden, actual: sheet, manifests: manifests, options: options, ignore: ignore,
                allowance: allowance, drawing: drawing ? .whenDiffering : .never)
            guard !comparison.matches else {
                return (
                    try written(FixtureResult(comparison, name: name, seconds: Date().timeIntervalSince(started))),
                    comparison
                )
            }
            guard update else {
                return (FixtureResult(comparison, name: name, seconds: Date().timeIntervalSince(started)), comparison)
            }
            try write(sheet: sheet, manifest: manifest, golden: golden, goldenManifest: goldenManifest)
            return (
                FixtureResult(comparison, name: name, status: .updated, seconds: Date().timeIntervalSince(started)),
                comparison
            )
        } catch let error as SheetDiff.SizeMismatch where update {
            // A golden of another size is replaced as one that differs.
            do {
                try write(sheet: sheet, manifest: manifest, golden: golden, goldenManifest: goldenManifest)
                return (result(.updated, "updated \(golden) (\(error.message))"), nil)
            } catch {
                return (result(.error, "\(golden) was not written: \(error.reason)"), nil)
            }
        } catch {
            return (result(.error, error.reason), nil)
        }
    }

    /// Puts `sheet` in `golden`'s place, and its manifest in `goldenManifest`'s.
    private func write(sheet: String, manifest: String, golden: String, goldenManifest: String?) throws {
        let parent = FilePaths.parent(of: golden)
        if !parent.isEmpty {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
        try AtomicFile.copy(sheet, to: golden)
        if let goldenManifest, FileManager.default.fileExists(atPath: manifest) {
            try write(manifest: manifest, to: goldenManifest, golden: golden)
        }
    }

    /// The manifest at `manifest`, recorded for where it now lies: its page is `golden`, its
    /// roots found from there.
    private func write(manifest: String, to goldenManifest: String, golden: String) throws {
        var recorded = try Wall.readManifest(manifest)
        for page in recorded.pages.indices { recorded.pages[page].file = golden }
        try ManifestWriter.write(recorded, to: goldenManifest)
    }

    /// When `sheet` is `golden` byte for byte and their manifests place the same tiles in
    /// the same places, the pixel counts of a match (nothing to decode: renders are
    /// deterministic, so a fixture that did not change costs its render alone); else `nil`.
    private func identical(golden: String, sheet: String, manifests: (String, String)?) throws
        -> FixtureResult.Pixels?
    {
        guard let a = FileManager.default.contents(atPath: golden),
            let b = FileManager.default.contents(atPath: sheet),
            a == b
        else { return nil }
        if let manifests {
            let changes = SheetDiff.compare(
                try Wall.readManifest(manifests.0), try Wall.readManifest(manifests.1), mask: nil)
            guard changes.isEmpty else { return nil }
        }
        let size = try ImageProbe().probe(path: sheet).storedSize
        let total = size.width * size.height
        return FixtureResult.Pixels(
            changed: 0, total: total, antialiased: 0, ignored: 0, largestDifference: 0,
            allowed: allowance(total))
    }

    /// A golden no fixture makes: obsolete; with `prune`, removed with its manifest.
    public static func obsolete(_ golden: String, prune: Bool) -> FixtureResult {
        var message = "no fixture makes \(golden)"
        if prune {
            let manifest = FilePaths.withoutExtension(golden) + ".json"
            try? FileManager.default.removeItem(atPath: golden)
            if FileManager.default.fileExists(atPath: manifest) {
                try? FileManager.default.removeItem(atPath: manifest)
            }
            message = "removed \(golden): no fixture makes it"
        }
        return FixtureResult(
            name: FilePaths.stem(of: golden), status: .obsolete, expected: golden, actual: "", message: message,
            seconds: 0)
    }
}
