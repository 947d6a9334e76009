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

/// A page written but not yet in place: put in place with the others once all are complete,
/// or discarded.
package protocol CompletedPage: StagedOutput {}

extension AtomicFile: CompletedPage {}

/// Writes the pages of one plan: each page's title, section headers and cells painted in
/// bands by the compositor and streamed to a PNG in a temporary file. The files come back
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

    /// Writes page `p` to `paths[p]` in `format`; `cell` gives tile `i`'s finished cell
    /// (called from several threads, in the order the bands need them).
    func write(
        to paths: [String], as format: PageFormat, cell: @escaping @Sendable (Int) throws -> Bitmap
    ) throws -> [any CompletedPage] {
        var pages: [any CompletedPage] = []
        do {
            if format == .pdf {
                let file = try AtomicFile(destination: paths[0])
                pages.append(file)
                try writePDF(into: file, cell: cell)
                try file.finishWriting()
                return pages
            }
            for (page, size) in plan.arrangement.pages.enumerated() {
                switch format {
                case .pdf:
                    preconditionFailure("a PDF's pages are written together")
                case .deepZoom:
                    let pyramid = try DeepZoomWriter(
                        destination: paths[page], size: size, channels: options.background.isOpaque ? 3 : 4,
                        format: options.deepZoomTiles, threads: threads)
                    pages.append(pyramid)
                    try paintBands(page: page, rows: 0..<size.height, cell: cell) { band, count in
                        try hooks.profile.measure(.encode) { try pyramid.add(rows: band, count: count) }
                    }
                    try pyramid.finishWriting()
                case .jpeg:
                    let file = try AtomicFile(destination: paths[page])
                    pages.append(file)
                    try paintJPEG(page: page, into: file.handle, name: file.destination, cell: cell)
                    try file.finishWriting()
                case .webp:
                    let file = try AtomicFile(destination: paths[page])
                    pages.append(file)
                    // libwebp encodes a whole picture: the page is gathered (WebP's 16,383 px cap bounds it).
                    let sheet = try paintWhole(page: page, cell: cell)
                    var settings = WebPEncodeOptions()
                    settings.quality = Float(options.rendering.sheetQuality)
                    try hooks.profile.measure(.encode) { try WebPEncoder.write(sheet, options: settings, into: file) }
                    try file.finishWriting()
                case .png:
                    let file = try AtomicFile(destination: paths[page])
                    pages.append(file)
                    let writer = try PNGSegmentWriter(
                        file: file, size: size, hasAlpha: !options.background.isOpaque,
                        compression: options.rendering.compression, software: PageWriter.software,
                        bandHeight: SheetRenderer.defaultBandHeight)
                    try paint(page: page, rows: 0..<size.height, into: writer, cell: cell)
                    try writer.finish()
                    try file.finishWriting()
                }
            }
        } catch {
            for page in pages { page.discard() }
            throw error
        }
        return pages
    }

    /// Every page as one PDF on ``RenderSettings/paper``: each page's picture fitted between
    /// the margins and the header and footer bands (at the paper's resolution when the sheet
    /// was laid out for it), a JPEG streamed band by band into memory at the quality asked (or
    /// its pixels kept whole and deflated at quality 0), the title above it from the second
    /// page on (the first shows it in the sheet), drawn as the sheet's text is, "page N of M"
    /// below; the document's information names the title.
    func writePDF(into file: AtomicFile, cell: @escaping @Sendable (Int) throws -> Bitmap) throws {
        let paper = options.rendering.paper ?? .a4
        let title = options.rendering.title.flatMap { $0.isEmpty ? nil : $0 }
        let document = try PDFDocument(title: title)
        let points = { (millimetres: Double) in millimetres * 72 / 25.4 }
        let sizes = plan.arrangement.pages
        for (page, size) in sizes.enumerated() {
            let picture: PDFDocument.Page.Picture
            if options.rendering.sheetQuality == 0 {
                picture = .pixels(try paintWhole(page: page, cell: cell))
            } else {
                let stream = try MemoryStream()
                try paintJPEG(page: page, into: stream.handle, name: file.destination, cell: cell)
                picture = .jpeg(stream.bytes())
            }
            // Fitted to the room between the margins and bands: at the paper's resolution when
            // laid out for it, smaller when the sheet is wider or taller.
            let roomWidth = points(paper.width - 2 * paper.margin)
            let roomHeight = points(paper.height - 2 * paper.margin - 2 * Paper.bandHeight)
            let natural = 72 / Double(paper.dpi)
            let scale = min(natural, roomWidth / Double(size.width), roomHeight / Double(size.height))
            let top = points(paper.margin + Paper.bandHeight)
            let width = Double(size.width) * scale
            // The title heads every page after the first (which shows it in the sheet), drawn
            // as the sheet's text is, at the paper's resolution.
            var header: (band: Bitmap, top: Double, height: Double)?
            if page > 0, title != nil {
                let pixels = { (points: Double) in max(1, Int((points * Double(paper.dpi) / 72).rounded())) }
                let band = try cells.printedTitle(
                    size: Size(width: pixels(width), height: pixels(points(Paper.bandHeight))),
                    pixelSize: pixels(Paper.fontSize))
                header = band.map { ($0, points(paper.margin), points(Paper.bandHeight)) }
            }
            try document.add(
                PDFDocument.Page(
                    size: (points(paper.width), points(paper.height)), picture: picture,
                    frame: (points(paper.margin), top, width, Double(size.height) * scale), header: header,
                    footer: "page \(page + 1) of \(sizes.count)", fontSize: Paper.fontSize,
                    footerBaseline: points(paper.height - paper.margin) - points(1)))
        }
        try hooks.profile.measure(.encode) { try document.write(into: file) }
    }

    /// Page `page` as a baseline JPEG with the standard tables at the sheet's quality, its
    /// bands streamed into `handle` (called `name` in errors) as they are painted: the sheet is
    /// never held.
    func paintJPEG(
        page: Int, into handle: UnsafeMutablePointer<FILE>, name: String,
        cell: @escaping @Sendable (Int) throws -> Bitmap
    ) throws {
        let size = plan.arrangement.pages[page]
        var settings = JPEGEncodeOptions(storage: .ycbcr)
        settings.quality = options.rendering.sheetQuality
        settings.optimizedTables = false
        let writer = try JPEGStreamWriter(handle: handle, name: name, size: size, options: settings)
        try paintBands(page: page, rows: 0..<size.height, cell: cell) { band, count in
            try hooks.profile.measure(.encode) { try writer.write(rows: band, count: count) }
        }
        try writer.finish()
    }

    /// Page `page` painted whole, for encoders that take a whole picture.
    func paintWhole(page: Int, cell: @escaping @Sendable (Int) throws -> Bitmap) throws -> Bitmap {
        var sheet = Bitmap(
            size: plan.arrangement.pages[page], alpha: options.background.isOpaque ? .none : .straight)
        var filled = 0
        try paintBands(page: page, rows: 0..<sheet.size.height, cell: cell) { band, count in
            let bytes = count * sheet.rowBytes
            sheet.pixels.replaceSubrange(filled..<filled + bytes, with: band[0..<bytes])
            filled += bytes
        }
        return sheet
    }

    /// The PNG's Software text.
    package static let software = "ImageWall \(ImageWallRelease.version)"

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
