import WallCodecs
import WallCompositor
import WallCore
import WallLayout

/// What the band renderer paints on a page: image cells, the title, section headers.
enum PageItem {
    case tile(Int)
    case title(Rect)
    case header(SectionHeader)
}

/// Writes the pages of one plan: each page's title, section headers and cells painted in
/// bands by the compositor and streamed to a PNG in a temporary file. The files come back
/// complete but not yet in place.
struct PageWriter {
    let plan: Plan
    let options: WallOptions
    let hooks: RunHooks
    let cells: CellMaker
    /// Threads preparing cells while the calling thread paints and encodes.
    let threads: Int
    /// Where bands already compressed are found, if anywhere.
    let cache: RenderCache?

    /// Writes page `p` to `paths[p]`; `cell` gives tile `i`'s finished cell (called from
    /// several threads, in the order the bands need them).
    func write(to paths: [String], cell: @escaping @Sendable (Int) throws -> Bitmap) throws -> [AtomicFile] {
        var files: [AtomicFile] = []
        for (page, size) in plan.arrangement.pages.enumerated() {
            let file = try AtomicFile(destination: paths[page])
            do {
                let writer = try PNGSegmentWriter(
                    file: file, size: size, hasAlpha: !options.background.isOpaque,
                    compression: options.rendering.compression, software: PageWriter.software)
                try paint(page: page, rows: 0..<size.height, into: writer, cell: cell)
                try writer.finish()
                try file.finishWriting()
            } catch {
                file.discard()
                throw error
            }
            files.append(file)
        }
        return files
    }

    /// The PNG's Software text.
    static let software = "ImageWall \(Wall.version)"

    /// Paints `rows` of page `page` in bands and hands them, compressed, to `sink`. A range
    /// that starts below the page's top has the row above it painted too, not handed on: the
    /// first row's filter reads it, so the segments are those of the whole page.
    func paint(
        page: Int, rows: Range<Int>, into sink: any SegmentSink, cell: @escaping @Sendable (Int) throws -> Bitmap
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
        let above = rows.lowerBound > 0 ? 1 : 0
        renderer.rows = rows.lowerBound - above..<rows.upperBound
        let channels = renderer.hasAlpha ? 4 : 3
        let encoder = SegmentEncoder(
            sink: sink, width: size.width, channels: channels, settings: options.rendering, threads: threads,
            profile: hooks.profile, cache: cache)
        var rowsEmitted = rows.lowerBound - above
        let pageItems = items
        let hooks = self.hooks
        let cells = self.cells
        do {
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
                    rowsEmitted += count
                    if rowsEmitted == rows.lowerBound && above == 1 {
                        encoder.start(below: Array(band))
                    } else {
                        try encoder.add(rows: band, count: count, last: rowsEmitted == size.height)
                    }
                })
            try encoder.finish()
        } catch {
            // Nothing of a failed page stays behind, even while a worker still holds it.
            encoder.waitForWorkers()
            throw error
        }
    }

    private func frame(_ item: PageItem) -> Rect {
        switch item {
        case .tile(let index): return plan.arrangement.placements[index].cell
        case .title(let rect): return rect
        case .header(let header): return header.frame
        }
    }
}
