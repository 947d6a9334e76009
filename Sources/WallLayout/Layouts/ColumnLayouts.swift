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

/// The columns of a masonry or waterfall wall on the current page.
struct ColumnStack {
    /// Where each column's next tile goes.
    var tops: [Int]
    /// Each column's tiles on this page that may be cropped to level it (those below the last
    /// tile spanning it), top to bottom; kept only when `keepsRuns`.
    var run: [[Int]]
    /// Whether the runs are kept: levelling (`evenBottom`) and wide tiles (`spanWide`) read
    /// them; other walls are spared an append a tile.
    let keepsRuns: Bool
    /// Whether each column holds a tile on this page.
    var used: [Bool]
    /// The page's content bottom before this wall's tiles.
    var bottomBefore: Int

    init(top: Int, columns: Int, bottom: Int, keepsRuns: Bool) {
        tops = Array(repeating: top, count: columns)
        run = Array(repeating: [], count: columns)
        self.keepsRuns = keepsRuns
        used = Array(repeating: false, count: columns)
        bottomBefore = bottom
    }
}

extension LayoutEngine {
    /// Masonry (shortest column, leftmost within the tie tolerance) or the round-robin
    /// waterfall: images at column width, aspect kept. A tile that does not fit on the page
    /// starts the next one, all columns level again. With `spanWide`, masonry lays images
    /// wider than that ratio across adjacent columns (see ``placeSpanning(_:section:in:force:)``).
    mutating func placeColumns(_ items: [Int], section: Int, roundRobin: Bool) throws(LayoutError) {
        let spans = columnGrid().spans
        var stack = ColumnStack(
            top: cursor, columns: spans.count, bottom: bottom, keepsRuns: config.evenBottom || config.spanWide != nil)
        var waiting: Int?  // a wide image waiting for its columns to even up
        var waited = 0
        for (k, index) in items.enumerated() {
            if !roundRobin && columnSpan(of: index, columns: spans.count) > 1 {
                if let earlier = waiting { _ = try placeSpanning(earlier, section: section, in: &stack, force: true) }
                waiting = try placeSpanning(index, section: section, in: &stack, force: false) ? nil : index
                waited = 0
                continue
            }
            try placeInColumn(index, k: k, section: section, in: &stack, roundRobin: roundRobin)
            if let wide = waiting {
                waited += 1
                if try placeSpanning(wide, section: section, in: &stack, force: waited >= spans.count) { waiting = nil }
            }
        }
        if let wide = waiting { _ = try placeSpanning(wide, section: section, in: &stack, force: true) }
        if config.evenBottom { level(&stack) }
        try endBlock(at: bottom)
    }

    /// Places image `index` (the `k`-th of the wall) at column width in the shortest column
    /// (or column k mod N), on a new page when it does not fit.
    private mutating func placeInColumn(
        _ index: Int, k: Int, section: Int, in stack: inout ColumnStack, roundRobin: Bool
    ) throws(LayoutError) {
        let spans = columnGrid().spans
        var column = chooseColumn(k, stack.tops, roundRobin: roundRobin)
        let width = spans[column].width
        var height = columnTileHeight(of: index, width: width)
        // A wide image left in one column (`spanWide` lets the layout see it longer than
        // `maxAspect`) is cut to that limit here, as it would be without spanning.
        var crop: Region?
        if config.spanWide != nil, let limit = config.maxAspect,
            Double(sizes[index].width) > limit * Double(sizes[index].height)
        {
            height = max(height, Int((Double(width) / limit).rounded()))
            crop = Fitting.cover(sizes[index], in: Size(width: width, height: height), gravity: config.gravity)
        }
        if !fits(stack.tops[column] + height + config.captionHeight) {
            cursor = stack.tops[column]
            if try startPageIfNeeded(height + config.captionHeight, stack: &stack) {
                column = chooseColumn(k, stack.tops, roundRobin: roundRobin)
            }
        }
        let parts = cell(x: spans[column].x, y: stack.tops[column], width: spans[column].width, imageHeight: height)
        try put(
            Placement(cell: parts.cell, image: parts.image, caption: parts.caption, crop: crop, section: section),
            at: index)
        stack.tops[column] = parts.cell.maxY + config.rowGap
        if stack.keepsRuns { stack.run[column].append(index) }
        stack.used[column] = true
        bottom = max(bottom, parts.cell.maxY)
    }

    /// Makes room for a block `height` tall at the cursor; when that ends the page (levelled
    /// first with `evenBottom`), the stack starts again at the new page's top.
    private mutating func startPageIfNeeded(_ height: Int, stack: inout ColumnStack) throws(LayoutError) -> Bool {
        // The page ends here when it holds anything: level it first.
        let top = cursor
        if config.evenBottom && pageHasContent && !fits(top + height) { level(&stack) }
        cursor = top
        guard try ensureRoom(height) else { return false }
        stack = ColumnStack(top: cursor, columns: stack.tops.count, bottom: bottom, keepsRuns: stack.keepsRuns)
        return true
    }

    /// The shortest column (leftmost within the tie tolerance), or column `k` mod N.
    private func chooseColumn(_ k: Int, _ tops: [Int], roundRobin: Bool) -> Int {
        if roundRobin { return k % tops.count }
        let lowest = tops.min()!
        return tops.firstIndex { $0 <= lowest + config.tieTolerance }!
    }

    /// How many columns image `index` spans: 1, or for an image wider than `spanWide` times
    /// its height as many as keep its shape, ⌈aspect ÷ spanWide⌉, at most all of them.
    func columnSpan(of index: Int, columns: Int) -> Int {
        guard let ratio = config.spanWide, columns > 1 else { return 1 }
        let aspect = Double(sizes[index].width) / Double(sizes[index].height)
        guard aspect > ratio else { return 1 }
        return min(columns, Int((aspect / ratio).rounded(.up)))
    }

