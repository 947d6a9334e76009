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
        let folder: String
        do {
            folder = try PrivateFolder(temporaryNamed: "imagewall-check").path
        } catch {
            Console.error("error: cannot make a temporary folder: \(error.reason)")
            throw ExitStatus.cannotCompare
        }
        defer { PrivateFolder.removeTree(folder) }
        // Whatever cannot be read or written is said before the render, never after "differ".
        do {
            try OutputFolders.check([output.output, output.manifest, checking.comparing.report].compactMap { $0 })
        } catch {
            Console.error("error: \(error.message)")
            throw ExitStatus.cannotCompare
        }
        if let checkManifest = checking.checkManifest, !checking.update,
            !FileManager.default.fileExists(atPath: checkManifest)
        {
            Console.error("error: \(checkManifest) does not exist: run with --update to create it")
            throw ExitStatus.cannotCompare
        }
        let sheet = output.output ?? folder + "/sheet.png", manifestPath = output.manifest ?? folder + "/sheet.json"
        do {
            let result = try Wall(inputs: try input.allInputs()).render(
                to: sheet, manifest: manifestPath, options: options, hooks: hooks)
            guard result.pages.count == 1 else {
                Console.error(
                    "error: --check compares single-page sheets; this one has \(result.pages.count) pages")
                throw ExitStatus.cannotCompare
            }
        } catch let error as WallError {
            Console.error("error: \(error.message)")
            if case WallRunError.cancelled = error { throw ExitStatus.interrupted }
            throw ExitStatus.cannotCompare
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
                Console.error("error: \(golden) does not exist: run with --update to create it")
                throw ExitStatus.cannotCompare
            }
            try replaceGolden()
            Console.output("created \(golden)")
            return
        }
        let comparison: SheetComparison
        do {
            let manifests = checking.checkManifest.flatMap {
                FileManager.default.fileExists(atPath: $0) ? ($0, manifestPath) : nil
            }
            comparison = try checking.comparing.compare(
                golden, sheet, manifests: manifests, actualName: output.output ?? "this render")
        } catch let error as SheetDiff.SizeMismatch where checking.update {
            // A golden sheet of another size is replaced as one that differs.
            try replaceGolden()
            Console.output("updated \(golden) (\(error.message))")
            return
        } catch let error as WallError {
            Console.error("error: \(error.message)")
            throw ExitStatus.cannotCompare
        }
        guard !comparison.matches else {
            // A golden manifest asked for and not there yet is made, the sheet matching.
            if checking.update, let checkManifest = checking.checkManifest,
                !FileManager.default.fileExists(atPath: checkManifest)
            {
                try ManifestWriter.write(try Wall.readManifest(manifestPath), to: checkManifest)
                Console.output("created \(checkManifest)")
            }
            return
        }
        if checking.update {
            try replaceGolden()
            Console.output("updated \(golden)")
            return
        }
        throw ExitStatus.differ
    }

    /// Copies `source` over `destination` through a temporary file beside it.
    func copyAtomically(_ source: String, to destination: String) throws {
        guard let bytes = FileManager.default.contents(atPath: source) else {
            throw ValidationError("cannot read \(source)")
        }
        let file = try AtomicFile(destination: destination)
        guard bytes.withUnsafeBytes({ fwrite($0.baseAddress, 1, $0.count, file.handle) }) == bytes.count else {
            throw ValidationError("cannot write \(destination)")
        }
        try file.commit()
    }
}
