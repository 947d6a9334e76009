import WallCore

/// Blocks two rows high in a repeating pattern of 2×2 and small square tiles, all cropped square.
struct MosaicLayout: LayoutStrategy {
    var summary: String { "2x2 and small square tiles in a repeating pattern" }
    var minimumColumns: Int? { 2 }

    func place(_ items: [Int], section: Int, in engine: inout LayoutEngine) throws(LayoutError) {
        try engine.placeMosaic(items, section: section)
    }

    func firstRowHeight(of index: Int, in engine: LayoutEngine) -> Int {
        let config = engine.config
        return 2 * (engine.columnGrid().spans.map(\.width).min() ?? 1) + 2 * config.captionHeight + config.rowGap
    }
}

extension LayoutEngine {
    /// Instagram-style blocks two rows high: a 2×2 tile left with small squares beside it,
    /// two rows of small squares, small squares with a 2×2 tile right, two rows of small
    /// squares, and again. Every tile covers its cell.
    mutating func placeMosaic(_ items: [Int], section: Int) throws(LayoutError) {
        let spans = columnGrid().spans
        let columns = spans.count
        let side = spans.map(\.width).min() ?? 1
        let rowHeight = side + config.captionHeight
        let gap = config.rowGap
        var next = 0
        var block = 0
        while next < items.count {
            let cells = Self.mosaicBlock(block % 4, spans: spans, columns: columns)
            let used = cells.prefix(items.count - next)
            let rows = used.contains { $0.big || $0.row == 1 } ? 2 : 1
            try ensureRoom(rows * rowHeight + (rows - 1) * gap)
            var blockBottom = cursor
            for c in used {
                let index = items[next]
                next += 1
                let imageHeight = c.big ? 2 * rowHeight + gap - config.captionHeight : side
                let parts = cell(
                    x: c.x, y: cursor + c.row * (rowHeight + gap), width: c.width, imageHeight: imageHeight)
                let crop = Fitting.cover(sizes[index], in: parts.image.size, gravity: config.gravity)
                try put(
                    Placement(
                        cell: parts.cell, image: parts.image, caption: parts.caption, crop: crop, section: section),
                    at: index)
                blockBottom = max(blockBottom, parts.cell.maxY)
            }
            try endBlock(at: blockBottom)
            block += 1
        }
    }

    static func mosaicBlock(_ pattern: Int, spans: [(x: Int, width: Int)], columns: Int) -> [(
        x: Int, width: Int, row: Int, big: Bool
    )] {
        func small(_ c: Int, _ row: Int) -> (x: Int, width: Int, row: Int, big: Bool) {
            (spans[c].x, spans[c].width, row, false)
        }
        func big(_ c: Int) -> (x: Int, width: Int, row: Int, big: Bool) {
            (spans[c].x, spans[c + 1].x + spans[c + 1].width - spans[c].x, 0, true)
        }
        switch pattern {
        case 0:
            return [big(0)] + (0..<2).flatMap { row in (2..<columns).map { small($0, row) } }
        case 2:
            let beside = (0..<(columns - 2)).map { small($0, 0) }
            return beside + [big(columns - 2)] + (0..<(columns - 2)).map { small($0, 1) }
        default:
            return (0..<2).flatMap { row in (0..<columns).map { small($0, row) } }
        }
    }
}
