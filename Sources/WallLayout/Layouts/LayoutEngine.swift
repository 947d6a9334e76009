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
            throw .unplaceable(reason: "image \(i) has no area (\(size))")
        }
        if let sections, sections.count != sizes.count {
            throw .unplaceable(reason: "\(sections.count) section numbers for \(sizes.count) images")
        }
        // Extreme shapes are cut to the aspect limit first; every layout then sees ordinary ones.
        let limit = AspectLimit(maxAspect)
        // Wide images that span columns may be as long as the limit times the columns.
        let wideLimit = spanWide == nil ? limit : AspectLimit(maxAspect.map { $0 * Double(resolvedColumns) })
        func shape(of size: Size) -> AspectLimit.Shape {
            (size.width > size.height ? wideLimit : limit).shape(of: size, gravity: gravity)
        }
        var laidOut = sizes
        var cut: [Int] = []  // the images cut (of random shapes, a quarter)
        for (i, size) in sizes.enumerated() {
            let shape = shape(of: size)
            if shape.crop != nil {
                laidOut[i] = shape.size
                cut.append(i)
            }
        }
        var engine = LayoutEngine(configuration: self, sizes: laidOut)
        let groups = sections.map(LayoutEngine.groups) ?? [Array(sizes.indices)]
        if titleHeight > 0 { try engine.placeTitle() }
        for (number, members) in groups.enumerated() {
            if sections != nil { try engine.placeHeader(section: number, before: members) }
            var items = members[...]
            if number == 0 && hero > 0 {
                try engine.placeHeroes(Array(items.prefix(hero)), section: number)
                items = items.dropFirst(hero)
            }
            try engine.placeWall(Array(items), section: number)
        }
        guard !cut.isEmpty || !upscale else { return try engine.finish() }
        // The cut images' crops (their shapes found again rather than kept) and the sizes kept
        // are settled on the placements in place: a million placements are not copied.
        return try engine.finish { placements in
            for i in cut { placements[i].crop = shape(of: sizes[i]).compose(placements[i].crop) }
            if !upscale {
                for i in placements.indices { placements[i] = placements[i].notEnlarged(from: sizes[i]) }
            }
        }
    }
}

extension Placement {
    /// The placement with its image drawn no larger than the pixels it shows (its crop, or the
    /// whole `size`), centred where it was.
    func notEnlarged(from size: Size) -> Placement {
        let shown = crop.map { ($0.width, $0.height) } ?? (Double(size.width), Double(size.height))
        let width = min(image.width, max(1, Int(shown.0.rounded())))
        let height = min(image.height, max(1, Int(shown.1.rounded())))
        guard width < image.width || height < image.height else { return self }
        var small = self
        small.image = Rect(
            x: image.x + (image.width - width) / 2, y: image.y + (image.height - height) / 2, width: width,
            height: height)
        return small
    }
}

/// The longest shape a tile may have: an image taller or wider than `ratio` times its other
/// side is cut to that shape before layout.
struct AspectLimit {
    var ratio: Double?

    init(_ ratio: Double?) { self.ratio = ratio }

    /// What a layout sees of an image: its size, or the size of the part the limit keeps and
    /// that part (`crop`, in the image's pixels).
    struct Shape {
        var size: Size
        var crop: Region?

        /// The part of the image shown, given the part of this shape a layout shows (`nil`: all).
        func compose(_ inner: Region?) -> Region? {
            guard let crop else { return inner }
            guard let inner else { return crop }
            let sx = crop.width / Double(size.width), sy = crop.height / Double(size.height)
            return Region(
                x: crop.x + inner.x * sx, y: crop.y + inner.y * sy, width: inner.width * sx, height: inner.height * sy)
        }
    }

    /// The shape a layout sees for an image of `size`, cut by `gravity` when it is too long.
    func shape(of size: Size, gravity: Gravity) -> Shape {
        guard let ratio, size.width > 0, size.height > 0 else { return Shape(size: size) }
        var limited = size
        if Double(size.height) > ratio * Double(size.width) {
            limited.height = max(1, Int((Double(size.width) * ratio).rounded()))
        } else if Double(size.width) > ratio * Double(size.height) {
            limited.width = max(1, Int((Double(size.height) * ratio).rounded()))
        }
        guard limited != size, let crop = Fitting.cover(size, in: limited, gravity: gravity) else {
            return Shape(size: size)
        }
        return Shape(size: limited, crop: crop)
    }
}

