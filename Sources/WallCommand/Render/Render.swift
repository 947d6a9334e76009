import ArgumentParser
import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallFiles
import WallLayout
import WallPages
import WallParts
import WallReview

/// The default aspect limit as a ratio, e.g. "3:1".
private let defaultAspectLimit =
    libraryDefaults.layout.maxAspect.map { limit in
        "\(Int(exactly: limit).map(String.init) ?? String(limit)):1"
    } ?? "none"

extension ImageWallCommand {
    /// `imagewall render`: the contact sheet.
    public struct Render: ParsableCommand {
        /// The command's abstract and its discussion, with examples.
        public static let configuration = CommandConfiguration(
            commandName: "render",
            abstract: "Render images and folders to a contact sheet: PNG, JPEG, WebP, PDF or a Deep Zoom pyramid.",
            discussion: """
                Inputs are image files or folders; a folder means its images (\(ImageFormat.names)), \
                sorted by name (the format is read from the file's first bytes, not its \
                extension; RAW camera files, drawn from their embedded JPEG previews, by their name). \
                A video is drawn as its frame at 1 s (later when that frame is blank) with a play \
                button; {duration} captions its length. A Live Photo (a HEIC or JPEG and its \
                movie) and a RAW+JPEG pair of the same name are one tile, marked LIVE or RAW+JPEG, \
                the other file listed in the manifest's "companions" (--pairs separate draws each). \
                SVG and PDF (the first page) are drawn at the size of their tiles. Images of other \
                formats (ICO, EPS, GIMP XCF and others) are reported as unsupported; other files are counted ("3 other files ignored") and listed with \
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
                as far as it decodes, marked DAMAGED in a red frame, and its warning recorded; one \
                whose pixels cannot be decoded at all is drawn as a placeholder (a crossed frame \
                and the reason in words). With \
                --on-error fail the first problem stops the run with exit status 1 before any \
                file is written; with --strict the run exits 1 after writing the sheet when any \
                input was skipped or drawn as a placeholder.

                Every picture given is drawn once: a file given again (by another path, a link \
                or a hard link: the same file) and a folder reached twice (a link back to a \
                parent) are read once and named; sub-folders not read without -r, files left out \
                by --include/--exclude and ImageWall's own earlier sheets in the folder are \
                counted in the summary and listed in the manifest.

                --stack bursts draws pictures taken within --stack-gap seconds of each other that \
                look alike (a burst, frames of one moment) as one tile; --stack similar does so \
                whenever they were taken (copies, re-encodes, resized versions). Pictures are \
                compared by their shape, a perceptual hash and their colours, read from a camera \
                JPEG's EXIF thumbnail, else from a small decode; the tile is the picture rated highest \
                (EXIF or XMP), then the largest, then the sharpest, badged "+4" for the others, \
                which the manifest's "stack" lists and the --html page opens. Videos and pages \
                of documents are never stacked. The summary says how many pictures went into \
                how many stacks.

                With --max-height or --max-pixels the wall continues on new pages, never cutting \
                an image: OUT's {page} becomes 001, 002, …, or without it pages are named \
                OUT-001.png, OUT-002.png, … Each page is written to a temporary file beside it and \
                all are renamed into place when every page is complete, so no output is ever \
                half-written.

                The output's name says its format: OUT.png (or a name without an extension) a \
                PNG, the lossless sheet fixtures are kept as; OUT.jpg or OUT.webp a lossy sheet \
                to mail or show (--quality); OUT.pdf every page on paper for print (--paper, \
                --dpi); OUT.dzi a Deep Zoom pyramid; --format says it when the name does not. A \
                name that asks for a format ImageWall does not write (sheet.tiff) is refused \
                before anything is read.

                With -o OUT.dzi (or --format dzi) each page is written as a Deep Zoom pyramid, as \
                libvips' dzsave lays it out (OUT.dzi and OUT_files/LEVEL/COL_ROW.png, 254 px tiles \
                with 1 px overlap), band by band in bounded memory, for walls too big to look at as \
                one PNG; its top level holds exactly the sheet's pixels (--tile-format jpeg for a \
                smaller pyramid), each level below the one above halved. --html then writes a \
                zoomable viewer whose images link to their sources.

                Finished tiles and compressed bands (and with --cache-decodes decoded images) are kept in a cache \
                ($XDG_CACHE_HOME/imagewall, else ~/.cache/imagewall, or --cache DIR; --no-cache for none; --cache-size caps it, \
                \(CacheSettings.defaultSizeLimit >> 20) MB by default, and it takes no more than the pictures it serves, or \
                \(CacheSettings.defaultAllowance >> 20) MB), found by each file's content, so drawing a folder again \
                costs little, and the sheet is the same to the byte with the cache cold, warm or \
                off. A cache that cannot be written is a warning; the render goes on.

                EXAMPLES:
                  imagewall render SampleImages -o out/sheet.png
                  imagewall render a.jpg b.png Photos -o sheet.png --width 1200 --columns 3
                  imagewall render Photos -o sheet.png --gap 0 --background transparent
                  imagewall render Photos -o sheet.png --layout justified --row-height 240 --last-row center
                  imagewall render ~/Phone/DCIM -r -o phone.png --max-aspect 2.5 --sort date
                  imagewall render Shoot -o picks.png --min-rating 3 --caption '{stem} {rating}'
                  imagewall render Shoot -o rejects.png --rejected only            # the rejects, before deleting them
                  imagewall render Shoot -o moments.png --stack bursts --html moments.html   # one tile per burst
                  imagewall render Exports Originals -o copies.png --stack similar --stack-distance 6
                  imagewall render ~/Phone/DCIM -o phone.png --caption '{stem} {duration}' --pairs separate
                  imagewall render Photos -o sheet.png --layout grid --columns 4 --cell-aspect 4:3 --fit contain
                  imagewall render Photos -o sheet.png --layout mosaic --columns 3 --hero 0 --direction rtl
                  imagewall render Photos Holidays -o sheet.png --group-by folder --column-width 300
                  imagewall render ~/Pictures -r -o year.png --group-by month --caption '{date:%d %b}[ · {camera}]'
                  imagewall render Shoot -o shoot.png --caption '{stem}[ · {exposure}][ · {aperture}][ · {iso}]'
                  imagewall render Photos -o sheet.png --caption '{stem} · {width}x{height}' --title 'Holidays 2026'
                  imagewall render Photos -o 'pages/sheet-{page}.png' --max-height 4000 --corner-radius 12
                  imagewall render Photos -o preview.jpg --quality 80             # to mail: a seventh of the PNG or less
                  imagewall render Photos -o 'preview-{page}.webp' --max-height 16000
                  imagewall render Photos -o contact.pdf --paper a4 --dpi 300 --title 'Holidays 2026'
                  imagewall render Photos -o contact.pdf --paper letter --layout grid --columns 5 --order down
                  imagewall render -r Camera -o preview.png --fast --threads 1
                  imagewall render Photos -o smallest.png --compression 9 --png-filter adaptive   # zlib, libpng's way
                  imagewall render Photos -o sheet.png --cache /var/cache/walls --cache-size 4096
                  imagewall render --from-manifest wall.json --part 3/8 --root /data/photos -o part-3
                  imagewall render Archive -o wall.dzi --html wall.html --tile-format jpeg
                  imagewall render fixtures/images --check fixtures/sheet.png --check-manifest fixtures/sheet.json \\
                      --threshold 0.1 --report diff.html --junit sheet.xml
                  imagewall render Photos -o sheet.png --column-gap 16 --row-gap 8 --padding 32 \\
                      --background '#202020' --manifest sheet.json --on-error fail
                """)

