import WallCore

/// Masonry: each image, in order, to the column whose bottom is highest (leftmost within the
/// tie tolerance), at column width, aspect kept.
struct MasonryLayout: LayoutStrategy {
    var summary: String { "each image to the shortest column, leftmost on ties" }
    var allowsHeroes: Bool { true }

    func place(_ items: [Int], section: Int, in engine: inout LayoutEngine) throws(LayoutError) {
        try engine.placeColumns(items, section: section, roundRobin: false)
    }

    func firstRowHeight(of index: Int, in engine: LayoutEngine) -> Int { engine.firstColumnTileHeight(of: index) }

    func encodeOptions(
        of configuration: LayoutConfiguration,
        to container: inout KeyedEncodingContainer<LayoutConfiguration.CodingKeys>
    ) throws {
        try container.encode(configuration.tieTolerance, forKey: .tieTolerance)
    }
}

/// The round-robin waterfall: image i to column i mod N, so reading order stays by row.
struct RoundRobinLayout: LayoutStrategy {
    var summary: String { "image i to column i mod N" }
    var allowsHeroes: Bool { true }

    func place(_ items: [Int], section: Int, in engine: inout LayoutEngine) throws(LayoutError) {
        try engine.placeColumns(items, section: section, roundRobin: true)
    }

    func firstRowHeight(of index: Int, in engine: LayoutEngine) -> Int { engine.firstColumnTileHeight(of: index) }
}

extension LayoutEngine {
    /// Masonry (shortest column, leftmost within the tie tolerance) or the round-robin
    /// waterfall: images at column width, aspect kept. A tile that does not fit on the page
    /// starts the next one, all columns level again.
    mutating func placeColumns(_ items: [Int], section: Int, roundRobin: Bool) throws(LayoutError) {
        let spans = columnGrid().spans
        let columns = spans.count
        var bottoms = [Int](repeating: cursor, count: columns)
        let tolerance = config.tieTolerance
        func choose(_ k: Int) -> Int {
            if roundRobin { return k % columns }
            var lowest = bottoms[0]
            for c in 1..<columns where bottoms[c] < lowest { lowest = bottoms[c] }
            var column = 0
            while bottoms[column] > lowest + tolerance { column += 1 }
            return column
        }
        for (k, index) in items.enumerated() {
            var column = choose(k)
            let span = spans[column]
            let height = columnTileHeight(of: index, width: span.width)
            if !fits(bottoms[column] + height + config.captionHeight) {
                cursor = bottoms[column]
                if try ensureRoom(height + config.captionHeight) {
                    bottoms = [Int](repeating: cursor, count: columns)
                    column = choose(k)
                }
            }
            let parts = cell(x: spans[column].x, y: bottoms[column], width: spans[column].width, imageHeight: height)
            try put(
                Placement(cell: parts.cell, image: parts.image, caption: parts.caption, section: section), at: index)
            bottoms[column] = parts.cell.maxY + config.rowGap
            bottom = max(bottom, parts.cell.maxY)
        }
        try endBlock(at: bottom)
    }

    /// The height of image `index` in the first column, caption included.
    func firstColumnTileHeight(of index: Int) -> Int {
        columnTileHeight(of: index, width: columnGrid().spans[0].width) + config.captionHeight
    }

    /// The image height of a tile of image `index` in a column `width` wide: scaled to the
    /// width, or, when images are not enlarged, no taller than the image.
    func columnTileHeight(of index: Int, width: Int) -> Int {
        let scaled = Fitting.scaledHeight(of: sizes[index], toWidth: width)
        return config.upscale ? scaled : min(scaled, sizes[index].height)
    }
}
