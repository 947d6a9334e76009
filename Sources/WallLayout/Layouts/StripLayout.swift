import WallCore

/// One row at the target height, as wide as it needs; a width wraps it.
struct StripLayout: LayoutStrategy {
    var summary: String { "one row at --row-height, wrapping at --width if given" }
    var minimumColumns: Int? { nil }
    var widthFollowsContent: Bool { true }

    func place(_ items: [Int], section: Int, in engine: inout LayoutEngine) throws(LayoutError) {
        try engine.placeStrip(items, section: section)
    }

    func firstRowHeight(of index: Int, in engine: LayoutEngine) -> Int {
        engine.config.rowHeight + engine.config.captionHeight
    }

    func encodeOptions(
        of configuration: LayoutConfiguration,
        to container: inout KeyedEncodingContainer<LayoutConfiguration.CodingKeys>
    ) throws {
        try container.encode(configuration.rowHeight, forKey: .rowHeight)
    }
}

extension LayoutEngine {
    /// One row at the target height, as wide as it needs; with a width, rows wrap there and an
    /// image too wide on its own is scaled down to fit.
    mutating func placeStrip(_ items: [Int], section: Int) throws(LayoutError) {
        let target = config.rowHeight
        let limit = innerWidth
        let gap = config.columnGap
        // Fill rows first, then place each at the cursor (on a new page if need be).
        var rows: [[(index: Int, width: Int, height: Int)]] = [[]]
        var x = 0
        for index in items {
            let size = sizes[index]
            var width = max(1, (size.width * target * 2 + size.height) / (2 * size.height))
            var height = target
            if let limit, width > limit {
                width = limit
                height = Fitting.scaledHeight(of: size, toWidth: limit)
            }
            if let limit, x > 0, x + gap + width > limit {
                rows.append([])
                x = 0
            }
            x += (x > 0 ? gap : 0) + width
            rows[rows.count - 1].append((index, width, height))
        }
        for row in rows where !row.isEmpty {
            let rowHeight = row.map(\.height).max()! + config.captionHeight
            try ensureRoom(rowHeight)
            var x = 0
            var rowBottom = cursor
            for item in row {
                let parts = cell(x: left + x, y: cursor, width: item.width, imageHeight: item.height)
                try put(
                    Placement(cell: parts.cell, image: parts.image, caption: parts.caption, section: section),
                    at: item.index)
                x += item.width + gap
                rowBottom = max(rowBottom, parts.cell.maxY)
            }
            try endBlock(at: rowBottom)
        }
    }
}