/// The running state of one layout: placements so far, the vertical cursor and the pages.
///
/// Coordinates are virtual while laying out: page p starts at `pageTops[p]`, so one number
/// line holds every page. `finish` turns them into page coordinates.
struct LayoutEngine {
    let config: LayoutConfiguration
    let sizes: [Size]
    /// One per image; every slot is written exactly once before `finish`.
    var placements: [Placement]
    var headers: [SectionHeader] = []
    var title: Rect?
    /// Where the next block starts.
    var cursor: Int
    /// The lowest content edge so far on the current page.
    var bottom: Int
    /// The rightmost content edge so far (strips size the sheet to it).
    var right: Int
    /// Virtual top edge of each page; the last is the current page.
    var pageTops: [Int] = [0]
    /// Content bottom of each finished page.
    var pageBottoms: [Int] = []
    /// `true` once the current page holds something.
    var pageHasContent = false
    let pageLimit: Int?
    /// The columns of the layouts that have them, made once (`nil` for those without).
    private let columns: ColumnGrid?

    init(configuration: LayoutConfiguration, sizes: [Size]) {
        config = configuration
        self.sizes = sizes
        let unset = Rect(x: 0, y: 0, width: 0, height: 0)
        placements = Array(repeating: Placement(cell: unset, image: unset), count: sizes.count)
        cursor = configuration.padding.top
        bottom = configuration.padding.top
        right = configuration.padding.left
        pageLimit = configuration.pageHeightLimit
        columns = try? ColumnGrid(
            width: configuration.width ?? 0, columns: configuration.resolvedColumns, gap: configuration.columnGap,
            left: configuration.padding.left, right: configuration.padding.right)
    }

    var page: Int { pageTops.count - 1 }

    /// Whether content reaching down to `edge` (virtual) still fits on the current page.
    func fits(_ edge: Int) -> Bool {
        guard let pageLimit else { return true }
        return edge - pageTops[page] + config.padding.bottom <= pageLimit
    }

    /// Makes room for a block `height` tall at the cursor, on a new page if need be; returns
    /// `true` when a page was started.
    @discardableResult
    mutating func ensureRoom(_ height: Int) throws(LayoutError) -> Bool {
        if fits(cursor + height) { return false }
        let started = pageHasContent
        if started { startPage() }
        if !fits(cursor + height) {
            throw .tooLarge(
                reason: "a block \(height) px tall does not fit on a page of at most \(pageLimit ?? 0) px "
                    + "with \(config.padding.top)+\(config.padding.bottom) px of padding; allow taller pages")
        }
        return started
    }

    /// Ends the current page at `bottom` and moves the cursor to the top of the next.
    mutating func startPage() {
        pageBottoms.append(bottom)
        let top = bottom + config.padding.bottom
        pageTops.append(top)
        cursor = top + config.padding.top
        bottom = cursor
        pageHasContent = false
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
        bottom = max(bottom, blockBottom)
        cursor = blockBottom + config.rowGap
    }

    mutating func put(_ placement: Placement, at index: Int) throws(LayoutError) {
        try checkHeight(placement.cell.maxY)
        if placement.cell.maxX > LayoutConfiguration.maxHeight {
            throw .tooLarge(reason: "the wall would be over \(LayoutConfiguration.maxHeight) px wide")
        }
        var placement = placement
        placement.page = page
        placements[index] = placement
        right = max(right, placement.cell.maxX)
        pageHasContent = true
    }

    /// Stops a wall before its arithmetic could overflow: each step adds at most one scaled
    /// image (under 2^53 px from 31-bit sizes and a 10^6 px width or row height), so checking
    /// every edge against 2^40 keeps all sums in range.
    func checkHeight(_ edge: Int) throws(LayoutError) {
        if edge > LayoutConfiguration.maxHeight {
            throw .tooLarge(reason: "the wall would be over \(LayoutConfiguration.maxHeight) px tall")
        }
    }

    /// A cell of `image` size plus the caption band under it.
    func cell(x: Int, y: Int, width: Int, imageHeight: Int) -> (cell: Rect, image: Rect, caption: Rect?) {
        let image = Rect(x: x, y: y, width: width, height: imageHeight)
        let caption =
            config.captionHeight > 0
            ? Rect(x: x, y: y + imageHeight, width: width, height: config.captionHeight) : nil
        return (Rect(x: x, y: y, width: width, height: imageHeight + config.captionHeight), image, caption)
    }

