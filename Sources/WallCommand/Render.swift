import ArgumentParser
import CProcessShim
import Foundation
import ImageWall
import WallCodecs
import WallCompositor
import WallCore
import WallLayout
import WallParts
import WallReview

#if canImport(Glibc)
    import Glibc
#endif

/// The library's defaults: every option below starts from them, and its help shows them.
private let defaults = WallOptions()

/// The default aspect limit as a ratio, e.g. "3:1".
private let defaultAspectLimit =
    defaults.layout.maxAspect.map { limit in
        "\(Int(exactly: limit).map(String.init) ?? String(limit)):1"
    } ?? "none"

extension ImageWallCommand {
    /// `imagewall render`: the contact sheet.
    public struct Render: ParsableCommand {
        /// The command's abstract and its discussion, with examples.
        public static let configuration = CommandConfiguration(
            abstract: "Render images and folders to a PNG contact sheet.",
            discussion: """
                Inputs are image files or folders; a folder means its images (\(ImageFormat.names)), \
                sorted by name (the format is read from the file's first bytes, not its \
                extension). Images of other formats (BMP, RAW, SVG and others) are reported as \
                unsupported; other files are counted ("3 other files ignored") and listed with \
                --verbose. Photos are shown upright by their orientation (EXIF, the TIFF tag, or \
                HEIF's own transformations). Images taller or wider than --max-aspect (\(defaultAspectLimit)) are \
                cropped to it, so long screenshots and panoramas stay ordinary tiles. A damaged \
                image is drawn as far as it decodes, with a warning; a decoder's notes that change \
                no pixel (libpng recognising an edited sRGB profile) are kept in the manifest's \
                "notes" and printed only with --verbose.

                Layouts: \(LayoutKind.described).

                Unreadable inputs are reported on stderr with the file and the reason. With \
                --on-error skip (the default) they are listed under "skipped" in the manifest \
                and the rest is rendered; a file that is damaged but partly readable is drawn \
                as far as it decodes and its warning recorded. With --on-error fail the first \
                problem stops the run with exit status 1 before any file is written.

                With --max-height or --max-pixels the wall continues on new pages, never cutting \
                an image: OUT's {page} becomes 001, 002, …, or without it pages are named \
                OUT-001.png, OUT-002.png, … Each page is written to a temporary file beside it and \
                all are renamed into place when every page is complete, so no output is ever \
                half-written.

                With -o OUT.dzi (or --format dzi) each page is written as a Deep Zoom pyramid, as \
                libvips' dzsave lays it out (OUT.dzi and OUT_files/LEVEL/COL_ROW.png, 254 px tiles \
                with 1 px overlap), band by band in bounded memory, for walls too big to look at as \
                one PNG; its top level holds exactly the sheet's pixels (--tile-format jpeg for a \
                smaller pyramid), each level below the one above halved. --html then writes a \
                zoomable viewer whose images link to their sources.

                Decoded images, finished tiles and compressed bands are kept in a cache \
                (~/.cache/imagewall, or --cache DIR; --no-cache for none; --cache-size caps it, \
                \(CacheSettings.defaultSizeLimit >> 20) MB by default), found by each file's content, so drawing a folder again \
                costs little, and the sheet is the same to the byte with the cache cold, warm or \
                off. A cache that cannot be written is a warning; the render goes on.

                EXAMPLES:
                  imagewall render SampleImages -o out/sheet.png
                  imagewall render a.jpg b.png Photos -o sheet.png --width 1200 --columns 3
                  imagewall render Photos -o sheet.png --gap 0 --background transparent
                  imagewall render Photos -o sheet.png --layout justified --row-height 240 --last-row center
                  imagewall render ~/Phone/DCIM -r -o phone.png --max-aspect 2.5 --sort date
                  imagewall render Photos -o sheet.png --layout grid --columns 4 --cell-aspect 4:3 --fit contain
                  imagewall render Photos -o sheet.png --layout mosaic --columns 3 --hero 0 --direction rtl
                  imagewall render Photos Holidays -o sheet.png --group-by folder --column-width 300
                  imagewall render Photos -o sheet.png --caption '{stem} · {width}x{height}' --title 'Holidays 2026'
                  imagewall render Photos -o 'pages/sheet-{page}.png' --max-height 4000 --corner-radius 12
                  imagewall render -r Camera -o preview.png --fast --threads 1 --compression rle
                  imagewall render Photos -o sheet.png --cache /var/cache/walls --cache-size 4096
                  imagewall render --from-manifest wall.json --part 3/8 --root /data/photos -o part-3
                  imagewall render Archive -o wall.dzi --html wall.html --tile-format jpeg
                  imagewall render fixtures/images --check fixtures/sheet.png --check-manifest fixtures/sheet.json \\
                      --threshold 0.1 --report diff.html
                  imagewall render Photos -o sheet.png --column-gap 16 --row-gap 8 --padding 32 \\
                      --background '#202020' --manifest sheet.json --on-error fail
                """)

