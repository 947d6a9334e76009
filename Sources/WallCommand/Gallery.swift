import ArgumentParser
import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallFiles
import WallGallery

extension ImageWallCommand {
    /// `imagewall gallery`: a gallery site of a whole tree of folders, kept up to date.
    public struct Gallery: ParsableCommand {
        /// The command's abstract and its discussion, with examples.
        public static let configuration = CommandConfiguration(
            commandName: "gallery",
            abstract:
                "Make a gallery site of a tree of folders, and keep it up to date: again in a second when nothing changed, or watching the tree.",
            discussion: """
                Every folder that holds pictures is an album, nested as the folders are: a page \
                with its contact sheets (every layout and option of render; without --width or \
                --columns a 2-column sheet for phones and a 4-column one for wider windows), each \
                tile opening the picture large in the page (← → to step, Esc to close). Every \
                picture has a page of its own, at a URL that stays while the file keeps its name \
                and folder: the picture at the window's size (1x and 2x renditions, none larger \
                than the picture), its description, date, camera, lens and exposure, its size, its \
                place (a link made from --map-link; nothing is fetched) and the original (a \
                relative link into the tree), with the previous and next pictures a key away. The \
                top page lists the albums, each with a cover, its picture count and its dates; \
                every page has the trail back up. Pages follow the reader's light or dark setting, \
                and every name, caption and metadata text is escaped: no file name runs in a page. \
                Alt text is the picture's own description (XMP dc:description, the IPTC caption \
                or EXIF ImageDescription, a camera's stock text left out), else its name.

                SITE is made when missing; what the gallery writes there is only its pages (each \
                album under the path of its folder), _files/ (sheets and renditions, named by \
                their content) and its record (.imagewall-gallery.json). A site inside TREE is left \
                out of the albums.

                Built again, the gallery looks at every file of the tree (its size, times and \
                identity: nothing is read) against its record: with nothing changed it reads no \
                image, writes no file and says "nothing changed". A picture added, changed or \
                removed draws its album's sheets again (finished tiles come from the cache) and \
                writes the pages whose text changed, and those of the albums above it when a \
                count, cover or date changed; a folder renamed or moved keeps its sheets and \
                renditions. An album whose folder is gone is removed: only files the gallery \
                wrote (its record names them) are ever removed. The pages are written last, all \
                together: interrupted (Ctrl-C, a full disk), every page is as it was or as it is \
                now, and the next build goes on from the sheets and renditions already made.

                EXAMPLES:
                  imagewall gallery ~/Pictures -o ~/site
                  imagewall gallery ~/Pictures -o ~/site --name 'Our pictures' --layout justified --row-height 200
                  imagewall gallery Photos -o site --columns 3,6 --width 1500,3000 --caption '{date:%d %b}'
                  imagewall gallery Photos -o site --sort date --exclude '*/Private/*' --sheet-format webp
                  imagewall gallery Photos -o site --map-link 'https://maps.example.org/@{lat},{lon},15z'
                """)

        @Argument(help: "The folder of pictures, read with every folder below it.")
        var tree: String

        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The site's folder.", valueName: "SITE"))
        var output: String

        @Option(
            help: ArgumentHelp("The site's name, atop every page (default: TREE's folder name).", valueName: "text"))
        var name: String?

        @Option(
            help: ArgumentHelp(
                "Where a picture's place links, {lat} and {lon} replaced by its coordinates (default: OpenStreetMap).",
                valueName: "url"))
        var mapLink = GallerySettings.defaultMapLink

        @Option(help: ArgumentHelp("The sheets' format.", valueName: "jpeg|webp|png"))
        var sheetFormat: SheetFormat = .jpeg

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Quality of the sheets and of the pictures' renditions, 1 to 100.", valueName: "1-100"))
        var quality = 85

        @Flag(
            help:
                "After building, watch the tree and build again each time it changes (when it has been still for --quiet-period and no file is still being written), saying what changed, until Ctrl-C."
        )
        var watch = false

        @Option(
            help: ArgumentHelp("With --watch, the seconds the tree must be still before a build.", valueName: "s"))
        var quietPeriod = 1.0

        @OptionGroup(title: "Pictures in each album")
        var selection: SelectionOptions

        @OptionGroup(title: "Sheets")
        var layout: LayoutOptions

        @OptionGroup(title: "Appearance of the sheets")
        var appearance: AppearanceOptions

        @OptionGroup(title: "Reading images")
        var decoding: DecodingOptions

