import ArgumentParser
import Foundation
import ImageWall
import WallCodecs
import WallCore

extension ImageWallCommand {
    /// `imagewall diff`: compare two sheets for visual regressions.
    public struct Diff: ParsableCommand {
        public static let configuration = CommandConfiguration(
            abstract: "Compare two sheets pixel by pixel.",
            discussion: """
                Prints how many pixels differ (some channel by more than --tolerance), their \\
                share, and the largest channel difference. With -o, writes a picture of the \\
                changes: changed pixels red over a faded copy of A. With --manifest A.json \\
                B.json, also names the tiles that moved, changed, appeared or disappeared.

                EXIT STATUS:
                  0   the sheets match within the tolerance and --max-diff-pixels
                  1   they differ
                  2   they cannot be compared (unreadable, or different sizes)

                EXAMPLES:
                  imagewall diff expected.png actual.png
                  imagewall diff expected.png actual.png --tolerance 2 --max-diff-pixels 0.1% -o changes.png
                  imagewall diff a.png b.png --manifest a.json b.json
                """)

        @Argument(help: "The expected sheet.")
        var a: String

        @Argument(help: "The sheet to check.")
        var b: String

        @Option(help: ArgumentHelp("Channel differences up to this count as equal.", valueName: "0-255"))
        var tolerance = 0

        @Option(help: ArgumentHelp("Changed pixels allowed: a count, or a share like 0.5%.", valueName: "n|p%"))
        var maxDiffPixels = "0"

        @Option(
            name: [.short, .customLong("output")],
            help: ArgumentHelp("Write the picture of the changes here.", valueName: "diff.png"))
        var output: String?

        @Option(
            parsing: .upToNextOption,
            help: ArgumentHelp("The manifests of A and B, to name the tiles that differ.", valueName: "A.json B.json"))
        var manifest: [String] = []

        public init() {}

        public func validate() throws {
            if !(0...255).contains(tolerance) { throw ValidationError("--tolerance must be 0 to 255") }
            if allowance(pixels: 1) == nil {
                throw ValidationError("--max-diff-pixels must be a count or a percentage like 0.5%")
            }
            if !manifest.isEmpty && manifest.count != 2 {
                throw ValidationError("--manifest takes two files: A.json B.json")
            }
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

        public func run() throws {
            do {
                let first = try SheetDiff.load(a), second = try SheetDiff.load(b)
                let (result, mask, picture) = try SheetDiff.compare(first, second, tolerance: tolerance)
                if let output { try PNGEncoder.write(picture, to: output) }
                let share = String(format: "%.4f%%", result.changedFraction * 100)
                Console.output(
                    "\(result.changedPixels) of \(result.size.width * result.size.height) pixels differ (\(share)), largest channel difference \(result.maxDelta)"
                )
                if manifest.count == 2 {
                    let decoder = JSONDecoder()
                    let ma = try decoder.decode(
                        Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: manifest[0])))
                    let mb = try decoder.decode(
                        Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: manifest[1])))
                    let changes = SheetDiff.compare(ma, mb, mask: mask, width: result.size.width)
                    for (label, sources) in [
                        ("moved", changes.moved), ("changed", changes.changed), ("appeared", changes.appeared),
                        ("disappeared", changes.disappeared),
                    ] {
                        for source in sources { Console.output("\(label): \(source)") }
                    }
                }
                let allowed = allowance(pixels: result.size.width * result.size.height) ?? 0
                if result.changedPixels > allowed { throw ExitCode(1) }
            } catch let error as ExitCode {
                throw error
            } catch let error as WallError {
                Console.error("error: \(error.message)")
                throw ExitCode(2)
            } catch {
                Console.error("error: \(error)")
                throw ExitCode(2)
            }
        }
    }
}