        @OptionGroup(title: "Inputs")
        var input: InputOptions

        @Option(
            name: [.short, .customLong("output")],
            help: ArgumentHelp(
                "The PNG file to write; {page}, {columns}, {width} and {layout} are replaced per page and variant.",
                valueName: "OUT.png"))
        var output: String?

        @Option(
            help: ArgumentHelp(
                "Render exactly the layout this manifest records again (tiles, rectangles, crops, options), from its sources as they are now; pages go to -o or to the recorded files.",
                valueName: "M.json"))
        var fromManifest: String?

        @Option(
            help: ArgumentHelp(
                "Render to a temporary file and compare it with this golden sheet, as imagewall diff does: exit 0 when they match, 1 when they differ, 2 when they cannot be compared.",
                valueName: "golden.png"))
        var check: String?

        @Option(
            help: ArgumentHelp(
                "With --check: the golden sheet's manifest, to name the tiles that differ (and for --ignore); --update rewrites it too.",
                valueName: "golden.json"))
        var checkManifest: String?

        @Flag(
            help:
                "With --check: replace the golden sheet (and manifest) with the new render when they differ, or create it."
        )
        var update = false

        @OptionGroup(title: "Checking against a golden sheet (--check)")
        var comparing: CompareOptions

        @Option(
            help: ArgumentHelp(
                "With --from-manifest: render only part K of N of the sheet (a run of its bands) to -o as a part file, for imagewall assemble; with --format dzi the part also makes the Deep Zoom pyramid's full-resolution tiles its rows hold.",
                valueName: "K/N"))
        var part: SheetPart?

        @Option(
            help: ArgumentHelp(
                "With --from-manifest: find each source under this folder by its path under its input (sub/a.jpg of Photos), wherever the inputs were.",
                valueName: "DIR"))
        var root: String?

        @Option(
            help: ArgumentHelp(
                "Also write a small HTML page showing the sheet at the window's width, each tile linking to its source.",
                valueName: "file.html"))
        var html: String?

        @Flag(name: [.short, .long], help: "Print nothing but errors.")
        var quiet = false

        @Flag(
            name: [.short, .long],
            help:
                "Also print every page written, files ignored as not images, and decoders' notes that change no pixel.")
        var verbose = false

        @Flag(help: "Print the time each stage took (probe, layout, decode, resample, cells, encode) at the end.")
        var profile = false

        @Option(
            help: ArgumentHelp(
                "Progress on stderr: auto (a bar on a terminal), json (one object a line), none.", valueName: "style"))
        var progress: ProgressStyle = .auto

        @OptionGroup(title: "Layout")
        var layout: LayoutOptions

        @Option(
            help: ArgumentHelp(
                "Sheet colour: #rrggbb, #rgb, #rrggbbaa, a name (white, black, gray, charcoal, …) or transparent for an RGBA sheet.",
                valueName: "color"))
        var background: RGBAColor = defaults.background

