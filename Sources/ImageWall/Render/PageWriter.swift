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
        let arrangement = plan.arrangement
        var files: [AtomicFile] = []
        for (page, size) in arrangement.pages.enumerated() {
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
            let renderer = SheetRenderer(
                canvas: size, frames: frames, background: options.background, threads: threads,
                tilesInRows: { rows in
                    let band = Rect(x: 0, y: rows.lowerBound, width: size.width, height: rows.count)
                    let headingItems = headings.filter { frames[$0].intersects(band) }
                    return headingItems
                        + arrangement.tiles(intersecting: band, page: page).compactMap { localIndex[$0] }
                })
            let file = try AtomicFile(destination: paths[page])
            let writer = try PNGSegmentWriter(
                file: file, size: size, hasAlpha: renderer.hasAlpha, compression: options.rendering.compression,
                software: "ImageWall \(Wall.version)")
            let encoder = SegmentEncoder(
                writer: writer, channels: renderer.hasAlpha ? 4 : 3, settings: options.rendering, threads: threads,
                profile: hooks.profile, cache: cache)
            var rowsEmitted = 0
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
                    emit: { rows, count in
                        try hooks.checkCancelled()
                        rowsEmitted += count
                        try encoder.add(rows: rows, count: count, last: rowsEmitted == size.height)
                    })
                try encoder.finish()
                try file.finishWriting()
            } catch {
                // Nothing of a failed page stays behind, even while a worker still holds it.
                encoder.waitForWorkers()
                file.discard()
                throw error
            }
            files.append(file)
        }
        return files
    }

    private func frame(_ item: PageItem) -> Rect {
        switch item {
        case .tile(let index): return plan.arrangement.placements[index].cell
        case .title(let rect): return rect
        case .header(let header): return header.frame
        }
    }
}