    /// Places wide image `index` across adjacent columns, under the lowest of their tops, so
    /// that no hole opens above it: the window whose tops are highest is chosen among those
    /// whose shorter columns can be evened up by their last tiles growing (cropped at the
    /// sides by the gravity) by at most half their height. When no window can, it waits
    /// (`false`) for the next images to fill the short columns, unless `force`d: then the
    /// last tiles grow as much as needed, or, where a column has no tile of its own to grow
    /// (a wide tile ends it), the image goes in one column, cropped to `maxAspect`, as it
    /// would without `spanWide`.
    mutating func placeSpanning(
        _ index: Int, section: Int, in stack: inout ColumnStack, force: Bool
    ) throws(LayoutError) -> Bool {
        let spans = columnGrid().spans
        let span = columnSpan(of: index, columns: spans.count)
        // How far column `c`'s last tile must grow to end a row gap above `top`: `nil` when it
        // must and the column has no tile of its own to grow.
        func growth(_ c: Int, to top: Int) -> (last: Int?, pixels: Int)? {
            guard stack.tops[c] < top else { return (nil, 0) }
            guard let last = stack.run[c].last else { return nil }
            return (last, top - stack.tops[c])
        }
        func width(from start: Int) -> Int {
            spans[start + span - 1].x + spans[start + span - 1].width - spans[start].x
        }
        var best: (start: Int, top: Int, bounded: Bool)?
        for start in 0...(spans.count - span) {
            let window = start..<start + span
            let top = window.map { stack.tops[$0] }.max()!
            let grown = window.map { growth($0, to: top) }
            guard grown.allSatisfy({ $0 != nil }) else { continue }
            let bounded = grown.allSatisfy { g in g!.pixels <= (g!.last.map { placements[$0].image.height / 2 } ?? 0) }
            if let b = best, (b.bounded && !bounded) || (b.bounded == bounded && b.top <= top) { continue }
            best = (start, top, bounded)
        }
        guard let chosen = best, chosen.bounded || force else {
            if !force { return false }
            try placeInColumn(index, k: 0, section: section, in: &stack, roundRobin: false)
            return true
        }
        var (start, top) = (chosen.start, chosen.top)
        var height = Fitting.scaledHeight(of: sizes[index], toWidth: width(from: start))
        if !fits(top + height + config.captionHeight) {
            cursor = top
            if try startPageIfNeeded(height + config.captionHeight, stack: &stack) {
                (start, top) = (0, cursor)  // columns may differ by a pixel: the height follows
                height = Fitting.scaledHeight(of: sizes[index], toWidth: width(from: start))
            }
        }
        for c in start..<start + span {
            guard let grown = growth(c, to: top), let last = grown.last else { continue }
            var p = placements[last]
            p.image.height += grown.pixels
            p.cell.height += grown.pixels
            p.caption?.y += grown.pixels
            p.crop = columnCrop(of: last, in: p.image.size)
            placements[last] = p
            stack.tops[c] = top
            bottom = max(bottom, p.cell.maxY)
        }
        let parts = cell(x: spans[start].x, y: top, width: width(from: start), imageHeight: height)
        try put(Placement(cell: parts.cell, image: parts.image, caption: parts.caption, section: section), at: index)
        for c in start..<start + span {
            stack.tops[c] = parts.cell.maxY + config.rowGap
            stack.run[c] = []  // the tiles above a wide one stay as they are
            stack.used[c] = true
        }
        bottom = max(bottom, parts.cell.maxY)
        return true
    }

    /// The part of image `index` a column tile of `size` shows once its height was changed:
    /// cropped to cover the tile, or, for an image narrower than the tile that is not
    /// enlarged, cut only to the tile's height (it is drawn at its own width).
    func columnCrop(of index: Int, in size: Size) -> Region? {
        let source = sizes[index]
        guard !config.upscale && source.width <= size.width else {
            return Fitting.cover(source, in: size, gravity: config.gravity)
        }
        guard source.height > size.height else { return nil }
        return Fitting.cover(source, in: Size(width: source.width, height: size.height), gravity: config.gravity)
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

    /// Crops the last tiles of the columns in `stack` so that every column ends where the
    /// shortest does: a column's excess is taken from its fewest last tiles that can give it,
    /// each losing a share in proportion to its height and never more than a quarter of it
    /// (cropped by the gravity); the tiles below a cropped one move up. A column that cannot
    /// give all its excess (or whose last tile spans others) ends as close as it can.
    mutating func level(_ stack: inout ColumnStack) {
        let ends = stack.tops.indices.map { stack.used[$0] ? stack.tops[$0] - config.rowGap : nil }
        guard let target = ends.compactMap({ $0 }).min() else { return }
        var lowest = stack.bottomBefore
        for (c, tiles) in stack.run.enumerated() {
            guard let end = ends[c] else { continue }
            let losses = LayoutEngine.losses(excess: end - target, heights: tiles.map { placements[$0].image.height })
            var shift = 0
            for (n, index) in tiles.enumerated() {
                var p = placements[index]
                p.cell.y -= shift
                p.image.y -= shift
                if losses[n] > 0 {
                    p.image.height -= losses[n]
                    p.cell.height -= losses[n]
                    p.crop = columnCrop(of: index, in: p.image.size)
                }
                p.caption?.y -= shift + losses[n]
                shift += losses[n]
                placements[index] = p
            }
            stack.tops[c] -= shift
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

}