        @Option(help: ArgumentHelp("Also write the JSON manifest of the layout here.", valueName: "file.json"))
        var manifest: String?

        @Option(
            help: ArgumentHelp(
                "Caption under each image, from fields {name} {stem} {path} {index} {width} {height} {format} {date}.",
                valueName: "template"))
        var caption: String?

        @Option(help: ArgumentHelp("A title across the top of the first page.", valueName: "text"))
        var title: String?

        @Option(
            help: ArgumentHelp(
                "Font for captions, title and headers: a file or a name like \"DejaVu Serif\".", valueName: "path|name")
        )
        var font: String?

        @Option(
            help: ArgumentHelp(
                "Caption text size (default: from --caption-height, or \(RenderSettings.defaultFontSize)).",
                valueName: "px"))
        var fontSize: Int?

        @Option(
            help: ArgumentHelp(
                "Colour of captions, title and headers (default: contrasting with the background).", valueName: "color")
        )
        var captionColor: RGBAColor?

        @Option(help: ArgumentHelp("Round each image's corners (anti-aliased).", valueName: "px"))
        var cornerRadius = defaults.rendering.style.cornerRadius

        @Option(help: ArgumentHelp("A border just inside each image's edge.", valueName: "px"))
        var border = defaults.rendering.style.border

        @Option(help: ArgumentHelp("Colour of the border.", valueName: "color"))
        var borderColor: RGBAColor = defaults.rendering.style.borderColor

        @Flag(help: "Resample in linear light (gamma-correct) instead of on sRGB values.")
        var linear = false

        @Option(help: ArgumentHelp("Refuse a page bigger than this many pixels unless it is split.", valueName: "n"))
        var maxSheetPixels = defaults.maxSheetPixels

        @Option(
            help: ArgumentHelp(
                "What to do with unreadable inputs: skip (report and go on) or fail.", valueName: "policy"))
        var onError: ErrorPolicy = defaults.onError

        @Flag(help: "Treat damaged but partly readable files (truncated, bad checksums) as errors, not warnings.")
        var strict = false

        @Option(
            help: ArgumentHelp(
                "Threads working at once, decoding and encoding (default: the number of cores); 1 keeps the render on one core.",
                valueName: "n"))
        var threads: Int?

        @Option(
            help: ArgumentHelp(
                "How the sheet is deflated: rle (zlib's run-length strategy: fast, near libpng's default size) or an LZ77 level 0 (stored) to 9 (smallest); 6 with --png-filter adaptive is libpng's default.",
                valueName: "rle|0-9"))
        var compression: PNGCompression = defaults.rendering.compression

        @Option(
            help: ArgumentHelp(
                "What to write: png (one PNG a page), or dzi (a Deep Zoom pyramid a page: OUT.dzi and OUT_files/LEVEL/COL_ROW.png, for zoomable viewers). Default: dzi when OUT ends in .dzi.",
                valueName: "png|dzi"))
        var format: PageFormat?

        @Option(
            help: ArgumentHelp(
                "The Deep Zoom pyramid's tiles: png (lossless, exactly the sheet's pixels) or jpeg (smaller; opaque backgrounds only).",
                valueName: "png|jpeg"))
        var tileFormat: DeepZoomTileFormat = defaults.deepZoomTiles

        @Option(
            help: ArgumentHelp(
                "PNG row filter: adaptive (libpng's default), none, sub, up, average, paeth.", valueName: "filter"))
        var pngFilter: PNGFilter = defaults.rendering.pngFilter

        @Option(help: ArgumentHelp("Refuse inputs with more pixels than this, from their header.", valueName: "n"))
        var maxImagePixels = defaults.maxImagePixels

        @Flag(
            help:
                "Faster, slightly softer: decode images to their tile size rather than twice it, and read progressive JPEGs shrunk to 1/8 only to their first DC scan."
        )
        var fast = false

