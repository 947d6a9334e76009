import WallCore

/// Every option that shapes a wall. Each layout reads the options that apply to it and
/// ignores the rest.
public struct LayoutConfiguration: Hashable, Sendable, Codable {
    /// Which layout.
    public var kind: LayoutKind = .masonry
    /// The sheet width, padding included. For `strip`, the maximum width (`nil`: unbounded).
    public var width: Int? = 2000
    /// The number of columns (masonry, columns, grid, mosaic), unless `columnWidth` is set.
    public var columns: Int = 4
    /// A target column width; the column count follows, clamped to `minColumns...maxColumns`.
    public var columnWidth: Int?
    /// Fewest columns `columnWidth` may give.
    public var minColumns: Int = 1
    /// Most columns `columnWidth` may give.
    public var maxColumns: Int = 1000
    /// Space between columns (and between images in a row).
    public var columnGap: Int = 10
    /// Space between rows (and between images in a column).
    public var rowGap: Int = 10
    /// Space kept clear inside the sheet's edges.
    public var padding = Insets(all: 10)
    /// Space reserved under each image for its caption.
    public var captionHeight: Int = 0
    /// Reading direction.
    public var direction: Direction = .ltr
    /// Masonry and columns: the last tiles of each column are cropped (each by at most a
    /// quarter of its height) so that the columns of every page and section end level.
    public var evenBottom = false
    /// Masonry: an image wider than this many times its height spans adjacent columns,
    /// ⌈aspect ÷ ratio⌉ of them, instead of being cut to `maxAspect` in one (its limit is then
    /// `maxAspect` times the column count); `nil`: every image takes one column.
    public var spanWide: Double?
    /// Masonry: columns whose bottoms are within this many pixels count as level.
    public var tieTolerance: Int = 0
    /// Grid: the shape of a cell's image area.
    public var cellAspect = AspectRatio(width: 1, height: 1)
    /// Grid: how an image fills its cell.
    public var fit: Fit = .cover
    /// Grid: whether the cells fill row by row or, on each page, column by column.
    public var order: TileOrder = .across
    /// Which part of an image cover crops keep.
    public var gravity: Gravity = .center
    /// Images taller or wider than this many times their other side are cropped to that shape
    /// (by `gravity`) before any layout places them, so long screenshots and panoramas stay
    /// ordinary tiles; `nil`: no limit.
    public var maxAspect: Double? = 3
    /// `false`: an image smaller than its tile is drawn at its own size, centred in the tile,
    /// rather than enlarged to fill it.
    public var upscale = true
    /// Grid: extra space after a row (1-based row number → pixels).
    public var rowGapsAfter: [Int: Int] = [:]
    /// Justified and strip: the target row height of the images.
    public var rowHeight: Int = 300
    /// Justified: rows never grow taller than this times `rowHeight`; images are cropped.
    public var maxRowHeightRatio: Double = 1.5
    /// Justified: how the last row is set.
    public var lastRow: LastRow = .left
    /// Masonry, columns, justified: the first images span the full width above the wall.
    public var hero: Int = 0
    /// Height of each section's header band, when the images are grouped.
    public var sectionHeaderHeight: Int = 48
    /// Height of a title band across the top of the first page (0: none).
    public var titleHeight: Int = 0
    /// Pages are at most this tall; the wall continues on a new page (never cutting a tile).
    public var maxPageHeight: Int?
    /// Pages hold at most this many pixels (width × height); sets a height limit like
    /// `maxPageHeight`.
    public var maxPagePixels: Int?

    /// The largest sheet width (and row height) ImageWall lays out.
    public static let maxSide = 1_000_000
    /// The tallest sheet the engine lays out, 2^40 px; the renderer splits or refuses far
    /// smaller ones.
    public static let maxHeight = 1 << 40

    /// A configuration with every default: masonry, 2000 px, 4 columns, 10 px gaps.
    public init() {}

    /// A configuration of `kind` with its defaults.
    public init(kind: LayoutKind) {
        self.kind = kind
        if kind.strategy.widthFollowsContent { width = nil }
    }

