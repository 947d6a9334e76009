import Foundation
import ImageWall
import WallCodecs
import WallCore

/// The top-level Deep Zoom tiles of one page that a part of the sheet can make alone: those
/// whose rows (overlap included) all lie in the rows the part paints. Rows come in as they are
/// painted; each finished tile is written to a file in `folder` (as the pyramid writer writes it,
/// so the bytes are those of a one-process render) and listed for the part file.
final class PartTiles {
    let geometry: DeepZoomGeometry
    let page: Int
    let channels: Int
    let format: DeepZoomTileFormat
    private let folder: String
    private let painted: Range<Int>
    /// Rows from `first` on, while a tile row may still need them.
    private var rows: [[UInt8]] = []
    private var first: Int
    private var nextTileRow: Int
    /// The tiles made, in order: column, row and the file holding it.
    private(set) var made: [(column: Int, row: Int, file: String)] = []

    /// Tiles of page `page` (of `size`) for a part painting `painted` rows, written into `folder`.
    init(page: Int, size: Size, painted: Range<Int>, channels: Int, format: DeepZoomTileFormat, folder: String) {
        geometry = DeepZoomGeometry(size: size)
        self.page = page
        self.painted = painted
        self.channels = channels
        self.format = format
        self.folder = folder
        first = painted.lowerBound
        // The first tile row whose rows start inside the painted ones.
        var row = 0
        while geometry.span(row, length: size.height).lowerBound < painted.lowerBound { row += 1 }
        nextTileRow = row
    }

    /// Takes the next `count` painted rows.
    func add(rows band: UnsafeBufferPointer<UInt8>, count: Int) throws {
        let rowBytes = geometry.size.width * channels
        for r in 0..<count { rows.append(Array(band[r * rowBytes..<(r + 1) * rowBytes])) }
        let height = geometry.size.height, received = first + rows.count
        let tileRows = geometry.tiles(ofLevel: geometry.topLevel).rows
        while nextTileRow < tileRows {
            let ys = geometry.span(nextTileRow, length: height)
            guard ys.upperBound <= received, ys.upperBound <= painted.upperBound else { break }
            for column in 0..<geometry.tiles(ofLevel: geometry.topLevel).columns {
                let xs = geometry.span(column, length: geometry.size.width)
                let tile = PyramidBuilder.cut(rows, first: first, xs: xs, ys: ys, channels: channels)
                let file = "\(folder)/\(page)_\(column)_\(nextTileRow)"
                try DeepZoomWriter.encode(tile, format: format, to: file)
                made.append((column, nextTileRow, file))
            }
            nextTileRow += 1
        }
        let keepFrom = geometry.span(nextTileRow, length: height).lowerBound
        let drop = min(rows.count, max(0, keepFrom - first))
        rows.removeFirst(drop)
        first += drop
    }
}