        @Option(
            help: ArgumentHelp(
                "Megabytes the images decoded at once may hold; an image needing more (a huge progressive JPEG) is decoded alone.",
                valueName: "MB"))
        var decodeMemory = defaults.decodeMemory >> 20

        @Option(
            help: ArgumentHelp(
                "Keep decoded images, tiles and compressed bands here, so drawing the same files again skips that work (default: $XDG_CACHE_HOME/imagewall, else ~/.cache/imagewall).",
                valueName: "dir"))
        var cache: String?

        @Flag(help: "Render without the cache: nothing is read from it or written to it.")
        var noCache = false

        @Option(
            help: ArgumentHelp(
                "Megabytes the cache may take; the least recently used entries are deleted first.", valueName: "MB"))
        var cacheSize = CacheSettings.defaultSizeLimit >> 20

        /// A command with every option at its default, as ArgumentParser makes it.
        public init() {}

        /// Refuses options that cannot work together, before anything is read.
        public func validate() throws {
            if fromManifest != nil && (check != nil || update) {
                throw ValidationError("--check renders the inputs given: use it without --from-manifest")
            }
            if !comparing.ignore.isEmpty && checkManifest == nil {
                throw ValidationError("--ignore names tiles: give the golden manifest with --check-manifest")
            }
            if fromManifest != nil {
                if input.hasInputs {
                    throw ValidationError("--from-manifest takes its inputs from the manifest: give no input files")
                }
                if part != nil {
                    if output == nil { throw ValidationError("--part writes a part file: give -o PART") }
                    if manifest != nil || html != nil {
                        throw ValidationError(
                            "--part writes only a part file: --manifest and --html go with assemble's sheet")
                    }
                }
                return
            }
            if let output {
                do {
                    _ = try PageFormat.resolve(output: output, format: format)
                } catch {
                    throw ValidationError(error.message)
                }
            }
            if part != nil || root != nil {
                throw ValidationError("\(part != nil ? "--part" : "--root") goes with --from-manifest M.json")
            }
            if !input.hasInputs { throw ValidationError("no input images: give image files or folders") }
            if check == nil && (checkManifest != nil || update) {
                throw ValidationError("--check-manifest and --update go with --check golden.png")
            }
            if check != nil {
                if layout.variants.count > 1 { throw ValidationError("--check compares one sheet: give one variant") }
                if format == .deepZoom || pageFormat == .deepZoom {
                    throw ValidationError("--check compares PNG sheets, not Deep Zoom pyramids")
                }
                return
            }
            guard let output else { throw ValidationError("Missing expected argument '--output <OUT.png>'") }
            let variants = layout.variants
            if variants.count > 1 {
                let paths = variants.map { VariantNaming.path(output, for: $0) }
                if Set(paths).count < paths.count {
                    throw ValidationError(
                        "-o \(output) names every variant the same: add {columns} and/or {width} (e.g. sheet-{columns}x{width}.png)"
                    )
                }
                if let manifest, Set(variants.map { VariantNaming.path(manifest, for: $0) }).count < paths.count {
                    throw ValidationError(
                        "--manifest \(manifest) names every variant the same: add {columns} and/or {width}")
                }
                if let html, Set(variants.map { VariantNaming.path(html, for: $0) }).count < paths.count {
                    throw ValidationError("--html \(html) names every variant the same: add {columns} and/or {width}")
                }
            }
            if let threads, threads < 1 { throw ValidationError("--threads must be at least 1 (got \(threads))") }
            if maxImagePixels < 1 { throw ValidationError("--max-image-pixels must be at least 1") }
            if decodeMemory < 1 { throw ValidationError("--decode-memory must be at least 1 (MB)") }
            if cache != nil && noCache { throw ValidationError("--cache and --no-cache cannot be given together") }
            if cacheSize < 1 { throw ValidationError("--cache-size must be at least 1 (MB)") }
            if maxSheetPixels < 1 { throw ValidationError("--max-sheet-pixels must be at least 1") }
            if cornerRadius < 0 || border < 0 {
                throw ValidationError("--corner-radius and --border cannot be negative")
            }
            if let fontSize, fontSize < 1 { throw ValidationError("--font-size must be at least 1 (got \(fontSize))") }
            if let caption {
                do { _ = try CaptionTemplate(caption) } catch { throw ValidationError(error.message) }
            }
        }

