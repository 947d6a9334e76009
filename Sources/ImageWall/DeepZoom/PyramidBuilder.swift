import WallCompositor
import WallCore

/// Builds a Deep Zoom pyramid from the image's rows, top to bottom: each level keeps only the
/// rows of its current row of tiles (plus the overlap), hands each tile on as soon as its rows
/// are in, and passes every two of its rows, halved, to the level below. Memory holds about two
/// rows of tiles per level, never the image.
package final class PyramidBuilder {
    let geometry: DeepZoomGeometry
    let channels: Int
    private let emit: (_ level: Int, _ column: Int, _ row: Int, Bitmap) throws -> Void
    private var levels: [LevelRows]

    /// The rows of one level held so far.
    private struct LevelRows {
        var size: Size
        var tileRows: Int
        var tileColumns: Int
        /// Rows from `first` on.
        var rows: [[UInt8]] = []
        var first = 0
        var received = 0
        var nextTileRow = 0
        /// A row waiting for the one below it, to be halved with it.
        var unpaired: [UInt8]?
    }

    /// A builder for `geometry`'s pyramid of `channels`-byte pixels (RGB, or straight RGBA),
    /// handing each finished tile to `emit`.
    package init(
        geometry: DeepZoomGeometry, channels: Int,
        emit: @escaping (_ level: Int, _ column: Int, _ row: Int, Bitmap) throws -> Void
    ) {
        self.geometry = geometry
        self.channels = channels
        self.emit = emit
        levels = (0...geometry.topLevel).map { level in
            let tiles = geometry.tiles(ofLevel: level)
            return LevelRows(size: geometry.size(ofLevel: level), tileRows: tiles.rows, tileColumns: tiles.columns)
        }
    }

    /// Takes the next `count` full-resolution rows (tightly packed).
    package func add(rows: UnsafeBufferPointer<UInt8>, count: Int) throws {
        let rowBytes = geometry.size.width * channels
        precondition(rows.count >= count * rowBytes)
        for r in 0..<count {
            try add(Array(rows[r * rowBytes..<(r + 1) * rowBytes]), toLevel: geometry.topLevel)
        }
    }

    /// Ends every level: an odd last row is halved with itself, and the last tiles go out.
    package func finish() throws {
        for level in stride(from: geometry.topLevel, through: 0, by: -1) {
            precondition(levels[level].received == levels[level].size.height, "level \(level) is missing rows")
            if level > 0, let row = levels[level].unpaired {
                levels[level].unpaired = nil
                try add(halved(row, row, level: level), toLevel: level - 1)
            }
        }
    }

    private func add(_ row: [UInt8], toLevel level: Int) throws {
        levels[level].rows.append(row)
        levels[level].received += 1
        try emitReadyTiles(level)
        guard level > 0 else { return }
        if let upper = levels[level].unpaired {
            levels[level].unpaired = nil
            try add(halved(upper, row, level: level), toLevel: level - 1)
        } else {
            levels[level].unpaired = row
        }
    }

    /// The tile of columns `xs` and rows `ys` from `rows`, which hold the image's rows from
    /// `first` on (`channels` bytes a pixel, straight alpha when 4).
    package static func cut(_ rows: [[UInt8]], first: Int, xs: Range<Int>, ys: Range<Int>, channels: Int) -> Bitmap {
        var tile = Bitmap(size: Size(width: xs.count, height: ys.count), alpha: channels == 4 ? .straight : .none)
        let tileRowBytes = xs.count * channels
        tile.pixels.withUnsafeMutableBufferPointer { out in
            for (k, y) in ys.enumerated() {
                rows[y - first].withUnsafeBufferPointer { row in
                    (out.baseAddress! + k * tileRowBytes).update(
                        from: row.baseAddress! + xs.lowerBound * channels, count: tileRowBytes)
                }
            }
        }
        return tile
    }

    private func halved(_ upper: [UInt8], _ lower: [UInt8], level: Int) -> [UInt8] {
        RowHalving.halve(upper, lower, width: levels[level].size.width, channels: channels)
    }

    /// Hands on each row of tiles of `level` whose rows are all in, then lets go of the rows
    /// no later tile needs.
    private func emitReadyTiles(_ level: Int) throws {
        while levels[level].nextTileRow < levels[level].tileRows {
            let state = levels[level]
            let ys = geometry.span(state.nextTileRow, length: state.size.height)
            guard ys.upperBound <= state.received else { return }
            for column in 0..<state.tileColumns {
                let xs = geometry.span(column, length: state.size.width)
                let tile = PyramidBuilder.cut(state.rows, first: state.first, xs: xs, ys: ys, channels: channels)
                try emit(level, column, state.nextTileRow, tile)
            }
            levels[level].nextTileRow += 1
            let keepFrom = geometry.span(levels[level].nextTileRow, length: state.size.height).lowerBound
            let drop = min(levels[level].rows.count, max(0, keepFrom - state.first))
            levels[level].rows.removeFirst(drop)
            levels[level].first += drop
        }
    }
}