        @OptionGroup(title: "Inputs")
        var input: InputOptions

        @OptionGroup(title: "Output")
        var output: OutputOptions

        @OptionGroup(title: "Rendering a manifest again, whole or in parts")
        var replay: ReplayOptions

        @OptionGroup(title: "Checking against a golden sheet (--check)")
        var checking: CheckOptions

        @OptionGroup(title: "Layout")
        var layout: LayoutOptions

        @OptionGroup(title: "Appearance")
        var appearance: AppearanceOptions

        @OptionGroup(title: "Reading images")
        var decoding: DecodingOptions

        @OptionGroup(title: "Cache")
        var caching: CacheOptions

        @OptionGroup(title: "Reporting")
        var reporting: ReportingOptions

        /// A command with every option at its default, as ArgumentParser makes it.
        public init() {}

        /// What the command line asks `run` to do.
        enum Mode {
            /// Render one part of a manifest's sheet to a part file.
            case part(SheetPart, manifest: String, file: String)
            /// Render a manifest's layout again.
            case replay(manifest: String)
            /// Render and compare with a golden sheet.
            case check(golden: String)
            /// Render the inputs, as one sheet or several variants.
            case render(output: String)
        }

        /// The mode, from options already validated.
        var mode: Mode {
            if let manifest = replay.fromManifest {
                if let part = replay.part, let file = output.output {
                    return .part(part, manifest: manifest, file: file)
                }
                return .replay(manifest: manifest)
            }
            if let golden = checking.check { return .check(golden: golden) }
            return .render(output: output.sheet ?? "")
        }