        @OptionGroup(title: "Cache")
        var caching: CacheOptions

        @OptionGroup(title: "Reporting")
        var reporting: ReportingOptions

        /// A command with every option at its default, as ArgumentParser makes it.
        public init() {}

        /// Refuses qualities and periods out of range, and a map link without coordinates.
        public func validate() throws {
            guard (1...100).contains(quality) else {
                throw ValidationError("--quality must be 1 to 100 (got \(quality))")
            }
            guard quietPeriod > 0 && quietPeriod <= 3600 else {
                throw ValidationError("--quiet-period must be more than 0 and at most 3600 s (got \(quietPeriod))")
            }
            guard mapLink.contains("{lat}") && mapLink.contains("{lon}") else {
                throw ValidationError("--map-link needs {lat} and {lon} (got \(mapLink))")
            }
        }

        /// The settings this command line asks for.
        var settings: GallerySettings {
            var options = WallOptions(layout: layout.configuration)
            options.grouping = layout.groupBy
            selection.apply(to: &options)
            appearance.apply(to: &options)
            decoding.apply(to: &options)
            caching.apply(to: &options)
            var settings = GallerySettings(wall: options)
            if layout.givesSize { settings.variants = layout.variants }
            settings.sheetFormat = sheetFormat.pageFormat
            settings.quality = quality
            settings.title = name
            settings.mapLink = mapLink
            return settings
        }

        /// The time of day, "14:03:22", for what a watch says.
        static func clock() -> String {
            var now = time(nil)
            var parts = tm()
            localtime_r(&now, &parts)
            return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
        }

        /// Runs the command; failures end in an exit code, never a crash.
        public func run() throws {
            ProcessSetup.catchInterrupts()
            let display = ProgressDisplay(style: reporting.quiet ? .none : reporting.progress)
            var settings = self.settings
            if let seed = selection.pickedSeed(quiet: reporting.quiet) { settings.wall.input.seed = seed }
            let quiet = reporting.quiet
            let stages = reporting.profile ? StageProfile() : nil
            var hooks = GalleryHooks(
                progress: { progress in
                    display.show(phase: progress.stage.rawValue, done: progress.done, total: progress.total)
                },
                isCancelled: { ProcessSetup.isInterrupted },
                warning: { text in
                    guard !quiet else { return }
                    display.clear()
                    Console.error("warning: \(text)")
                }, profile: stages)
            // A watch says each warning once, from its first build on.
            if watch { hooks = hooks.sayingEachWarningOnce() }
            let verbose = reporting.verbose
            func say(_ report: GalleryReport, watching: Bool) {
                display.clear()
                guard !quiet else { return }
                let time = String(format: "%.1f", report.seconds)
                Console.output("\(watching ? Self.clock() + " " : "")\(output): \(report.summary) in \(time) s")
                guard watching || verbose else { return }
                for path in report.drawn { Console.output("  drawn: \(path.isEmpty ? "(top)" : path)") }
                for path in report.moved { Console.output("  moved: \(path)") }
                for path in report.removed { Console.output("  removed: \(path)") }
                Console.flush()
            }
            do {
                let session = try GallerySession(GallerySite(tree: tree, site: output, settings: settings))
                let report = try session.build(hooks: hooks)
                say(report, watching: false)
                if let stages { ReportingOptions.report(stages) }
                if watch {
                    if !quiet { Console.error("watching \(tree) (Ctrl-C to stop)") }
                    try session.watch(quiet: quietPeriod, hooks: hooks) { say($0, watching: true) }
                    if ProcessSetup.isInterrupted { throw ExitStatus.interrupted }
                }
                if decoding.strict && !report.skipped.isEmpty { throw ExitStatus.failure }
            } catch WallRunError.cancelled {
                display.clear()
                Console.error(
                    "interrupted: every album is whole (as it was, or done); the next build goes on from there")
                throw ExitStatus.interrupted
            } catch let error as WallError {
                display.clear()
                Console.error("error: \(error.message)")
                throw ExitStatus.failure
            }
        }
    }
}

extension ImageWallCommand.Gallery {
    /// The formats a page shows sheets in: `--sheet-format` lists and takes only these.
    enum SheetFormat: String, CaseIterable, ExpressibleByArgument {
        case jpeg, webp, png

        /// The sheets' page format.
        var pageFormat: PageFormat {
            switch self {
            case .jpeg: return .jpeg
            case .webp: return .webp
            case .png: return .png
            }
        }
    }
}
