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
        let gaps = Dictionary(uniqueKeysWithValues: configuration.rowGapsAfter.map { (String($0.key), $0.value) })
        try container.encode(gaps, forKey: .rowGapsAfter)
    }
}

extension LayoutEngine {
    /// Uniform cells, row by row; images cover (cropped) or are contained (letterboxed).
    mutating func placeGrid(_ items: [Int], section: Int) throws(LayoutError) {
        let spans = columnGrid().spans
        let columns = spans.count
        let base = spans.map(\.width).min() ?? 1
        let aspect = config.cellAspect
        let imageHeight = max(1, (base * aspect.height * 2 + aspect.width) / (2 * aspect.width))
        var row = 0
        for start in stride(from: 0, to: items.count, by: columns) {
            row += 1  // 1-based, as in rowGapsAfter
            try ensureRoom(imageHeight + config.captionHeight)
            var rowBottom = cursor
            for (c, index) in items[start..<min(items.count, start + columns)].enumerated() {
                let parts = cell(x: spans[c].x, y: cursor, width: spans[c].width, imageHeight: imageHeight)
                var placement = Placement(
                    cell: parts.cell, image: parts.image, caption: parts.caption, section: section)
                switch config.fit {
                case .cover: placement.crop = Fitting.cover(sizes[index], in: parts.image.size, gravity: config.gravity)
                case .contain: placement.image = Fitting.contain(sizes[index], in: parts.image)
                }
                try put(placement, at: index)
                rowBottom = parts.cell.maxY
            }
            try endBlock(at: rowBottom)
            cursor += config.rowGapsAfter[row] ?? 0
        }
    }
}