        /// The options this command line asks for (with the first variant's layout).
        public var options: WallOptions {
            var options = WallOptions(layout: layout.configuration)
            input.apply(to: &options)
            options.grouping = layout.groupBy
            options.background = background
            options.onError = onError
            options.strict = strict
            options.threads = threads ?? max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
            options.maxImagePixels = maxImagePixels
            options.decodeMemory = decodeMemory << 20
            options.maxSheetPixels = maxSheetPixels
            options.rendering.compression = compression
            options.deepZoomTiles = tileFormat
            options.rendering.pngFilter = pngFilter
            options.rendering.fast = fast
            options.rendering.caption = caption.flatMap { try? CaptionTemplate($0) }
            options.rendering.title = title
            options.rendering.font = font
            options.rendering.fontSize = fontSize
            options.rendering.textColor = captionColor
            options.rendering.style = TileStyle(cornerRadius: cornerRadius, border: border, borderColor: borderColor)
            options.rendering.linear = linear
            if !noCache, let directory = cache ?? CacheSettings.defaultDirectory {
                options.cache = CacheSettings(directory: directory, sizeLimit: cacheSize << 20)
            }
            return options
        }

        /// Runs the command; failures end in an exit code, never a crash.
        public func run() throws {
            // Big pixel buffers (decoded photos, progressive JPEG coefficients) come and go per
            // image. glibc raises its mmap threshold after freeing such buffers and then keeps
            // them in fragmenting heap arenas; a fixed threshold returns them to the system,
            // keeping peak memory flat (about 190 MB instead of 300 MB for 1,000 wallpapers).
            _ = iw_set_mmap_threshold(4 << 20)
            iw_install_interrupt_handlers()
            let display = ProgressDisplay(style: quiet ? .none : progress)
            let options = self.options
            let stages = profile ? StageProfile() : nil
            let quiet = self.quiet
            let verbose = self.verbose
            let hooks = RunHooks(
                progress: display.isActive ? ProgressReporter { display.show($0) } : nil, profile: stages,
                isCancelled: { iw_interrupted() != 0 },
                diagnostics: { diagnostic in
                    guard !quiet else { return }
                    if case .note = diagnostic, !verbose { return }
                    display.clear()
                    Console.error(diagnostic.description)
                })
            let started = ProgressDisplay.now()
            do {
                if let fromManifest, let part, let output {
                    let header = try Wall.render(
                        part: part, ofManifestAt: fromManifest, to: output, root: root,
                        deepZoom: format == .deepZoom ? tileFormat : nil, options: options, hooks: hooks)
                    display.clear()
                    if !quiet { summarize(header, to: output, seconds: ProgressDisplay.now() - started) }
                    return
                }
                if let fromManifest {
                    let recorded = try Wall.readManifest(fromManifest)
                    let result = try Wall.render(
                        from: recorded, to: sheetOutput, manifest: manifest, root: root, recordedAt: fromManifest,
                        options: options, hooks: hooks)
                    if let html { try GalleryPage.write(result, to: html) }
                    display.clear()
                    if !quiet { summarize([result], seconds: ProgressDisplay.now() - started) }
                    return
                }
                if let check {
                    try runCheck(golden: check, options: options, hooks: hooks)
                    return
                }
                guard let output = sheetOutput else { return }
                let inputs = try input.allInputs()
                let variants = layout.variants
                let jobs = variants.map { variant -> (output: String, options: WallOptions) in
                    var job = options
                    job.layout = variant
                    return (VariantNaming.path(output, for: variant), job)
                }
                let manifests = manifest.map { path in variants.map { VariantNaming.path(path, for: $0) } }
                let results = try Wall(inputs: inputs).render(variants: jobs, manifests: manifests, hooks: hooks)
                if let html {
                    for (result, variant) in zip(results, variants) {
                        try GalleryPage.write(
                            result, to: results.count > 1 ? VariantNaming.path(html, for: variant) : html)
                    }
                }
                display.clear()
                if !quiet { summarize(results, seconds: ProgressDisplay.now() - started) }
                if let stages { report(stages) }
            } catch let error as WallError {
                display.clear()
                Console.error("error: \(error.message)")
                if case WallRunError.cancelled = error { throw ExitCode(130) }
                throw ExitStatus.failure
            } catch let error as DecodingError {
                Console.error("error: \(fromManifest ?? "manifest"): not an ImageWall manifest (\(error))")
                throw ExitStatus.failure
            }
        }

