import ArgumentParser
import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallFiles
import WallPages
import WallParts
import WallReview

extension ImageWallCommand {
    /// `imagewall assemble`: join part files into the sheet.
    public struct Assemble: ParsableCommand {
        /// The command's abstract and its discussion, with examples.
        public static let configuration = CommandConfiguration(
            commandName: "assemble",
            abstract: "Join the part files of a sheet into its PNG, the same bytes as one render.",
            discussion: """
                A sheet too big for one machine is rendered in parts by any batch engine (GNU \
                parallel, a Slurm array job, a Kubernetes Indexed Job): every worker runs \
                `imagewall render --from-manifest wall.json --part K/N -o part-K`, and assemble \
                joins the parts, in any order, into the PNG (or the pages, named as render names \
                them) that `imagewall render --from-manifest wall.json` writes in one process, to \
                the byte. Nothing is decoded or compressed again, and memory stays small however \
                tall the sheet.

                Parts of another manifest or another ImageWall, a part missing or given twice, a \
                truncated or damaged part: an error naming the part, exit status 1, and nothing \
                written.

                With -o OUT.dzi the pages become Deep Zoom pyramids instead, the same files as \
                render -o OUT.dzi writes: the full-resolution tiles that parts rendered with \
                --format dzi made are put in place, and the rest (tiles straddling two parts, every \
                lower level) made from the parts' rows, decoded as they stream.

                EXAMPLES:
                  imagewall layout Photos --json > wall.json
                  parallel -j2 imagewall render --from-manifest wall.json --part {}/6 -o part-{} ::: 1 2 3 4 5 6
                  imagewall assemble part-* -o sheet.png
                  parallel imagewall render --from-manifest wall.json --part {}/6 --format dzi -o part-{} ::: 1 2 3 4 5 6
                  imagewall assemble part-* -o wall.dzi --manifest wall.json --html wall.html
                """)

        @Argument(help: ArgumentHelp("Every part file of the sheet, in any order.", valueName: "PART"))
        var parts: [String] = []

        @Option(
            name: [.short, .customLong("output")],
            help: ArgumentHelp(
                "The PNG to write; a sheet of several pages is named as render names it ({page}, or -001, -002, …).",
                valueName: "OUT.png"))
        var output: String

        @Option(
            help: ArgumentHelp(
                "For -o OUT.dzi: the Deep Zoom pyramid's tiles, png (lossless) or jpeg (smaller; opaque sheets).",
                valueName: "png|jpeg"))
        var tileFormat: DeepZoomTileFormat = libraryDefaults.deepZoomTiles

        @Option(help: ArgumentHelp("The manifest the parts were rendered from, for --html.", valueName: "M.json"))
        var manifest: String?

        @Option(
            help: ArgumentHelp(
                "Also write an HTML page of the sheet (a zoomable viewer for a Deep Zoom wall), each image linking to its source; needs --manifest.",
                valueName: "file.html"))
        var html: String?

        @Option(help: "Threads making a Deep Zoom pyramid's tiles (default: every core).")
        var threads: Int?

        @Flag(name: [.short, .long], help: "Print nothing but errors.")
        var quiet = false

        /// A command with every option at its default, as ArgumentParser makes it.
        public init() {}

        /// Refuses options that cannot work together, before anything is read.
        public func validate() throws {
            if parts.isEmpty { throw ValidationError("no part files: give every part of the sheet") }
            if html != nil && manifest == nil { throw ValidationError("--html needs --manifest M.json for the links") }
            if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
            let format: PageFormat
            do {
                format = try PageFormat(path: output)
            } catch {
                throw ValidationError(error.message)
            }
            guard format.isLossless else {
                throw ValidationError(
                    "\(output): parts assemble into PNG or Deep Zoom pages, the bytes one render writes; a \(format.name) sheet is rendered in one process (or made from the assembled PNG)"
                )
            }
        }

        /// Runs the command; failures end in an exit code, never a crash.
        public func run() throws {
            ProcessSetup.catchInterrupts()
            let started = ProgressDisplay.now()
            do {
                OutputFolders.removeLeftovers(besides: [output] + [html].compactMap { $0 }) { diagnostic in
                    if !quiet { Console.error(diagnostic.description) }
                }
                let threads = self.threads ?? RunLimits.everyCore
                var recorded: Manifest?
                if let manifest {
                    let (read, identity) = try Wall.readManifestAndIdentity(manifest, threads: threads)
                    guard try Wall.partHeader(parts[0]).manifest == identity else {
                        Console.error("error: \(manifest): not the manifest \(parts[0]) was rendered from")
                        throw ExitStatus.failure
                    }
                    recorded = read
                }
                // The page is staged with the pages it shows: all are put in place, or none.
                let warnings = Locked<[String]>([])
                var page: Wall.AssemblyAlongside?
                if let html, let recorded {
                    page = { files, written in
                        var shown = recorded
                        for (page, file) in files.enumerated() where shown.pages.indices.contains(page) {
                            shown.pages[page].file = file
                        }
                        let (outputs, said) = try GalleryPage.stage(
                            variants: [shown], to: html, threads: threads, written: written)
                        warnings.withLock { $0 += said }
                        return outputs
                    }
                }
                let written = try Wall.assemble(
                    parts: parts, to: output, tiles: tileFormat, threads: threads,
                    hooks: RunHooks(isCancelled: { ProcessSetup.isInterrupted }), alongside: page)
                for warning in warnings.withLock({ $0 }) { Console.error("warning: \(warning)") }
                if !quiet {
                    let seconds = String(format: "%.1f s", ProgressDisplay.now() - started)
                    Console.error("\(parts.count) parts: \(written.joined(separator: ", ")) in \(seconds)")
                }
            } catch let error as WallError {
                Console.error("error: \(error.message)")
                if case WallRunError.cancelled = error { throw ExitStatus.interrupted }
                throw ExitStatus.failure
            }
        }
    }
}
