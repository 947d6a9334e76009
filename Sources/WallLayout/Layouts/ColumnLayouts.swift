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
        // The tiles of each column on the current page, and the content bottom before them:
        // what `evenBottom` levels when the page or the section ends.
        var run = [[Int]](repeating: [], count: columns)
        var bottomBefore = bottom
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
                // The page ends here when it holds anything: level it first.
                if config.evenBottom && pageHasContent { level(run, bottoms: &bottoms, above: bottomBefore) }
                if try ensureRoom(height + config.captionHeight) {
                    bottoms = [Int](repeating: cursor, count: columns)
                    run = [[Int]](repeating: [], count: columns)
                    bottomBefore = bottom
                    column = choose(k)
                }
            }
            let parts = cell(x: spans[column].x, y: bottoms[column], width: spans[column].width, imageHeight: height)
            try put(
                Placement(cell: parts.cell, image: parts.image, caption: parts.caption, section: section), at: index)
            bottoms[column] = parts.cell.maxY + config.rowGap
            bottom = max(bottom, parts.cell.maxY)
            run[column].append(index)
        }
        if config.evenBottom { level(run, bottoms: &bottoms, above: bottomBefore) }
        try endBlock(at: bottom)
    }

    /// Crops the last tiles of the columns in `run` (each column's tiles on this page, top to
    /// bottom) so that every column ends where the shortest does: a column's excess is taken
    /// from its fewest last tiles that can give it, each losing a share in proportion to its
    /// height and never more than a quarter of it (cropped by the gravity); the tiles below a
    /// cropped one move up. A column that cannot give all its excess ends as close as it can.
    /// `bottoms` (next tops) and the page's content bottom (`above`: before these tiles)
    /// follow.
    mutating func level(_ run: [[Int]], bottoms: inout [Int], above: Int) {
        let ends = run.map { $0.last.map { placements[$0].cell.maxY } }
        guard let target = ends.compactMap({ $0 }).min() else { return }
        var lowest = above
        for (c, tiles) in run.enumerated() {
            guard let end = ends[c] else { continue }
            let losses = LayoutEngine.losses(
                excess: end - target, heights: tiles.map { placements[$0].image.height })
            var shift = 0
            for (n, index) in tiles.enumerated() {
                var p = placements[index]
                p.cell.y -= shift
                p.image.y -= shift
                if losses[n] > 0 {
                    p.image.height -= losses[n]
                    p.cell.height -= losses[n]
                    p.crop = Fitting.cover(sizes[index], in: p.image.size, gravity: config.gravity)
                }
                p.caption?.y -= shift + losses[n]
                shift += losses[n]
                placements[index] = p
            }
            bottoms[c] -= shift
            lowest = max(lowest, end - shift)
        }
        bottom = lowest
    }

    /// How many pixels each of a column's tiles (image heights, top to bottom) gives up so
    /// the column loses `excess`: the fewest last tiles whose quarters add up to it, in
    /// proportion to their heights (the rounding's remainder from the last tile up); every
    /// tile its quarter when all of them cannot.
    static func losses(excess: Int, heights: [Int]) -> [Int] {
        var losses = [Int](repeating: 0, count: heights.count)
        guard excess > 0, !heights.isEmpty else { return losses }
        let quarters = heights.map { $0 / 4 }
        var first = heights.count, capacity = 0
        while first > 0 && capacity < excess {
            first -= 1
            capacity += quarters[first]
        }
        guard capacity > excess else {
            for i in first..<heights.count { losses[i] = quarters[i] }
            return losses
        }
        let total = heights[first...].reduce(0, +)
        var given = 0
        for i in first..<heights.count {
            losses[i] = min(quarters[i], excess * heights[i] / total)
            given += losses[i]
        }
        var i = heights.count - 1
        while given < excess {
            if losses[i] < quarters[i] {
                losses[i] += 1
                given += 1
            }
            i = i == first ? heights.count - 1 : i - 1
        }
        return losses
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
