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

        init(_ image: borrowing ProbedImage, dated: Bool = false) {
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
            if dated { date = CaptureDate(of: copy image) }
        }

        init(path: String, displayed: Size) {
            self.path = path
            self.displayed = displayed
            orientation = 1
        }

        /// The `index`-th of sizes given without files, named `sizes[index]`: the name written
        /// digit by digit into the `String` itself (15 bytes, up to `sizes[99999999]`), a fifth
        /// of the work of interpolating it (a million in a planned wall).
        init(sizeAt index: Int, displayed: Size) {
            guard index >= 0, index < 100_000_000 else {
                self.init(path: "sizes[\(index)]", displayed: displayed)
                return
            }
            var digits = 1
            var rest = index / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            let path = String(unsafeUninitializedCapacity: 15) { name in
                let prefix = "sizes[".utf8
                _ = name.initialize(fromContentsOf: prefix)
                var value = index
                var at = prefix.count + digits
                repeat {
                    at -= 1
                    name[at] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                } while at > prefix.count
                name[prefix.count + digits] = UInt8(ascii: "]")
                return prefix.count + digits + 1
            }
            self.init(path: path, displayed: displayed)
        }
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
}

extension StreamedManifest {
    /// The manifest of `plan` rendered with `options`, its pages written to `outputs` (none
    /// for a layout that was not rendered); `messages` holds each tile's decoder warnings and notes.
    init(plan: Plan, options: WallOptions, outputs: [String], messages: TileWarnings.Recorded? = nil) {
        let images = plan.images
        let dated = options.grouping.isByDate
        self.init(
            arrangement: plan.arrangement, tileCount: images.count,
            source: { Manifest.Source(images[$0], dated: dated) }, sectionTitles: plan.sectionTitles,
            options: options, outputs: outputs, messages: messages, skipped: plan.skipped, recipes: plan.recipes)
        outline.ignored = plan.ignored.isEmpty ? nil : plan.ignored
        if !outputs.isEmpty {
            outline.madeBy = Manifest.MadeBy(imagewall: ImageWallRelease.version, libraries: CodecLibraries.versions)
        }
        outline.foldersNotRead = plan.foldersNotRead.isEmpty ? nil : plan.foldersNotRead
        outline.filteredOut = plan.filteredOut == 0 ? nil : plan.filteredOut
        outline.ownOutputs = plan.ownOutputs.isEmpty ? nil : plan.ownOutputs
        outline.repeats = plan.repeats.isEmpty ? nil : plan.repeats
        outline.ratedOut = plan.ratedOut.isEmpty ? nil : plan.ratedOut
        outline.roots = plan.roots.isEmpty ? nil : plan.roots.map { Manifest.Root(path: $0) }
    }

    /// The manifest of `arrangement` for `tileCount` sources, `source(i)` telling about the
    /// i-th, its pages written to `outputs` (none for a layout that was not rendered).
    init(
        arrangement: Arrangement, tileCount: Int, source: @escaping @Sendable (Int) -> Manifest.Source,
        sectionTitles: [String], options: WallOptions, outputs: [String], messages: TileWarnings.Recorded?,
        skipped: [CodecError], recipes: [Int: TileRecipe] = [:]
    ) {
        let canvas = arrangement.canvas
        let outline = Manifest(
            width: canvas.width, height: canvas.height,
            layout: Manifest.Layout(
                configuration: options.effectiveLayout, background: options.background, grouping: options.grouping),
            pages: arrangement.pages.enumerated().map { p, size in
                Manifest.Page(
                    file: outputs.indices.contains(p) ? outputs[p] : nil, width: size.width, height: size.height)
            },
            sections: arrangement.sectionHeaders.map {
                Manifest.Section(
                    index: $0.section,
                    title: sectionTitles.indices.contains($0.section) ? sectionTitles[$0.section] : "", page: $0.page,
                    header: Manifest.Box($0.frame))
            },
            title: arrangement.title.map { Manifest.Title(text: options.rendering.title ?? "", box: Manifest.Box($0)) },
            render: outputs.isEmpty ? nil : options.rendering, tiles: [],
            skipped: skipped.map { Manifest.Skipped(source: $0.path, reason: $0.reason) })
        self.init(outline: outline, tileCount: tileCount) { i in
            Manifest.Tile(
                index: i, placement: arrangement.placements[i], source: source(i), messages: messages,
                recipe: recipes[i])
        }
    }
}

extension Manifest.Tile {
    /// Tile `i`, placed at `p`, of `source`, with what its decoding said (`messages`) and how it
    /// was made, when otherwise than for itself alone (`recipe`).
    init(
        index i: Int, placement p: Placement, source: Manifest.Source, messages: TileWarnings.Recorded?,
        recipe: TileRecipe?
    ) {
        let said = messages?.tile(i, drawnAt: p.image.size) ?? TileWarnings.TileSaid()
        let chosen = said.crop
        let placeholder = said.placeholder
        let notes = said.notes
        self.init(
            index: i, page: p.page, source: source.path, root: source.origin?.root,
            path: source.origin?.path, x: p.image.x, y: p.image.y,
            width: p.image.width, height: p.image.height, sourceWidth: source.displayed.width,
            sourceHeight: source.displayed.height, orientation: source.orientation, format: source.format,
            crop: chosen?.0 ?? p.crop, cropBy: chosen?.1, cell: Manifest.Box(p.cell),
            caption: p.caption.map(Manifest.Box.init), section: p.section,
            warnings: said.warnings, notes: notes.isEmpty ? nil : notes,
            sortKey: source.sortKey, decodedFor: recipe?.decodedFor,
            via: recipe.flatMap { $0.via.isEmpty ? nil : $0.via },
            placeholder: placeholder,
            damaged: placeholder == nil && said.damaged ? true : nil,
            inexactDecoder: source.inexactDecoder,
            drawnFrom: source.drawnFrom, mark: source.mark,
            companions: source.companions.isEmpty ? nil : source.companions, duration: source.duration,
            date: source.date?.iso8601, dateFrom: source.date?.source, sourcePage: source.page,
            stack: source.stack)
    }
}
