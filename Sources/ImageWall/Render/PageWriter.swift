import WallCodecs
import WallCompositor
import WallCore
import WallLayout
import WallText

#if canImport(Glibc)
    import Glibc
#endif

/// What the band renderer paints on a page: image cells, the title, section headers.
enum PageItem {
    case tile(Int)
    case title(Rect)
    case header(SectionHeader)
}

/// Writes the pages of one plan: each page's title, section headers and cells painted in
/// bands by the compositor and handed to its format's ``PageSaver``. The files come back
/// complete but not yet in place.
package struct PageWriter {
    let plan: Plan
    let options: WallOptions
    let hooks: RunHooks
    let cells: CellMaker
    /// Threads preparing cells while the calling thread paints and encodes.
    let threads: Int
    /// Where bands already compressed are found, if anywhere.
    let cache: RenderCache?

    /// Writes page `p` to `paths[p]` in `format` (every page to `paths[0]` when the format
    /// holds them all); `cell` gives tile `i`'s finished cell (called from several threads, in
    /// the order the bands need them).
    func write(
        to paths: [String], as format: PageFormat, cell: @escaping @Sendable (Int) throws -> Bitmap
    ) throws -> [any CompletedPage] {
        let saver = format.saver
        let painter = Painter(writer: self, cell: cell)
        let count = plan.arrangement.pages.count
        var pages: [any CompletedPage] = []
        do {
            if saver.holdsAllPages {
                try saver.write(Array(0..<count), to: paths[0], painter: painter) { pages.append($0) }
            } else {
                for page in 0..<count {
                    try saver.write([page], to: paths[page], painter: painter) { pages.append($0) }
                }
            }
        } catch {
            for page in pages { page.discard() }
            throw error
        }
        return pages
    }

    /// The pages of this writer with their cells, as a saver sees them.
    private struct Painter: PagePainter {
        let writer: PageWriter
        let cell: @Sendable (Int) throws -> Bitmap

        var options: WallOptions { writer.options }
        var threads: Int { writer.threads }
        var profile: StageProfile? { writer.hooks.profile }
        var pageSizes: [Size] { writer.plan.arrangement.pages }

        func paintBands(
            page: Int, rows: Range<Int>, emit: (UnsafeBufferPointer<UInt8>, _ count: Int) throws -> Void
        ) throws {
            try writer.paintBands(page: page, rows: rows, cell: cell, emit: emit)
        }

        func paint(page: Int, rows: Range<Int>, into sink: any SegmentSink) throws {
            try writer.paint(page: page, rows: rows, into: sink, cell: cell)
        }

        func printedTitle(size: Size, pixelSize: Int) throws -> Bitmap? {
            try writer.cells.printedTitle(size: size, pixelSize: pixelSize)
        }
    }

    /// Paints `rows` of page `page` in bands and hands them, compressed, to `sink`; the
    /// segments are those of the whole page, bands being compressed alone. `tap`, when given,
    /// sees every band painted, and for a range that starts below the page's top, the row above
    /// it too (painted for it alone: a pyramid's tiles overlap their neighbours by a pixel).
    package func paint(
        page: Int, rows: Range<Int>, into sink: any SegmentSink, cell: @escaping @Sendable (Int) throws -> Bitmap,
        tap: ((UnsafeBufferPointer<UInt8>, Int) throws -> Void)? = nil
    ) throws {
        let size = plan.arrangement.pages[page]
        let above = rows.lowerBound > 0 && tap != nil ? 1 : 0
        let encoder = SegmentEncoder(
            sink: sink, width: size.width, channels: options.background.isOpaque ? 3 : 4, settings: options.rendering,
            threads: threads, profile: hooks.profile, cache: cache)
        var rowsEmitted = rows.lowerBound - above
        do {
            try paintBands(page: page, rows: rows.lowerBound - above..<rows.upperBound, cell: cell) { band, count in
                try tap?(band, count)
                rowsEmitted += count
                if rowsEmitted > rows.lowerBound {
                    try encoder.add(rows: band, count: count, last: rowsEmitted == size.height)
                }
            }
            try encoder.finish()
        } catch {
            // Nothing of a failed page stays behind, even while a worker still holds it.
            encoder.waitForWorkers()
            throw error
        }
    }

    /// Paints `rows` of page `page` (its title, section headers and cells) in bands, top to
    /// bottom, handing each to `emit`: `count` rows of RGB, or straight RGBA on a transparent
    /// background.
    func paintBands(
        page: Int, rows: Range<Int>, cell: @escaping @Sendable (Int) throws -> Bitmap,
        emit: (UnsafeBufferPointer<UInt8>, _ count: Int) throws -> Void
    ) throws {
        let arrangement = plan.arrangement
        let size = arrangement.pages[page]
        var items: [PageItem] = []
        if page == 0, let title = arrangement.title { items.append(.title(title)) }
        items += arrangement.sectionHeaders.filter { $0.page == page }.map(PageItem.header)
        let firstTile = items.count
        let tiles = arrangement.tiles(
            intersecting: Rect(x: 0, y: 0, width: size.width, height: size.height), page: page)
        items += tiles.map(PageItem.tile)
        var local: [Int: Int] = [:]
        for (k, tile) in tiles.enumerated() { local[tile] = firstTile + k }
        let frames = items.map(frame)
        let headings = Array(0..<firstTile)
        let localIndex = local
        var renderer = SheetRenderer(
            canvas: size, frames: frames, background: options.background, threads: threads,
            tilesInRows: { rows in
                let band = Rect(x: 0, y: rows.lowerBound, width: size.width, height: rows.count)
                let headingItems = headings.filter { frames[$0].intersects(band) }
                return headingItems
                    + arrangement.tiles(intersecting: band, page: page).compactMap { localIndex[$0] }
            })
        renderer.rows = rows
        let pageItems = items
        let hooks = self.hooks
        let cells = self.cells
        try renderer.render(
            tile: { k in
                try hooks.checkCancelled()
                switch pageItems[k] {
                case .tile(let index): return try cell(index)
                case .title(let rect): return try cells.title(size: rect.size)
                case .header(let header): return try cells.header(header)
                }
            },
            emit: { band, count in
                try hooks.checkCancelled()
                try emit(band, count)
            })
    }

    private func frame(_ item: PageItem) -> Rect {
        switch item {
        case .tile(let index): return plan.arrangement.placements[index].cell
        case .title(let rect): return rect
        case .header(let header): return header.frame
        }
    }
}
