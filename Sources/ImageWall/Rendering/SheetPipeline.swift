import Synchronization
import WallCodecs
import WallCompositor
import WallCore
import WallLayout
import WallText

/// A render that cannot be written as asked.
public enum SheetSizeError: WallError, Equatable {
    /// A page is larger than PNG allows.
    case beyondPNG(Size)
    /// A page is larger than the sheet pixel cap.
    case overCap(Size, cap: Int)

    public var message: String {
        switch self {
        case .beyondPNG(let size):
            return "the sheet would be \(size) px, beyond PNG's limit of 2147483647 px a side; split it into pages with --max-height or --max-pixels"
        case .overCap(let size, let cap):
            let megapixels = (size.area ?? Int.max) / 1_000_000
            return "the sheet would be \(size) px (\(megapixels) MP), over the \(cap / 1_000_000) MP limit; split it into pages with --max-height or --max-pixels, or raise --max-sheet-pixels"
        }
    }
}

/// What the band renderer paints on one page: image cells, the title, section headers.
enum PageItem {
    case tile(Int)
    case title(Rect)
    case header(SectionHeader)
}

/// Renders the pages of a plan: each page a PNG streamed band by band into a temporary file;
/// all of them are renamed into place only when every page is complete.
struct SheetPipeline {
    let plan: Plan
    let options: WallOptions
    let layout: LayoutConfiguration
    let diagnostics: @Sendable (Diagnostic) -> Void
    let warnings = TileWarnings()
    let captionFace: FontFace?
    let headingFace: FontFace?
    /// Shared by the threads decoding this render's images.
    let decodeMemory: MemoryBudget
    let decoder: ImageDecoder
    /// Where finished tiles come from instead of decoding (batch variants' spill).
    var tileSource: (@Sendable (Int) throws -> Bitmap)?

    init(plan: Plan, options: WallOptions, diagnostics: @escaping @Sendable (Diagnostic) -> Void) throws {
        self.plan = plan
        self.options = options
        self.layout = options.effectiveLayout
        self.diagnostics = diagnostics
        decodeMemory = MemoryBudget(limit: options.decodeMemory)
        decoder = options.decoder
        let needsCaptions = options.caption != nil
        let needsHeadings = plan.arrangement.title != nil || !plan.arrangement.sectionHeaders.isEmpty
        captionFace = needsCaptions ? try FontFace(named: options.font ?? FontFace.defaultPath) : nil
        headingFace = needsHeadings ? try FontFace(named: options.font ?? FontFace.boldPath) : nil
    }

    /// Checks page sizes against PNG's limit and the cap before anything is decoded.
    static func checkSizes(_ pages: [Size], cap: Int) throws(SheetSizeError) {
        for page in pages {
            if page.width > 0x7FFF_FFFF || page.height > 0x7FFF_FFFF { throw .beyondPNG(page) }
            if (page.area ?? Int.max) > cap { throw .overCap(page, cap: cap) }
        }
    }

    /// Renders every page to `paths` (one per page).
    func render(to paths: [String]) throws {
        let arrangement = plan.arrangement
        options.progress?.begin(.render, total: arrangement.placements.count)
        var files: [AtomicFile] = []
        for (page, size) in arrangement.pages.enumerated() {
            var items: [PageItem] = []
            if page == 0, let title = arrangement.title { items.append(.title(title)) }
            items += arrangement.sectionHeaders.filter { $0.page == page }.map(PageItem.header)
            let firstTile = items.count
            let tiles = arrangement.tiles(intersecting: Rect(x: 0, y: 0, width: size.width, height: size.height), page: page)
            items += tiles.map(PageItem.tile)
            var local: [Int: Int] = [:]
            for (k, tile) in tiles.enumerated() { local[tile] = firstTile + k }
            let frames = items.map(frame)
            let headings = Array(0..<firstTile)
            let localIndex = local
            let renderer = SheetRenderer(
                canvas: size, frames: frames, background: options.background, threads: options.threads,
                tilesInRows: { rows in
                    let band = Rect(x: 0, y: rows.lowerBound, width: size.width, height: rows.count)
                    let headingItems = headings.filter { frames[$0].intersects(band) }
                    return headingItems + arrangement.tiles(intersecting: band, page: page).compactMap { localIndex[$0] }
                })
            let file = try AtomicFile(destination: paths[page])
            let writer = try PNGStreamWriter(
                file: file, size: size, hasAlpha: renderer.hasAlpha, compression: options.compression,
                filter: options.pngFilter, software: "ImageWall \(Wall.version)")
            let itemsCopy = items
            let cancelled = options.isCancelled
            try renderer.render(
                tile: {
                    if cancelled() { throw WallRunError.cancelled }
                    return try self.bitmap(for: itemsCopy[$0])
                },
                emit: { rows, count in
                    if cancelled() { throw WallRunError.cancelled }
                    try options.profile.measure(.encode) { try writer.write(rows: rows, count: count) }
                })
            try options.profile.measure(.encode) { try writer.finish() }
            try file.finishWriting()
            files.append(file)
        }
        for file in files { try file.commit() }
    }