    /// The tallest a page may be, from `maxPageHeight` and `maxPagePixels`.
    public var pageHeightLimit: Int? {
        let byPixels = maxPagePixels.flatMap { pixels in width.map { pixels / max(1, $0) } }
        switch (maxPageHeight, byPixels) {
        case (let a?, let b?): return min(a, b)
        case (let a?, nil): return a
        case (nil, let b): return b
        }
    }

    /// The content width: `width` minus left and right padding.
    var innerWidth: Int? { width.map { $0 - padding.left - padding.right } }

    /// The column count in force: `columns`, or the count `columnWidth` gives.
    public var resolvedColumns: Int {
        guard let columnWidth, let inner = innerWidth, columnWidth > 0 else { return columns }
        let fitting = (inner + columnGap) / (columnWidth + columnGap)
        return min(max(fitting, max(1, minColumns)), max(minColumns, maxColumns))
    }

    /// Checks every option and the geometry they make together; the error names the option.
    public func validate() throws(LayoutError) {
        /// Refuses `option` (its coding key) with `message` unless `condition` holds.
        func require(_ condition: Bool, _ option: CodingKeys, _ message: @autoclosure () -> String)
            throws(LayoutError)
        {
            if !condition { throw .option(option.stringValue, reason: message()) }
        }
        /// Refuses `option` (its coding key), which only the `allowed` layouts take, unless
        /// `condition` holds.
        func require(
            _ condition: Bool, _ option: CodingKeys, onlyIn allowed: [LayoutKind], _ message: @autoclosure () -> String
        ) throws(LayoutError) {
            if !condition {
                throw .notForLayout(option.stringValue, layout: kind, takenBy: allowed, reason: message())
            }
        }
        if let width {
            try require(width >= 1, .width, "width must be at least 1 px (got \(width))")
            try require(width <= Self.maxSide, .width, "width must be at most \(Self.maxSide) px (got \(width))")
        } else {
            try require(kind.strategy.widthFollowsContent, .width, "width is required for the \(kind.rawValue) layout")
        }
        for (option, name, value) in [
            (CodingKeys.columnGap, "column gap", columnGap), (.rowGap, "row gap", rowGap),
            (.captionHeight, "caption height", captionHeight), (.tieTolerance, "tie tolerance", tieTolerance),
            (.hero, "hero", hero), (.sectionHeaderHeight, "section header height", sectionHeaderHeight),
            (.titleHeight, "title height", titleHeight),
        ] {
            try require(value >= 0, option, "\(name) cannot be negative (got \(value))")
        }
        for (side, value) in [
            ("top", padding.top), ("right", padding.right), ("bottom", padding.bottom), ("left", padding.left),
        ] {
            try require(value >= 0, .padding, "\(side) padding cannot be negative (got \(value))")
        }
        if let inner = innerWidth {
            try require(
                inner >= 1, .padding,
                "padding of \(padding.left)+\(padding.right) px leaves no room in \(width ?? 0) px")
        }
        try require(rowHeight >= 1, .rowHeight, "row height must be at least 1 px (got \(rowHeight))")
        try require(rowHeight <= Self.maxSide, .rowHeight, "row height must be at most \(Self.maxSide) px")
        try require(
            maxRowHeightRatio >= 1 && maxRowHeightRatio.isFinite, .maxRowHeightRatio,
            "max row height ratio must be at least 1 (got \(maxRowHeightRatio))")
        try require(
            minColumns >= 1 && maxColumns >= minColumns, minColumns >= 1 ? .maxColumns : .minColumns,
            "column limits must satisfy 1 ≤ min ≤ max (got \(minColumns)...\(maxColumns))")
        if let columnWidth {
            try require(columnWidth >= 1, .columnWidth, "column width must be at least 1 px (got \(columnWidth))")
        }
        for (row, extra) in rowGapsAfter {
            try require(
                row >= 1 && extra >= 0, .rowGapsAfter,
                "row gap after row \(row) must be a row ≥ 1 and pixels ≥ 0 (got \(row):\(extra))")
        }
        try require(
            cellAspect.width > 0 && cellAspect.height > 0, .cellAspect,
            "cell aspect must be positive (got \(cellAspect))")
        if let maxAspect {
            try require(
                maxAspect >= 1 && maxAspect.isFinite, .maxAspect, "max aspect must be at least 1 (got \(maxAspect))")
        }
        if maxPagePixels != nil {
            try require(width != nil, .maxPagePixels, "a page pixel limit needs a width")
        }
        if let limit = pageHeightLimit {
            let least = padding.top + padding.bottom + 1
            try require(
                limit >= least, limit == maxPageHeight ? .maxPageHeight : .maxPagePixels,
                "pages of at most \(limit) px cannot hold \(padding.top)+\(padding.bottom) px of padding and an image")
        }
        if let spanWide {
            try require(
                spanWide >= 1 && spanWide.isFinite, .spanWide, "the span ratio must be at least 1 (got \(spanWide))")
            try require(
                kind == .masonry, .spanWide, onlyIn: [.masonry],
                "wide images span columns in the masonry layout only, not \(kind.rawValue)")
        }
        if evenBottom {
            try require(
                kind == .masonry || kind == .columns, .evenBottom, onlyIn: [.masonry, .columns],
                "even bottoms need the masonry or columns layout, not \(kind.rawValue)")
        }
        if order == .down {
            try require(
                kind == .grid, .order, onlyIn: [.grid], "down-first order needs the grid layout, not \(kind.rawValue)")
        }
        if hero > 0 {
            let allowed = LayoutKind.withHeroes.map(\.rawValue)
            try require(
                kind.strategy.allowsHeroes, .hero, onlyIn: LayoutKind.withHeroes,
                "hero images need the \(allowed.dropLast().joined(separator: ", ")) or \(allowed.last ?? "") layout, not \(kind.rawValue)"
            )
        }
        if let least = kind.strategy.minimumColumns {
            let columns = resolvedColumns
            try require(columns >= 1, .columns, "columns must be at least 1 (got \(columns))")
            if least > 1 {
                try require(
                    columns >= least, .columns,
                    "the \(kind.rawValue) layout needs at least \(least) columns (got \(columns))")
            }
            _ = try ColumnGrid(
                width: width ?? 0, columns: columns, gap: columnGap, left: padding.left, right: padding.right)
        }
    }
}

