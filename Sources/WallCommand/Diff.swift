import ArgumentParser
import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallFiles
import WallParts
import WallReview

extension ImageWallCommand {
    /// `imagewall diff`: compare two sheets for visual regressions.
    public struct Diff: ParsableCommand {
        /// The command's abstract and its discussion, with examples.
        public static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Compare two sheets pixel by pixel.",
            discussion: """
                Prints how many pixels differ (some channel by more than --tolerance), their \
                share, and the largest channel difference. With -o, writes a picture of the \
                changes: changed pixels red over a faded copy of A. With --manifest A.json \
                B.json, also names the tiles that moved, changed, appeared or disappeared.

                EXIT STATUS:
                  0   the sheets match within the tolerance and --max-diff-pixels
                  1   they differ
                  2   they cannot be compared (unreadable, or different sizes)

                EXAMPLES:
                  imagewall diff expected.png actual.png
                  imagewall diff expected.png actual.png --tolerance 2 --max-diff-pixels 0.1% -o changes.png
                  imagewall diff a.png b.png --manifest a.json b.json --ignore 'clock*' --report diff.html
                  imagewall diff a.png b.png --threshold 0.1 --ignore-antialiasing
                  imagewall diff golden.png new.png --manifest golden.json new.json --json result.json --junit result.xml
                """)

        @Argument(help: "The expected sheet.")
        var a: String

        @Argument(help: "The sheet to check.")
        var b: String

        @OptionGroup(title: "Comparison")
        var compare: CompareOptions

        @Option(
            name: [.short, .customLong("output")],
            help: ArgumentHelp("Write the picture of the changes here.", valueName: "diff.png"))
        var output: String?

        @Option(
            parsing: .upToNextOption,
            help: ArgumentHelp("The manifests of A and B, to name the tiles that differ.", valueName: "A.json B.json"))
        var manifest: [String] = []

        /// A command with every option at its default, as ArgumentParser makes it.
        public init() {}

        /// Refuses options that cannot work together, before anything is read.
        public func validate() throws {
            if !manifest.isEmpty && manifest.count != 2 {
                throw ValidationError("--manifest takes two files: A.json B.json")
            }
            if !compare.ignore.isEmpty && manifest.isEmpty {
                throw ValidationError("--ignore names tiles: give the manifests with --manifest A.json B.json")
            }
        }

        /// Runs the command; failures end in an exit code, never a crash.
        public func run() throws {
            let started = Date()
            func failed(_ message: String) {
                compare.publish(
                    FixtureResult(
                        name: b, status: .error, expected: a, actual: b, message: message,
                        seconds: Date().timeIntervalSince(started)))
            }
            do {
                try OutputFolders.check([output].compactMap { $0 } + compare.outputs)
                let comparison = try compare.compare(
                    a, b, manifests: manifest.count == 2 ? (manifest[0], manifest[1]) : nil, drawing: output != nil)
                compare.publish(FixtureResult(comparison, name: b, seconds: Date().timeIntervalSince(started)))
                if let output {
                    // Written as a sheet is by default: quick, near libpng's size.
                    let sheet = RenderSettings()
                    try PNGEncoder.write(
                        comparison.picture, to: output, compression: sheet.compression, filter: sheet.pngFilter)
                }
                if !comparison.matches { throw ExitStatus.differ }
            } catch let error as ExitCode {
                throw error
            } catch let error as WallError {
                Console.error("error: \(error.message)")
                failed(error.message)
                throw ExitStatus.cannotCompare
            } catch {
                Console.error("error: \(error)")
                failed("\(error)")
                throw ExitStatus.cannotCompare
            }
        }
    }
}