        /// `--check`: renders into a private folder, compares with the golden sheet (and its
        /// manifest), and with `--update` puts the new render in its place when they differ.
        /// Exits 0 (match, or updated), 1 (differ) or 2 (cannot compare, or the render failed).
        private func runCheck(golden: String, options: WallOptions, hooks: RunHooks) throws {
            let folder: String
            do {
                folder = try PrivateFolder(temporaryNamed: "imagewall-check").path
            } catch {
                Console.error("error: cannot make a temporary folder: \(error.reason)")
                throw ExitCode(2)
            }
            defer { PrivateFolder.removeTree(folder) }
            let sheet = output ?? folder + "/sheet.png", manifestPath = manifest ?? folder + "/sheet.json"
            do {
                let result = try Wall(inputs: try input.allInputs()).render(
                    to: sheet, manifest: manifestPath, options: options, hooks: hooks)
                guard result.pages.count == 1 else {
                    Console.error(
                        "error: --check compares single-page sheets; this one has \(result.pages.count) pages")
                    throw ExitCode(2)
                }
            } catch let error as WallError {
                Console.error("error: \(error.message)")
                if case WallRunError.cancelled = error { throw ExitCode(130) }
                throw ExitCode(2)
            }
            func replaceGolden() throws {
                let parent = (golden as NSString).deletingLastPathComponent
                if !parent.isEmpty {
                    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
                }
                try copyAtomically(sheet, to: golden)
                if let checkManifest {
                    try ManifestWriter.write(try Wall.readManifest(manifestPath), to: checkManifest)
                }
            }
            guard FileManager.default.fileExists(atPath: golden) else {
                guard update else {
                    Console.error("error: \(golden) does not exist: run with --update to create it")
                    throw ExitCode(2)
                }
                try replaceGolden()
                Console.output("created \(golden)")
                return
            }
            let comparison: SheetComparison
            do {
                let manifests = checkManifest.flatMap {
                    FileManager.default.fileExists(atPath: $0) ? ($0, manifestPath) : nil
                }
                comparison = try comparing.compare(golden, sheet, manifests: manifests)
            } catch let error as SheetDiff.SizeMismatch where update {
                // A golden sheet of another size is replaced as one that differs.
                try replaceGolden()
                Console.output("updated \(golden) (\(error.message))")
                return
            } catch let error as WallError {
                Console.error("error: \(error.message)")
                throw ExitCode(2)
            }
            guard !comparison.matches else { return }
            if update {
                try replaceGolden()
                Console.output("updated \(golden)")
                return
            }
            throw ExitCode(1)
        }

        /// Copies `source` over `destination` through a temporary file beside it.
        private func copyAtomically(_ source: String, to destination: String) throws {
            guard let bytes = FileManager.default.contents(atPath: source) else {
                throw ValidationError("cannot read \(source)")
            }
            let file = try AtomicFile(destination: destination)
            guard bytes.withUnsafeBytes({ fwrite($0.baseAddress, 1, $0.count, file.handle) }) == bytes.count else {
                throw ValidationError("cannot write \(destination)")
            }
            try file.commit()
        }