        /// Refuses options that cannot work together, before anything is read (each option
        /// group refuses its own values first).
        public func validate() throws {
            if replay.fromManifest != nil {
                if checking.check != nil || checking.update {
                    throw ValidationError("--check renders the inputs given: use it without --from-manifest")
                }
                if input.hasInputs {
                    throw ValidationError("--from-manifest takes its inputs from the manifest: give no input files")
                }
                if replay.part != nil {
                    if output.output == nil { throw ValidationError("--part writes a part file: give -o PART") }
                    if output.manifest != nil || output.html != nil {
                        throw ValidationError(
                            "--part writes only a part file: --manifest and --html go with assemble's sheet")
                    }
                }
                return
            }
            if !input.hasInputs { throw ValidationError("no input images: give image files or folders") }
            if checking.check != nil {
                if layout.variants.count > 1 { throw ValidationError("--check compares one sheet: give one variant") }
                if output.pageFormat == .deepZoom || output.pageFormat == .pdf {
                    throw ValidationError("--check compares sheets, not Deep Zoom pyramids or PDF documents")
                }
                return
            }
            guard output.output != nil else { throw ValidationError("Missing expected argument '--output <OUT.png>'") }
            try output.validate(variants: layout.variants)
        }

        /// The options this command line asks for (with the first variant's layout).
        public var options: WallOptions {
            var options = WallOptions(layout: printed(layout.configuration))
            options.grouping = layout.groupBy
            input.apply(to: &options)
            output.apply(to: &options)
            appearance.apply(to: &options)
            decoding.apply(to: &options)
            caching.apply(to: &options)
            return options
        }

        /// Runs the command; failures end in an exit code, never a crash.
        public func run() throws {
            ProcessSetup.catchInterrupts()
            let display = ProgressDisplay(style: reporting.quiet ? .none : reporting.progress)
            var options = self.options
            if let seed = input.pickedSeed(quiet: reporting.quiet) { options.input.seed = seed }
            let stages = reporting.profile ? StageProfile() : nil
            let quiet = reporting.quiet
            let verbose = reporting.verbose
            let hooks = RunHooks(
                progress: display.isActive ? ProgressReporter { display.show($0) } : nil, profile: stages,
                isCancelled: { ProcessSetup.isInterrupted },
                diagnostics: { diagnostic in
                    guard !quiet else { return }
                    if case .note = diagnostic, !verbose { return }
                    display.clear()
                    Console.error(diagnostic.description)
                })
            let started = ProgressDisplay.now()
            do {
                // --check says its own problems, with its own exit status.
                if checking.check == nil {
                    try OutputFolders.check(htmlPages)
                    OutputFolders.removeLeftovers(besides: htmlPages, diagnostics: hooks.diagnostics)
                }
                switch mode {
                case .part(let part, let manifest, let file):
                    let header = try Wall.render(
                        part: part, ofManifestAt: manifest, to: file, root: replay.root,
                        deepZoom: output.format == .deepZoom ? output.tileFormat : nil, options: options, hooks: hooks)
                    display.clear()
                    if !quiet { summarize(header, to: file, seconds: ProgressDisplay.now() - started) }
                    if let stages { ReportingOptions.report(stages) }
                case .replay(let manifest):
                    let recorded = try stages.measure(.manifest, wall: true) {
                        try Wall.readManifest(manifest, threads: options.limits.threads)
                    }
                    let page = galleryPages(threads: options.limits.threads)
                    let result = try Wall.renderStreamed(
                        from: recorded, to: output.sheet, manifest: output.manifest, root: replay.root,
                        recordedAt: manifest, options: options, hooks: hooks, alongside: page.stage)
                    for warning in page.warnings() { Console.error("warning: \(warning)") }
                    display.clear()
                    if !quiet { summarize([result], seconds: ProgressDisplay.now() - started) }
                    if let stages { ReportingOptions.report(stages) }
                    try refuseUnderStrict([result])
                case .check(let golden):
                    try runCheck(golden: golden, options: options, hooks: hooks)
                case .render(let sheet):
                    let results = try renderVariants(to: sheet, options: options, hooks: hooks)
                    display.clear()
                    if !quiet { summarize(results, seconds: ProgressDisplay.now() - started) }
                    if let stages { ReportingOptions.report(stages) }
                    try refuseUnderStrict(results)
                }
            } catch let error as WallError {
                display.clear()
                Console.error("error: \(error.message)")
                if case WallRunError.cancelled = error { throw ExitStatus.interrupted }
                throw ExitStatus.failure
            } catch let error as DecodingError {
                Console.error("error: \(replay.fromManifest ?? "manifest"): not an ImageWall manifest (\(error))")
                throw ExitStatus.failure
            }
        }

