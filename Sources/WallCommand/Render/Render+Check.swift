import ArgumentParser
import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallReview

extension ImageWallCommand.Render {
    /// `--check`: renders into a private folder, compares with the golden sheet (and its
    /// manifest), and with `--update` puts the new render in its place when they differ.
    /// Exits 0 (match, or updated), 1 (differ) or 2 (cannot compare, or the render failed).
    func runCheck(golden: String, options: WallOptions, hooks: RunHooks) throws {
        let started = Date()
        let comparing = checking.comparing
        let actualName = output.output ?? "this render"
        /// The result as `--json` and `--junit` write it.
        func publish(_ status: FixtureResult.Status, _ message: String, _ comparison: SheetComparison? = nil) {
            let seconds = Date().timeIntervalSince(started)
            comparing.publish(
                comparison.map { FixtureResult($0, name: golden, status: status, seconds: seconds) }
                    ?? FixtureResult(
                        name: golden, status: status, expected: golden, actual: actualName, message: message,
                        seconds: seconds))
        }
        /// Says `message` as an error, records it, and ends with exit status 2.
        func cannotCompare(_ message: String, status: FixtureResult.Status = .error) -> ExitCode {
            Console.error("error: \(message)")
            publish(status, message)
            return ExitStatus.cannotCompare
        }
        let folder: String
        do {
            folder = try PrivateFolder(temporaryNamed: "imagewall-check").path
        } catch {
            throw cannotCompare("cannot make a temporary folder: \(error.reason)")
        }
        defer { PrivateFolder.removeTree(folder) }
        // Whatever cannot be read or written is said before the render, never after "differ".
        do {
            try OutputFolders.check([output.output, output.manifest].compactMap { $0 } + comparing.outputs)
        } catch {
            throw cannotCompare(error.message)
        }
        if let checkManifest = checking.checkManifest, !checking.update,
            !FileManager.default.fileExists(atPath: checkManifest)
        {
            throw cannotCompare("\(checkManifest) does not exist: run with --update to create it", status: .new)
        }
        let sheet = output.output ?? folder + "/sheet.png", manifestPath = output.manifest ?? folder + "/sheet.json"
        do {
            let result = try Wall(inputs: try input.allInputs()).render(
                to: sheet, manifest: manifestPath, options: options, hooks: hooks)
            guard result.pages.count == 1 else {
                throw cannotCompare("--check compares single-page sheets; this one has \(result.pages.count) pages")
            }
        } catch let error as WallError {
            if case WallRunError.cancelled = error {
                Console.error("error: \(error.message)")
                throw ExitStatus.interrupted
            }
            throw cannotCompare(error.message)
        }
        func replaceGolden() throws {
            let parent = (golden as NSString).deletingLastPathComponent
            if !parent.isEmpty {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            }
            try copyAtomically(sheet, to: golden)
            if let checkManifest = checking.checkManifest {
                try ManifestWriter.write(try Wall.readManifest(manifestPath), to: checkManifest)
            }
        }
        guard FileManager.default.fileExists(atPath: golden) else {
            guard checking.update else {
                throw cannotCompare("\(golden) does not exist: run with --update to create it", status: .new)
            }
            try replaceGolden()
            Console.output("created \(golden)")
            publish(.updated, "created \(golden)")
            return
        }
        let comparison: SheetComparison
        do {
            let manifests = checking.checkManifest.flatMap {
                FileManager.default.fileExists(atPath: $0) ? ($0, manifestPath) : nil
            }
            comparison = try comparing.compare(golden, sheet, manifests: manifests, actualName: actualName)
        } catch let error as SheetDiff.SizeMismatch where checking.update {
            // A golden sheet of another size is replaced as one that differs.
            try replaceGolden()
            Console.output("updated \(golden) (\(error.message))")
            publish(.updated, "updated \(golden) (\(error.message))")
            return
        } catch let error as WallError {
            throw cannotCompare(error.message)
        }
        guard !comparison.matches else {
            // A golden manifest asked for and not there yet is made, the sheet matching.
            if checking.update, let checkManifest = checking.checkManifest,
                !FileManager.default.fileExists(atPath: checkManifest)
            {
                try ManifestWriter.write(try Wall.readManifest(manifestPath), to: checkManifest)
                Console.output("created \(checkManifest)")
            }
            publish(.passed, "", comparison)
            return
        }
        if checking.update {
            try replaceGolden()
            Console.output("updated \(golden)")
            publish(.updated, "", comparison)
            return
        }
        publish(.changed, "", comparison)
        throw ExitStatus.differ
    }
}