    private func frame(_ item: PageItem) -> Rect {
        switch item {
        case .tile(let index): return plan.arrangement.placements[index].cell
        case .title(let rect): return rect
        case .header(let header): return header.frame
        }
    }

    private func bitmap(for item: PageItem) throws -> Bitmap {
        switch item {
        case .tile(let index):
            if let tileSource { return try tileSource(index) }
            defer { options.progress?.advance(.render) }
            return try tileBitmap(index)
        case .title(let rect):
            return try headingBitmap(options.title ?? "", size: rect.size, pixelSize: options.titleFontSize, centered: true)
        case .header(let header):
            let title = plan.sectionTitles.indices.contains(header.section) ? plan.sectionTitles[header.section] : ""
            let pixelSize = max(8, min(26, header.frame.height * 11 / 20))
            return try headingBitmap(title, size: header.frame.size, pixelSize: pixelSize, centered: false)
        }
    }

    /// The cell of tile `index`: its image decoded and resampled (grey when it cannot be
    /// decoded and errors are skipped), decorated, with its caption.
    func tileBitmap(_ index: Int) throws -> Bitmap {
        let image = plan.images[index]
        let placement = plan.arrangement.placements[index]
        var pixels: Bitmap
        do {
            var messages: [String] = []
            let recipe = plan.recipe(for: index)
            let memory = decoder.workingMemory(info: image.info, target: recipe.decodedFor)
            pixels = try decodeMemory.withReservation(memory) {
                try Wall.tile(
                    image, placement: placement, recipe: recipe, decoder: decoder, linear: options.linear, profile: options.profile
                ) {
                    messages.append($0)
                }
            }
            try report(messages, for: index)
        } catch {
            pixels = try placeholder(for: index, error: error)
        }
        return try options.profile.measure(.cells) { try cell(index, pixels: pixels) }
    }

    /// Records decoder warnings, or with `strict` turns them into the file's error.
    func report(_ messages: [String], for index: Int) throws {
        guard !messages.isEmpty else { return }
        if options.strict {
            throw CodecError(.decode, path: plan.images[index].path, reason: "damaged (--strict): " + messages.joined(separator: "; "))
        }
        for message in messages { warn(message, index) }
    }

    func warn(_ message: String, _ index: Int) {
        warnings.add(message, for: index)
        diagnostics(.warning(source: plan.images[index].path, message: message))
    }

    /// Mid-grey for an image that could not be decoded, or the error with `--on-error fail`.
    func placeholder(for index: Int, error: any Error) throws -> Bitmap {
        if options.onError == .fail || error is WallRunError { throw error }
        warn("not decoded, drawn grey: \(error.reason)", index)
        return Bitmap(size: plan.arrangement.placements[index].image.size, alpha: .none, fill: [128, 128, 128])
    }

    /// Tile `index`'s cell from its resampled pixels: decorated, with its caption.
    func cell(_ index: Int, pixels: Bitmap) throws -> Bitmap {
        let image = plan.images[index]
        let placement = plan.arrangement.placements[index]
        let origin = Point(x: placement.image.x - placement.cell.x, y: placement.image.y - placement.cell.y)
        var texts: [TextStamp] = []
        if let template = options.caption, let face = captionFace, let band = placement.caption {
            let text = template.expand(path: image.path, index: index, info: image.info, displayed: image.info.displayedSize)
            let box = Rect(x: band.x - placement.cell.x, y: band.y - placement.cell.y, width: band.width, height: band.height)
            if let stamp = try stamp(text, face: face, pixelSize: options.captionFontSize(height: band.height), in: box, centered: true) {
                texts.append(stamp)
            }
        }
        if placement.cell == placement.image && options.style.isPlain && texts.isEmpty { return pixels }
        return CellPainter.paint(size: placement.cell.size, image: pixels, at: origin, style: options.style, texts: texts)
    }

    private func headingBitmap(_ text: String, size: Size, pixelSize: Int, centered: Bool) throws -> Bitmap {
        guard let face = headingFace else { return CellPainter.paint(size: size, image: nil) }
        let box = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let stamps = try stamp(text, face: face, pixelSize: pixelSize, in: box, centered: centered).map { [$0] } ?? []
        return CellPainter.paint(size: size, image: nil, texts: stamps)
    }

    /// `text` fitted (with an ellipsis) into `box`, vertically centred, clipped to the box.
    private func stamp(_ text: String, face: FontFace, pixelSize: Int, in box: Rect, centered: Bool) throws -> TextStamp? {
        let inset = min(4, box.width / 8)
        let fitted = try face.fitting(text, width: box.width - 2 * inset, pixelSize: pixelSize)
        guard !fitted.isEmpty else { return nil }
        let line = try face.render(fitted, pixelSize: pixelSize)
        let x = centered ? box.x + (box.width - line.size.width) / 2 : box.x + inset
        let y = box.y + (box.height - line.size.height) / 2
        return TextStamp(mask: line.mask, origin: Point(x: x, y: y), color: options.resolvedTextColor, clip: box)
    }
}