        /// The sheet's path as `--format` names it.
        var sheetOutput: String? { output.flatMap { try? PageFormat.resolve(output: $0, format: format).path } }

        /// The format of the sheet's pages.
        var pageFormat: PageFormat? { output.flatMap { try? PageFormat.resolve(output: $0, format: format).format } }

        /// The line printed after a part is rendered.
        private func summarize(_ header: PartHeader, to output: String, seconds: Double) {
            let rows = header.rows.reduce(0) { $0 + $1.to - $1.from }
            let pages = Set(header.rows.map(\.page)).count
            let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            Console.error(
                "part \(header.part)/\(header.parts): \(output), \(rows) rows of \(pages) \(pages == 1 ? "page" : "pages"), "
                    + "\(String(format: "%.1f MB", Double(size) / 1e6)) in \(String(format: "%.1f s", seconds))")
        }

        private func report(_ profile: StageProfile) {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            let cpu =
                Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
                    usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
            let totals = profile.totals
            var line = "profile:"
            for stage in StageProfile.Stage.allCases {
                let unit = stage == .probe || stage == .layout ? "s wall" : "s CPU"
                line += String(format: " %@ %.2f %@,", stage.rawValue, totals[stage] ?? 0, unit)
            }
            Console.error(line + String(format: " process %.2f s CPU, peak %d MB", cpu, usage.ru_maxrss / 1024))
        }

        /// The size of a written page: its file, and for a Deep Zoom pyramid its tiles too.
        private static func bytes(of file: String) -> Int {
            var status = stat()
            var total = stat(file, &status) == 0 ? Int(status.st_size) : 0
            if (try? PageFormat(path: file)) == .deepZoom,
                let tiles = FileManager.default.enumerator(atPath: DeepZoomGeometry.tilesFolder(of: file))
            {
                let folder = DeepZoomGeometry.tilesFolder(of: file)
                while let name = tiles.nextObject() as? String {
                    if stat(folder + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
                        total += Int(status.st_size)
                    }
                }
            }
            return total
        }

        private func summarize(_ results: [Manifest], seconds: Double) {
            var bytes = 0
            for result in results {
                for page in result.pages {
                    let file = page.file ?? ""
                    bytes += Self.bytes(of: file)
                    if verbose || results.count > 1 || result.pages.count > 1 {
                        Console.error("\(file): \(page.width)x\(page.height)")
                    }
                }
            }
            guard let first = results.first else { return }
            let pages = results.reduce(0) { $0 + $1.pages.count }
            let ignoredFiles = first.ignored ?? []
            if verbose { for path in ignoredFiles { Console.error("ignored (not an image): \(path)") } }
            let ignored =
                ignoredFiles.isEmpty
                ? "" : ", \(ignoredFiles.count) other file\(ignoredFiles.count == 1 ? "" : "s") ignored"
            let skipped = (first.skipped.isEmpty ? "" : ", \(first.skipped.count) skipped") + ignored
            let sheets = results.count > 1 ? "\(results.count) variants, " : ""
            let where_ =
                first.pages.count == 1 && results.count == 1
                ? "\(first.pages[0].file ?? "") \(first.width)x\(first.height), " : ""
            Console.error(
                "\(first.tiles.count) images\(skipped): \(where_)\(sheets)\(pages) page\(pages == 1 ? "" : "s"), "
                    + String(format: "%.1f MB in %.1f s", Double(bytes) / 1_048_576, seconds))
        }
    }
}

/// Output names of batch variants: {columns}, {width} and {layout} filled in; {page} is left
/// for the page naming.
enum VariantNaming {
    static func path(_ pattern: String, for layout: LayoutConfiguration) -> String {
        pattern
            .replacingOccurrences(of: "{columns}", with: String(layout.columns))
            .replacingOccurrences(of: "{width}", with: layout.width.map(String.init) ?? "auto")
            .replacingOccurrences(of: "{layout}", with: layout.kind.rawValue)
    }
}
