import ArgumentParser
import ImageWall
import WallCore
import WallLayout

#if canImport(Glibc)
    import Glibc
#endif

extension ImageWallCommand {
    /// `imagewall render`: the contact sheet.
    public struct Render: ParsableCommand {
        public static let configuration = CommandConfiguration(
            abstract: "Render images and folders to a PNG contact sheet.",
            discussion: """
                Inputs are image files or folders; a folder means its JPEG and PNG files, \
                sorted by name (the format is read from the file's first bytes, not its \
                extension). Each image keeps its aspect ratio and goes, in order, to the column \
                whose bottom is highest (leftmost on ties). Photos are shown upright by their \
                EXIF orientation.

                Unreadable inputs are reported on stderr with the file and the reason. With \
                --on-error skip (the default) they are listed under "skipped" in the manifest \
                and the rest is rendered; a file that is damaged but partly readable is drawn \
                as far as it decodes and its warning recorded. With --on-error fail the first \
                problem stops the run with exit status 1 before any file is written.

                The sheet is written to a temporary file beside OUT and renamed into place when \
                complete, so OUT is never half-written.

                EXAMPLES:
                  imagewall render SampleImages -o out/sheet.png
                  imagewall render a.jpg b.png Photos -o sheet.png --width 1200 --columns 3
                  imagewall render Photos -o sheet.png --gap 0 --background transparent
                  imagewall render Photos -o sheet.png --column-gap 16 --row-gap 8 --padding 32 \\
                      --background '#202020' --manifest sheet.json --on-error fail
                """)

        @Argument(help: "Image files and folders of images.")
        var inputs: [String] = []

        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The PNG file to write.", valueName: "OUT.png"))
        var output: String

        @Option(help: "Sheet width in pixels, padding included.")
        var width = 2000

        @Option(help: "Number of columns.")
        var columns = 4

        @Option(help: "Space between tiles, both ways, in pixels.")
        var gap = 10

        @Option(help: ArgumentHelp("Space between columns (default: --gap).", valueName: "px"))
        var columnGap: Int?

        @Option(help: ArgumentHelp("Space between tiles in a column (default: --gap).", valueName: "px"))
        var rowGap: Int?

        @Option(help: ArgumentHelp("Margin around the wall (default: --gap).", valueName: "px"))
        var padding: Int?

        @Option(help: ArgumentHelp(
            "Sheet colour: #rrggbb, #rgb, #rrggbbaa, a name (white, black, gray, charcoal, …) or transparent for an RGBA sheet.",
            valueName: "color"))
        var background: RGBAColor = .white

        @Option(help: ArgumentHelp("Also write the JSON manifest of the layout here.", valueName: "file.json"))
        var manifest: String?

        @Option(help: ArgumentHelp("What to do with unreadable inputs: skip (report and go on) or fail.", valueName: "policy"))
        var onError: ErrorPolicy = .skip

        @Option(help: ArgumentHelp("Threads decoding at once (default: the number of cores).", valueName: "n"))
        var threads: Int?

        @Option(help: ArgumentHelp("zlib compression level of the sheet, 0 (fastest) to 9 (smallest).", valueName: "0-9"))
        var compression = 6

        @Option(help: ArgumentHelp("Refuse inputs with more pixels than this, from their header.", valueName: "n"))
        var maxImagePixels = 16384 * 16384

        public init() {}

        public func validate() throws {
            if inputs.isEmpty { throw ValidationError("no input images: give image files or folders") }
            if width < 1 { throw ValidationError("--width must be at least 1 (got \(width))") }
            if width > 1_000_000 { throw ValidationError("--width must be at most 1000000 (got \(width))") }
            if columns < 1 { throw ValidationError("--columns must be at least 1 (got \(columns))") }
            for (name, value) in [("--gap", gap), ("--column-gap", columnGap ?? 0), ("--row-gap", rowGap ?? 0), ("--padding", padding ?? 0)]
            where value < 0 {
                throw ValidationError("\(name) cannot be negative (got \(value))")
            }
            if let threads, threads < 1 { throw ValidationError("--threads must be at least 1 (got \(threads))") }
            if !(0...9).contains(compression) { throw ValidationError("--compression must be 0 to 9 (got \(compression))") }
            if maxImagePixels < 1 { throw ValidationError("--max-image-pixels must be at least 1") }
            do {
                try layout.validate()
            } catch {
                throw ValidationError(error.message)
            }
        }

        var layout: MasonryLayout {
            MasonryLayout(
                width: width, columns: columns, columnGap: columnGap ?? gap, rowGap: rowGap ?? gap,
                padding: Insets(all: padding ?? gap))
        }

        /// The options this command line asks for.
        public var options: WallOptions {
            var options = WallOptions(layout: layout)
            options.background = background
            options.onError = onError
            options.threads = threads ?? max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
            options.compressionLevel = compression
            options.maxImagePixels = maxImagePixels
            return options
        }

        public func run() throws {
            do {
                let result = try Wall(inputs: inputs).render(
                    to: output, manifest: manifest, options: options,
                    diagnostics: { Console.error($0.description) })
                let skipped = result.skipped.isEmpty ? "" : ", \(result.skipped.count) skipped"
                Console.error("\(output): \(result.width)x\(result.height), \(result.tiles.count) images\(skipped)")
            } catch let error as WallError {
                Console.error("error: \(error.message)")
                throw ExitStatus.failure
            }
        }
    }
}
