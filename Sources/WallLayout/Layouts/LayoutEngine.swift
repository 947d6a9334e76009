import WallCore

extension LayoutConfiguration {
    /// Lays out images of the given displayed sizes.
    ///
    /// - Parameters:
    ///   - sizes: each image's displayed size, in input order.
    ///   - sections: the group of each image (e.g. its folder). Groups are laid out one after
    ///     another in order of first appearance, each under a header band of
    ///     `sectionHeaderHeight`; `nil` lays out one wall without headers.
    public func arrange(_ sizes: [Size], sections: [Int]? = nil) throws(LayoutError) -> Arrangement {
        try validate()
        for (i, size) in sizes.enumerated() where size.width <= 0 || size.height <= 0 {
            throw .invalid("image \(i) has no area (\(size))")
        }
        if let sections, sections.count != sizes.count {
            throw .invalid("\(sections.count) section numbers for \(sizes.count) images")
        }
        var engine = LayoutEngine(configuration: self, sizes: sizes)
        let groups = sections.map(LayoutEngine.groups) ?? [Array(sizes.indices)]
        for (number, members) in groups.enumerated() {
            if sections != nil { try engine.placeHeader(section: number) }
            var items = members[...]
            if number == 0 && hero > 0 {
                try engine.placeHeroes(Array(items.prefix(hero)), section: number)
                items = items.dropFirst(hero)
            }
            try engine.placeWall(Array(items), section: number)
        }
        return engine.finish()
    }
}

/// The running state of one layout: placements so far and the vertical cursor.
struct LayoutEngine {
    let config: LayoutConfiguration
    let sizes: [Size]
    /// One per image; every slot is written exactly once before `finish`.
    var placements: [Placement]
    var headers: [SectionHeader] = []
    /// Where the next block starts.
    var cursor: Int
    /// The lowest content edge so far.
    var bottom: Int
    /// The rightmost content edge so far (strips size the sheet to it).
    var right: Int

    init(configuration: LayoutConfiguration, sizes: [Size]) {
        config = configuration
        self.sizes = sizes
        let unset = Rect(x: 0, y: 0, width: 0, height: 0)
        placements = Array(repeating: Placement(cell: unset, image: unset), count: sizes.count)
        cursor = configuration.padding.top
        bottom = configuration.padding.top
        right = configuration.padding.left
    }

    /// Groups in order of first appearance, members in input order.
    static func groups(_ sections: [Int]) -> [[Int]] {
        var order: [Int: Int] = [:]
        var groups: [[Int]] = []
        for (index, section) in sections.enumerated() {
            if let slot = order[section] {
                groups[slot].append(index)
            } else {
                order[section] = groups.count
                groups.append([index])
            }
        }
        return groups
    }

    var innerWidth: Int? { config.innerWidth }
    var left: Int { config.padding.left }

    /// Records a block whose content ends at `blockBottom`; the next starts a row gap below.
    mutating func endBlock(at blockBottom: Int) throws(LayoutError) {
        try checkHeight(blockBottom)
        bottom = blockBottom
        cursor = blockBottom + config.rowGap
    }

    mutating func put(_ placement: Placement, at index: Int) throws(LayoutError) {
        try checkHeight(placement.cell.maxY)
        if placement.cell.maxX > LayoutConfiguration.maxHeight {
            throw .invalid("the wall would be over \(LayoutConfiguration.maxHeight) px wide")
        }
        placements[index] = placement
        right = max(right, placement.cell.maxX)
    }

    /// Stops a wall before its arithmetic could overflow: each step adds at most one scaled
    /// image (under 2^53 px from 31-bit sizes and a 10^6 px width or row height), so checking
    /// every edge against 2^40 keeps all sums in range.
    func checkHeight(_ edge: Int) throws(LayoutError) {
        if edge > LayoutConfiguration.maxHeight {
            throw .invalid("the wall would be over \(LayoutConfiguration.maxHeight) px tall")
        }
    }

    /// A cell of `image` size plus the caption band under it.
    func cell(x: Int, y: Int, width: Int, imageHeight: Int) -> (cell: Rect, image: Rect, caption: Rect?) {
        let image = Rect(x: x, y: y, width: width, height: imageHeight)
        let caption = config.captionHeight > 0
            ? Rect(x: x, y: y + imageHeight, width: width, height: config.captionHeight) : nil
        return (Rect(x: x, y: y, width: width, height: imageHeight + config.captionHeight), image, caption)
    }

    mutating func placeHeader(section: Int) throws(LayoutError) {
        let width = innerWidth ?? max(1, right - left)
        headers.append(SectionHeader(section: section, frame: Rect(x: left, y: cursor, width: width, height: config.sectionHeaderHeight)))
        try endBlock(at: cursor + config.sectionHeaderHeight)
    }

    /// Each hero image spans the content width, no taller than it is wide (then cropped).
    mutating func placeHeroes(_ items: [Int], section: Int) throws(LayoutError) {
        guard let width = innerWidth else { return }
        for index in items {
            let natural = Fitting.scaledHeight(of: sizes[index], toWidth: width)
            let height = min(natural, width)
            let parts = cell(x: left, y: cursor, width: width, imageHeight: height)
            let crop = height < natural ? Fitting.cover(sizes[index], in: parts.image.size, gravity: config.gravity) : nil
            try put(Placement(cell: parts.cell, image: parts.image, caption: parts.caption, crop: crop, section: section), at: index)
            try endBlock(at: parts.cell.maxY)
        }
    }

    mutating func placeWall(_ items: [Int], section: Int) throws(LayoutError) {
        guard !items.isEmpty else { return }
        switch config.kind {
        case .masonry: try placeColumns(items, section: section, roundRobin: false)
        case .columns: try placeColumns(items, section: section, roundRobin: true)
        case .grid: try placeGrid(items, section: section)
        case .justified: try placeJustified(items, section: section)
        case .mosaic: try placeMosaic(items, section: section)
        case .strip: try placeStrip(items, section: section)
        }
    }

    func columnGrid() -> ColumnGrid {
        // validate() has checked that this grid exists.
        (try? ColumnGrid(
            width: config.width ?? 0, columns: config.resolvedColumns, gap: config.columnGap,
            left: config.padding.left, right: config.padding.right))!
    }

    consuming func finish() -> Arrangement {
        let width = config.kind == .strip ? max(1, right + config.padding.right) : config.width ?? 1
        let canvas = Size(width: width, height: max(1, bottom + config.padding.bottom))
        var result = placements
        var headers = self.headers
        if config.direction == .rtl {
            for i in result.indices { result[i] = result[i].mirrored(width: canvas.width) }
            headers = headers.map {
                SectionHeader(section: $0.section, frame: Rect(x: canvas.width - $0.frame.maxX, y: $0.frame.y, width: $0.frame.width, height: $0.frame.height))
            }
        }
        return Arrangement(canvas: canvas, placements: result, sectionHeaders: headers)
    }
}
