import WallCodecs
import WallCore
import WallFiles
import WallLayout

extension Manifest {
    /// What the manifest says about each laid-out source.
    struct Source {
        var path: String
        var displayed: Size
        var orientation: Int
        var format: String?
        var sortKey: SortKey?
        var origin: ProbedImage.Origin?
        var drawnFrom: String?
        var mark: TileMark?
        var companions: [String] = []
        var duration: Double?
        /// When the picture was taken; found only for walls grouped by date, which record it.
        var date: CaptureDate?
        var inexactDecoder: String?
        /// The page drawn, for a file drawn page by page.
        var page: Int?
        /// The stack the source stands for.
        var stack: PictureStack?

        init(_ image: ProbedImage, dated: Bool = false) {
            path = image.path
            displayed = image.info.displayedSize
            orientation = image.info.orientation.rawValue
            format = image.info.format.rawValue
            sortKey = image.sortKey
            origin = image.origin
            drawnFrom = image.info.drawnFrom
            mark = image.mark
            companions = image.companions
            duration = image.info.duration
            inexactDecoder = image.info.inexactDecoder
            page = image.info.page
            stack = image.stack
            if dated { date = CaptureDate(of: image) }
        }

        init(path: String, displayed: Size) {
            self.path = path
            self.displayed = displayed
            orientation = 1
        }
    }

    /// The manifest of `plan` rendered with `options`, its pages written to `outputs` (none
    /// for a layout that was not rendered); `messages` holds each tile's decoder warnings and notes.
    init(plan: Plan, options: WallOptions, outputs: [String], messages: TileWarnings? = nil) {
        self.init(
            arrangement: plan.arrangement, sources: plan.images.map { Source($0, dated: options.grouping.isByDate) },
            sectionTitles: plan.sectionTitles,
            options: options, outputs: outputs, messages: messages, skipped: plan.skipped, recipes: plan.recipes)
        ignored = plan.ignored.isEmpty ? nil : plan.ignored
        if !outputs.isEmpty {
            madeBy = MadeBy(imagewall: ImageWallRelease.version, libraries: CodecLibraries.versions)
        }
        foldersNotRead = plan.foldersNotRead.isEmpty ? nil : plan.foldersNotRead
        filteredOut = plan.filteredOut == 0 ? nil : plan.filteredOut
        ownOutputs = plan.ownOutputs.isEmpty ? nil : plan.ownOutputs
        repeats = plan.repeats.isEmpty ? nil : plan.repeats
        ratedOut = plan.ratedOut.isEmpty ? nil : plan.ratedOut
        roots = plan.roots.isEmpty ? nil : plan.roots.map { Root(path: $0) }
    }

    /// The roots' paths from the folder of the manifest file `path`, so that the manifest finds
    /// its sources after both moved together.
    mutating func locateRoots(from path: String) {
        guard let recorded = roots else { return }
        let folder = FilePaths.folder(of: path)
        roots = recorded.map { root in
            Root(path: root.path, fromManifest: FilePaths.relative(from: folder, to: FilePaths.absolute(root.path)))
        }
    }

    /// The manifest of `arrangement` for `sources`, its pages written to `outputs` (none for a
    /// layout that was not rendered).
    init(
        arrangement: Arrangement, sources: [Source], sectionTitles: [String], options: WallOptions,
        outputs: [String], messages: TileWarnings?, skipped: [CodecError], recipes: [Int: TileRecipe] = [:]
    ) {
        let canvas = arrangement.canvas
        self.init(
            width: canvas.width, height: canvas.height,
            layout: Layout(
                configuration: options.effectiveLayout, background: options.background, grouping: options.grouping),
            pages: arrangement.pages.enumerated().map { p, size in
                Page(file: outputs.indices.contains(p) ? outputs[p] : nil, width: size.width, height: size.height)
            },
            sections: arrangement.sectionHeaders.map {
                Section(
                    index: $0.section,
                    title: sectionTitles.indices.contains($0.section) ? sectionTitles[$0.section] : "", page: $0.page,
                    header: Box($0.frame))
            },
            title: arrangement.title.map { Title(text: options.rendering.title ?? "", box: Box($0)) },
            render: outputs.isEmpty ? nil : options.rendering,
            tiles: sources.indices.map { i in
                let p = arrangement.placements[i]
                let source = sources[i]
                let chosen = messages?.crop(for: i, drawnAt: p.image.size)
                return Tile(
                    index: i, page: p.page, source: source.path, root: source.origin?.root,
                    path: source.origin?.path, x: p.image.x, y: p.image.y,
                    width: p.image.width, height: p.image.height, sourceWidth: source.displayed.width,
                    sourceHeight: source.displayed.height, orientation: source.orientation, format: source.format,
                    crop: chosen?.0 ?? p.crop, cropBy: chosen?.1, cell: Box(p.cell), caption: p.caption.map(Box.init),
                    section: p.section,
                    warnings: messages?.messages(for: i) ?? [],
                    notes: messages.flatMap { $0.notes(for: i).isEmpty ? nil : $0.notes(for: i) },
                    sortKey: source.sortKey, decodedFor: recipes[i]?.decodedFor,
                    via: recipes[i].flatMap { $0.via.isEmpty ? nil : $0.via },
                    placeholder: messages?.placeholder(for: i),
                    damaged: messages?.placeholder(for: i) == nil && messages?.isDamaged(i) == true ? true : nil,
                    inexactDecoder: source.inexactDecoder,
                    drawnFrom: source.drawnFrom, mark: source.mark,
                    companions: source.companions.isEmpty ? nil : source.companions, duration: source.duration,
                    date: source.date?.iso8601, dateFrom: source.date?.source, sourcePage: source.page,
                    stack: source.stack)
            },
            skipped: skipped.map { Skipped(source: $0.path, reason: $0.reason) })
    }
}