extension LayoutConfiguration {
    enum CodingKeys: String, CodingKey {
        case kind = "name", width, columns, columnWidth, minColumns, maxColumns, columnGap, rowGap, padding
        case captionHeight, direction, tieTolerance, cellAspect, fit, order, gravity, maxAspect, rowGapsAfter, rowHeight
        case maxRowHeightRatio, lastRow, hero, sectionHeaderHeight, titleHeight, maxPageHeight, maxPagePixels, upscale,
            evenBottom, spanWide
    }

    /// Reads a configuration as the manifest records it; absent keys keep their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var config = LayoutConfiguration(kind: try c.decode(LayoutKind.self, forKey: .kind))
        config.width = try c.decodeIfPresent(Int.self, forKey: .width)
        config.columns = try c.decodeIfPresent(Int.self, forKey: .columns) ?? config.columns
        config.columnWidth = try c.decodeIfPresent(Int.self, forKey: .columnWidth)
        config.minColumns = try c.decodeIfPresent(Int.self, forKey: .minColumns) ?? config.minColumns
        config.maxColumns = try c.decodeIfPresent(Int.self, forKey: .maxColumns) ?? config.maxColumns
        config.columnGap = try c.decodeIfPresent(Int.self, forKey: .columnGap) ?? config.columnGap
        config.rowGap = try c.decodeIfPresent(Int.self, forKey: .rowGap) ?? config.rowGap
        config.padding = try c.decodeIfPresent(Insets.self, forKey: .padding) ?? config.padding
        config.captionHeight = try c.decodeIfPresent(Int.self, forKey: .captionHeight) ?? config.captionHeight
        config.direction = try c.decodeIfPresent(Direction.self, forKey: .direction) ?? config.direction
        config.tieTolerance = try c.decodeIfPresent(Int.self, forKey: .tieTolerance) ?? config.tieTolerance
        config.cellAspect = try c.decodeIfPresent(AspectRatio.self, forKey: .cellAspect) ?? config.cellAspect
        config.fit = try c.decodeIfPresent(Fit.self, forKey: .fit) ?? config.fit
        config.order = try c.decodeIfPresent(TileOrder.self, forKey: .order) ?? config.order
        config.gravity = try c.decodeIfPresent(Gravity.self, forKey: .gravity) ?? config.gravity
        // Absent in manifests written before there was a limit: their layouts had none.
        config.maxAspect = try c.decodeIfPresent(Double.self, forKey: .maxAspect)
        let gaps = try c.decodeIfPresent([String: Int].self, forKey: .rowGapsAfter) ?? [:]
        config.rowGapsAfter = Dictionary(
            uniqueKeysWithValues: gaps.compactMap { key, value in Int(key).map { ($0, value) } })
        config.rowHeight = try c.decodeIfPresent(Int.self, forKey: .rowHeight) ?? config.rowHeight
        config.maxRowHeightRatio =
            try c.decodeIfPresent(Double.self, forKey: .maxRowHeightRatio) ?? config.maxRowHeightRatio
        config.lastRow = try c.decodeIfPresent(LastRow.self, forKey: .lastRow) ?? config.lastRow
        config.hero = try c.decodeIfPresent(Int.self, forKey: .hero) ?? config.hero
        config.sectionHeaderHeight =
            try c.decodeIfPresent(Int.self, forKey: .sectionHeaderHeight) ?? config.sectionHeaderHeight
        config.titleHeight = try c.decodeIfPresent(Int.self, forKey: .titleHeight) ?? config.titleHeight
        config.maxPageHeight = try c.decodeIfPresent(Int.self, forKey: .maxPageHeight)
        config.maxPagePixels = try c.decodeIfPresent(Int.self, forKey: .maxPagePixels)
        config.upscale = try c.decodeIfPresent(Bool.self, forKey: .upscale) ?? config.upscale
        config.evenBottom = try c.decodeIfPresent(Bool.self, forKey: .evenBottom) ?? config.evenBottom
        config.spanWide = try c.decodeIfPresent(Double.self, forKey: .spanWide)
        self = config
    }

    /// Writes the configuration as the manifest records it; unset optional values are left out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(width, forKey: .width)
        try c.encode(resolvedColumns, forKey: .columns)
        try c.encodeIfPresent(columnWidth, forKey: .columnWidth)
        if columnWidth != nil {
            try c.encode(minColumns, forKey: .minColumns)
            try c.encode(maxColumns, forKey: .maxColumns)
        }
        try c.encode(columnGap, forKey: .columnGap)
        try c.encode(rowGap, forKey: .rowGap)
        try c.encode(padding, forKey: .padding)
        try c.encode(captionHeight, forKey: .captionHeight)
        try c.encode(direction, forKey: .direction)
        try kind.strategy.encodeOptions(of: self, to: &c)
        try c.encode(gravity, forKey: .gravity)
        try c.encodeIfPresent(maxAspect, forKey: .maxAspect)
        try c.encode(hero, forKey: .hero)
        try c.encode(sectionHeaderHeight, forKey: .sectionHeaderHeight)
        try c.encode(titleHeight, forKey: .titleHeight)
        try c.encodeIfPresent(maxPageHeight, forKey: .maxPageHeight)
        try c.encodeIfPresent(maxPagePixels, forKey: .maxPagePixels)
        if !upscale { try c.encode(upscale, forKey: .upscale) }
        if evenBottom { try c.encode(evenBottom, forKey: .evenBottom) }
        try c.encodeIfPresent(spanWide, forKey: .spanWide)
    }
}
