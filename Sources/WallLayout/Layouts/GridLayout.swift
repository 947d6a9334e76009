import WallCore

/// Uniform cells, N columns, row by row; images cover their cell (cropped) or are contained
/// in it (letterboxed).
struct GridLayout: LayoutStrategy {
    var summary: String { "uniform cells, cover or contain" }

    func place(_ items: [Int], section: Int, in engine: inout LayoutEngine) throws(LayoutError) {
        try engine.placeGrid(items, section: section)
    }

    func firstRowHeight(of index: Int, in engine: LayoutEngine) -> Int {
        let config = engine.config
        let base = engine.columnGrid().spans.map(\.width).min() ?? 1
        return max(1, base * config.cellAspect.height / config.cellAspect.width) + config.captionHeight
    }

    func encodeOptions(
        of configuration: LayoutConfiguration,
        to container: inout KeyedEncodingContainer<LayoutConfiguration.CodingKeys>
    ) throws {
        try container.encode(configuration.cellAspect, forKey: .cellAspect)
        try container.encode(configuration.fit, forKey: .fit)
        if configuration.order != .across { try container.encode(configuration.order, forKey: .order) }
        let gaps = Dictionary(uniqueKeysWithValues: configuration.rowGapsAfter.map { (String($0.key), $0.value) })
        try container.encode(gaps, forKey: .rowGapsAfter)
    }
}

extension LayoutEngine {
    /// Uniform cells, row by row (or, with down-first order, column by column within each
    /// page); images cover (cropped) or are contained (letterboxed).
    mutating func placeGrid(_ items: [Int], section: Int) throws(LayoutError) {
        let spans = columnGrid().spans
        let columns = spans.count
        let base = spans.map(\.width).min() ?? 1
        let aspect = config.cellAspect
        let imageHeight = max(1, (base * aspect.height * 2 + aspect.width) / (2 * aspect.width))
        let cellHeight = imageHeight + config.captionHeight
        var row = 0  // rows placed so far; 1-based numbers as in rowGapsAfter
        var start = 0
        while start < items.count {
            let needed = (items.count - start + columns - 1) / columns
            let rows: Int
            switch config.order {
            case .across: rows = 1
            case .down:
                try ensureRoom(cellHeight)
                rows = rowsFitting(cellHeight, after: row, upTo: needed)
            }
            let block = items[start..<min(items.count, start + rows * columns)]
            let blockRows = (block.count + columns - 1) / columns
            // Across: item n in row n / columns, column n % columns. Down: row n % rows, column
            // n / rows, so only the last column of a block can be short.
            var cells = Array(repeating: [(index: Int, column: Int)](), count: blockRows)
            for (n, index) in block.enumerated() {
                switch config.order {
                case .across: cells[n / columns].append((index, n % columns))
                case .down: cells[n % blockRows].append((index, n / blockRows))
                }
            }
            for rowCells in cells {
                row += 1
                try ensureRoom(cellHeight)
                var rowBottom = cursor
                for (index, c) in rowCells {
                    let parts = cell(x: spans[c].x, y: cursor, width: spans[c].width, imageHeight: imageHeight)
                    var placement = Placement(
                        cell: parts.cell, image: parts.image, caption: parts.caption, section: section)
                    switch config.fit {
                    case .cover:
                        placement.crop = Fitting.cover(sizes[index], in: parts.image.size, gravity: config.gravity)
                    case .contain: placement.image = Fitting.contain(sizes[index], in: parts.image)
                    }
                    try put(placement, at: index)
                    rowBottom = parts.cell.maxY
                }
                try endBlock(at: rowBottom)
                cursor += config.rowGapsAfter[row] ?? 0
            }
            start += block.count
        }
    }

    /// How many grid rows of `height` fit on the current page from the cursor, the first of
    /// them row `row + 1`, at least one and at most `limit`.
    private func rowsFitting(_ height: Int, after row: Int, upTo limit: Int) -> Int {
        var count = 1
        var top = cursor + height + config.rowGap + (config.rowGapsAfter[row + 1] ?? 0)
        while count < limit && fits(top + height) {
            count += 1
            top += height + config.rowGap + (config.rowGapsAfter[row + count] ?? 0)
        }
        return count
    }

}
