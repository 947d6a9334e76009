import WallCore

/// Paints tiles onto a sheet in horizontal bands, top to bottom, handing each band's rows to
/// a sink (the PNG encoder), so memory holds one band and the tiles crossing it, never the
/// whole sheet.
///
/// Each tile is requested once, when the band before the first band reaching it is painted
/// (one band ahead, so every thread has work), and freed when the band passes its bottom edge.
public struct SheetRenderer: Sendable {
    /// The sheet size.
    public var canvas: Size
    /// Where each tile goes.
    public var frames: [Rect]
    /// The colour under and between tiles.
    public var background: RGBAColor
    /// Rows painted at a time, unless told otherwise: also where the PNG encoder's segments
    /// end, so parts of a sheet rendered apart join into the same file.
    public static let defaultBandHeight = 128
    /// Rows painted at a time.
    public var bandHeight = SheetRenderer.defaultBandHeight
    /// The rows to paint, when not the whole canvas (a part of the sheet). Bands stay where they
    /// are on the whole canvas; the first and last are cut to the range.
    public var rows: Range<Int>?
    /// Threads preparing tiles at once.
    public var threads = 1
    /// The tiles whose frames meet a range of rows, from the layout's spatial index.
    public var tilesInRows: @Sendable (Range<Int>) -> [Int]

    /// Creates a renderer; `tilesInRows` answers which frames meet a range of rows (a linear
    /// scan of `frames` when not given).
    public init(
        canvas: Size, frames: [Rect], background: RGBAColor, threads: Int = 1,
        tilesInRows: (@Sendable (Range<Int>) -> [Int])? = nil
    ) {
        self.canvas = canvas
        self.frames = frames
        self.background = background
        self.threads = max(1, threads)
        self.tilesInRows =
            tilesInRows ?? { [frames] rows in
                frames.indices.filter { frames[$0].y < rows.upperBound && frames[$0].maxY > rows.lowerBound }
            }
    }

    /// Bytes of prepared tiles that may wait ahead of the painter.
    public static let lookaheadBytes = 32 << 20

    /// How many tiles may be prepared ahead of the painter: far enough that a tile that must be
    /// decoded (a new image among cached ones) starts while the bands before it are encoded —
    /// `8 × threads` — but never more than ``lookaheadBytes`` of tiles the size of the largest,
    /// and never fewer than `2 × threads`, so every thread has a tile to work on.
    public static func lookahead(threads: Int, largestTileBytes: Int) -> Int {
        let threads = max(1, threads)
        let fitting = lookaheadBytes / max(1, largestTileBytes)
        return max(2 * threads, min(8 * threads, fitting))
    }

    /// `true` when the sheet needs an alpha channel: the background is not opaque.
    public var hasAlpha: Bool { !background.isOpaque }