        /// `configuration` laid out for the paper of a PDF: as wide as the paper between its
        /// margins and pages as tall, unless `--width` and `--max-height` (or `--max-pixels`) say.
        func printed(_ configuration: LayoutConfiguration) -> LayoutConfiguration {
            guard let paper = output.printedPaper else { return configuration }
            var c = configuration
            if layout.width == nil { c.width = paper.sheetWidth }
            if layout.maxHeight == nil && layout.maxPixels == nil { c.maxPageHeight = paper.pageHeight }
            return c
        }

        /// The gallery pages `--html` asks for: one a variant when its name tells them apart
        /// (`{columns}`), else one page showing each window the variant that suits it.
        var htmlPages: [String] {
            guard let html = output.html else { return [] }
            let pages = layout.variants.map { OutputNaming.variant(html, for: $0) }
            return Set(pages).count == pages.count ? pages : [html]
        }

        /// Renders the inputs as every variant `--columns`, `--width` and the like ask for, each
        /// to its own files, and writes their pages; returns their manifests, streamed (a
        /// million tiles are not held to be counted).
        private func renderVariants(
            to sheet: String, options: WallOptions, hooks: RunHooks
        ) throws -> [StreamedManifest] {
            let variants = layout.variants
            let jobs = variants.map { variant -> (output: String, options: WallOptions) in
                var job = options
                job.layout = printed(variant)
                return (OutputNaming.variant(sheet, for: variant), job)
            }
            let manifests = output.manifest.map { path in variants.map { OutputNaming.variant(path, for: $0) } }
            let pages = galleryPages(threads: options.limits.threads)
            let results = try Wall(inputs: try input.allInputs()).renderStreamed(
                variants: jobs, manifests: manifests, hooks: hooks, alongside: pages.stage)
            for warning in pages.warnings() { Console.error("warning: \(warning)") }
            return results
        }

        /// The `--html` pages of a render, staged with its sheets so that all are put in place
        /// together (see ``htmlPages``), and what they warned about; no pages without `--html`.
        func galleryPages(threads: Int) -> (stage: Alongside?, warnings: @Sendable () -> [String]) {
            let pages = htmlPages
            guard !pages.isEmpty else { return (nil, { [] }) }
            let warnings = Locked<[String]>([])
            let stage: Alongside = { results, written in
                var staged: [any StagedOutput] = []
                do {
                    // One page a variant when their names tell them apart, else one for all.
                    let groups =
                        pages.count == results.count ? zip(pages, results).map { ($0, [$1]) } : [(pages[0], results)]
                    for (page, shown) in groups {
                        let (outputs, said) = try GalleryPage.stage(
                            variants: shown, to: page, threads: threads, written: written)
                        staged += outputs
                        warnings.withLock { $0 += said }
                    }
                } catch {
                    staged.discardAll()
                    throw error
                }
                return staged
            }
            return (stage, { warnings.withLock { $0 } })
        }
    }
}
