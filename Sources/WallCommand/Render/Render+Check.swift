import ArgumentParser
import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallFiles
import WallReview

extension ImageWallCommand.Render {
    /// `--check`: renders into a private folder, compares with the golden sheet (and its
    /// manifest), and with `--update` puts the new render in its place when they differ.
    /// Exits 0 (match, or updated), 1 (differ) or 2 (cannot compare, or the render failed).
    func runCheck(golden: String, options: WallOptions, hooks: RunHooks) throws {
        let started = Date()
        let comparing = checking.comparing
        let actualName = output.output ?? FixtureResult.thisRender
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
        let check = comparing.goldenCheck(update: checking.update, drawing: comparing.report != nil)
        var (result, comparison) = check.settle(
            golden, golden: golden, goldenManifest: checking.checkManifest, sheet: sheet, manifest: manifestPath,
            started: started)
        result.actual = actualName
        switch result.status {
        case .new, .error:
            Console.error("error: \(result.message)")
            comparing.publish(result)
            throw ExitStatus.cannotCompare
        default: break
        }
        if var comparison {
            comparison.actual = actualName
            for line in comparison.lines() { Console.output(line) }
            if let report = comparing.report, !comparison.matches {
                do {
                    try comparison.writeReport(to: report)
                } catch {
                    Console.error("error: the report was not written: \(error.reason)")
                }
            }
        } else if result.status == .passed {
            Console.output(result.message)
        }
        if result.status == .updated {
            Console.output(comparison == nil ? result.message : "updated \(golden)")
        }
        comparing.publish(result)
        if result.status == .changed { throw ExitStatus.differ }
    }
}