    /// Paints the sheet, or its ``rows``.
    ///
    /// Worker threads prepare tiles in the order the bands need them, at most
    /// ``lookahead(threads:largestTileBytes:)`` ahead of the painter, while the calling thread
    /// paints bands and hands them to `emit` (so encoding overlaps decoding). Output does not
    /// depend on timing.
    /// - Parameters:
    ///   - tile: the pixels of tile `i` at exactly `frames[i]`'s size, RGB or premultiplied
    ///     RGBA; called from several threads.
    ///   - emit: receives consecutive bands: `count` rows of RGB, or straight RGBA when
    ///     ``hasAlpha``, from the top of ``rows`` (or of the canvas) to its bottom.
    public func render(
        tile: @escaping @Sendable (Int) throws -> Bitmap,
        emit: (UnsafeBufferPointer<UInt8>, _ count: Int) throws -> Void
    ) throws {
        let channels = hasAlpha ? 4 : 3
        let rowBytes = canvas.width * channels
        let background = self.background
        let opaque = !hasAlpha
        let premultipliedBackground: [UInt8] = {
            let a = UInt32(background.alpha)
            let rgb = [background.red, background.green, background.blue].map { UInt8((UInt32($0) * a + 127) / 255) }
            return opaque ? rgb : rgb + [background.alpha]
        }()
        let frames = self.frames
        // The tiles each band needs first, from the spatial query; their concatenation is the
        // order workers prepare tiles in.
        let painted = (rows ?? 0..<canvas.height).clamped(to: 0..<canvas.height)
        var spans: [Range<Int>] = []
        for top in stride(from: painted.lowerBound / bandHeight * bandHeight, to: painted.upperBound, by: bandHeight) {
            spans.append(max(top, painted.lowerBound)..<min(painted.upperBound, top + bandHeight))
        }
        var bands: [[Int]] = []
        var seen = Set<Int>()
        var order: [Int] = []
        for rows in spans {
            let fresh = tilesInRows(rows).filter { !seen.contains($0) && frames[$0].width > 0 && frames[$0].height > 0 }
                .sorted { (frames[$0].y, $0) < (frames[$1].y, $1) }
            seen.formUnion(fresh)
            bands.append(fresh)
            order += fresh
        }
        let prepare: @Sendable (Int) throws -> Bitmap = { index in
            let image = try tile(index)
            precondition(image.size == frames[index].size, "tile \(index) has the wrong size")
            // The band's pixels are RGB on an opaque sheet and RGBA on another.
            return opaque ? Alpha.flattened(image, over: background) : Alpha.premultipliedRGBA(image)
        }
        let largest = frames.lazy.map { $0.width * $0.height * channels }.max() ?? 0
        let window = Self.lookahead(threads: threads, largestTileBytes: largest)
        let workers = TileWorkers(order: order, threads: threads, window: window, prepare: prepare)
        defer { workers.finish() }

        var live: [Int: Bitmap] = [:]
        var band = [UInt8](repeating: 0, count: rowBytes * min(bandHeight, canvas.height))
        var taken = 0
        for (span, fresh) in zip(spans, bands) {
            let top = span.lowerBound
            let bottom = span.upperBound
            for index in fresh {
                live[index] = try workers.take(taken)
                taken += 1
            }
            let rows = bottom - top
            band.withUnsafeMutableBufferPointer { buffer in
                buffer.fill(repeating: premultipliedBackground, count: rows * rowBytes)
                for (index, image) in live {
                    paint(image, at: frames[index], bandTop: top, bandRows: rows, into: buffer, rowBytes: rowBytes)
                }
                if !opaque { Alpha.straighten(UnsafeMutableBufferPointer(rebasing: buffer[0..<rows * rowBytes])) }
            }
            try band.withUnsafeBufferPointer { try emit(UnsafeBufferPointer(rebasing: $0[0..<rows * rowBytes]), rows) }
            live = live.filter { frames[$0.key].maxY > bottom }
        }
    }

    /// Copies (opaque sheet) or composites (transparent sheet) the rows of `image` inside the band.
    private func paint(
        _ image: Bitmap, at frame: Rect, bandTop: Int, bandRows: Int,
        into buffer: UnsafeMutableBufferPointer<UInt8>, rowBytes: Int
    ) {
        let firstRow = max(frame.y, bandTop)
        let endRow = min(frame.maxY, bandTop + bandRows)
        let x0 = max(0, frame.x), x1 = min(canvas.width, frame.maxX)
        guard firstRow < endRow, x0 < x1 else { return }
        let channels = image.channels
        image.pixels.withUnsafeBufferPointer { src in
            for y in firstRow..<endRow {
                let from = src.baseAddress! + ((y - frame.y) * image.size.width + (x0 - frame.x)) * channels
                let to = buffer.baseAddress! + (y - bandTop) * rowBytes + x0 * channels
                let count = (x1 - x0) * channels
                if channels == 3 {
                    to.update(from: from, count: count)
                } else {
                    var i = 0
                    while i < count {
                        let inverse = 255 - UInt32(from[i + 3])
                        for c in 0..<4 {
                            to[i + c] = UInt8(min(255, UInt32(from[i + c]) + (UInt32(to[i + c]) * inverse + 127) / 255))
                        }
                        i += 4
                    }
                }
            }
        }
    }
}
