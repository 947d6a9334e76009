import ArgumentParser
import CProcessShim
import Foundation
import ImageWall
import WallCodecs
import WallCore

extension ImageWallCommand {
    /// `imagewall assemble`: join part files into the sheet.
    public struct Assemble: ParsableCommand {
        public static let configuration = CommandConfiguration(
            abstract: "Join the part files of a sheet into its PNG, the same bytes as one render.",
            discussion: """
                A sheet too big for one machine is rendered in parts by any batch engine (GNU \\
                parallel, a Slurm array job, a Kubernetes Indexed Job): every worker runs \\
                `imagewall render --from-manifest wall.json --part K/N -o part-K`, and assemble \\
                joins the parts, in any order, into the PNG (or the pages, named as render names \\
                them) that `imagewall render --from-manifest wall.json` writes in one process, to \\
                the byte. Nothing is decoded or compressed again, and memory stays small however \\
                tall the sheet.

                Parts of another manifest or another ImageWall, a part missing or given twice, a \\
                truncated or damaged part: an error naming the part, exit status 1, and nothing \\
                written.

                EXAMPLES:
                  imagewall layout Photos --json > wall.json
                  parallel -j2 imagewall render --from-manifest wall.json --part {}/6 -o part-{} ::: 1 2 3 4 5 6
                  imagewall assemble part-* -o sheet.png
                """)

        @Argument(help: ArgumentHelp("Every part file of the sheet, in any order.", valueName: "PART"))
        var parts: [String] = []

        @Option(
            name: [.short, .customLong("output")],
            help: ArgumentHelp(
                "The PNG to write; a sheet of several pages is named as render names it ({page}, or -001, -002, …).",
                valueName: "OUT.png"))
        var output: String

        @Flag(name: [.short, .long], help: "Print nothing but errors.")
        var quiet = false

        public init() {}

        public func validate() throws {
            if parts.isEmpty { throw ValidationError("no part files: give every part of the sheet") }
        }

        public func run() throws {
            iw_install_interrupt_handlers()
            let started = ProgressDisplay.now()
            do {
                let written = try Wall.assemble(
                    parts: parts, to: output, hooks: RunHooks(isCancelled: { iw_interrupted() != 0 }))
                if !quiet {
                    let seconds = String(format: "%.1f s", ProgressDisplay.now() - started)
                    Console.error("\(parts.count) parts: \(written.joined(separator: ", ")) in \(seconds)")
                }
            } catch let error as WallError {
                Console.error("error: \(error.message)")
                if case WallRunError.cancelled = error { throw ExitCode(130) }
                throw ExitStatus.failure
            }
        }
    }
}