    mutating func placeTitle() throws(LayoutError) {
        let width = innerWidth ?? 1
        try ensureRoom(config.titleHeight)
        title = Rect(x: left, y: cursor, width: width, height: config.titleHeight)
        pageHasContent = true
        try endBlock(at: cursor + config.titleHeight)
    }

    /// A header band, kept on the same page as the first row of its section.
    mutating func placeHeader(section: Int, before members: [Int]) throws(LayoutError) {
        let first = members.first.map { firstRowHeight(of: $0) } ?? 0
        try ensureRoom(config.sectionHeaderHeight + config.rowGap + first)
        let width = innerWidth ?? max(1, right - left)
        headers.append(
            SectionHeader(
                section: section, frame: Rect(x: left, y: cursor, width: width, height: config.sectionHeaderHeight),
                page: page))
        pageHasContent = true
        try endBlock(at: cursor + config.sectionHeaderHeight)
    }

    /// About how tall the first row of a wall starting with image `index` is.
    func firstRowHeight(of index: Int) -> Int {
        config.kind.strategy.firstRowHeight(of: index, in: self)
    }

    /// Each hero image spans the content width, no taller than it is wide (then cropped).
    mutating func placeHeroes(_ items: [Int], section: Int) throws(LayoutError) {
        guard let width = innerWidth else { return }
        for index in items {
            // An image narrower than the wall, when images are not enlarged, keeps its size.
            let small = !config.upscale && sizes[index].width < width
            let natural = small ? sizes[index].height : Fitting.scaledHeight(of: sizes[index], toWidth: width)
            var height = min(natural, width)
            if let pageLimit {  // a hero shrinks to fit a page rather than refuse it
                height = max(
                    1, min(height, pageLimit - config.padding.top - config.padding.bottom - config.captionHeight))
            }
            try ensureRoom(height + config.captionHeight)
            let parts = cell(x: left, y: cursor, width: width, imageHeight: height)
            let shown = small ? Size(width: sizes[index].width, height: height) : parts.image.size
            let crop = height < natural ? Fitting.cover(sizes[index], in: shown, gravity: config.gravity) : nil
            try put(
                Placement(cell: parts.cell, image: parts.image, caption: parts.caption, crop: crop, section: section),
                at: index)
            try endBlock(at: parts.cell.maxY)
        }
    }

    mutating func placeWall(_ items: [Int], section: Int) throws(LayoutError) {
        guard !items.isEmpty else { return }
        try config.kind.strategy.place(items, section: section, in: &self)
    }

    func columnGrid() -> ColumnGrid {
        // validate() has checked that this grid exists.
        columns!
    }

    /// The arrangement: placements in page coordinates (mirrored for right to left), then
    /// `settle`d.
    mutating func finish(settling settle: (inout [Placement]) -> Void = { _ in }) throws(LayoutError) -> Arrangement {
        // Taken out of the engine, so that they are changed in place: a reference left behind
        // (as a consuming `finish` kept one) copies a million placements at the first change.
        var placements = self.placements
        self.placements = []
        pageBottoms.append(bottom)
        let width = config.kind.strategy.widthFollowsContent ? max(1, right + config.padding.right) : config.width ?? 1
        let pages = zip(pageTops, pageBottoms).map { top, bottom in
            Size(width: width, height: max(1, bottom - top + config.padding.bottom))
        }
        var headers = self.headers
        var title = self.title
        let tops = pageTops
        let mirror = config.direction == .rtl
        if tops.count > 1 || mirror {  // page coordinates and mirroring, in place
            for i in placements.indices {
                var p = placements[i].offset(dx: 0, dy: -tops[placements[i].page])
                if mirror { p = p.mirrored(width: width) }
                placements[i] = p
            }
        }
        for i in headers.indices {
            headers[i].frame = headers[i].frame.offset(dx: 0, dy: -tops[headers[i].page])
            if mirror { headers[i].frame = headers[i].frame.mirrored(width: width) }
        }
        if mirror { title = title?.mirrored(width: width) }
        settle(&placements)
        return Arrangement(pages: pages, placements: placements, sectionHeaders: headers, title: title)
    }
}
