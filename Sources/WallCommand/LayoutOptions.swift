import ArgumentParser
import ImageWall
import WallLayout

/// The library's layout defaults: every option below starts from them, and its help shows them.
private let defaults = LayoutConfiguration()

/// The layout options `render` and `layout` share.
struct LayoutOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Layout: \(LayoutKind.names(LayoutKind.allCases)).", valueName: "name"))
    var layout: LayoutKind = defaults.kind

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Sheet width in pixels, padding included (default \(defaults.width ?? 0); for strip, a maximum that wraps). A list (1200,2400) renders each.",
            valueName: "px[,px…]"))
    var width: IntList?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Number of columns (\(LayoutKind.names(LayoutKind.allCases.filter(\.hasColumns), last: ", ")); default \(defaults.columns)). A list (2,3,4,6) renders each.",
            valueName: "n[,n…]"))
    var columns: IntList?

    /// The column counts asked for, or the default one.
    var columnCounts: [Int] { columns?.values ?? [defaults.columns] }

    /// Whether the sheet's size was asked for: a width, column counts or a column width.
    var givesSize: Bool { width != nil || columns != nil || columnWidth != nil }

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Target column width; the column count follows from --width.", valueName: "px"))
    var columnWidth: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Fewest columns --column-width may give.", valueName: "n"))
    var minColumns = defaults.minColumns

    @Option(parsing: .unconditional, help: ArgumentHelp("Most columns --column-width may give.", valueName: "n"))
    var maxColumns = defaults.maxColumns

    @Option(parsing: .unconditional, help: "Space between tiles, both ways, in pixels.")
    var gap = defaults.columnGap

    @Option(parsing: .unconditional, help: ArgumentHelp("Space between columns (default: --gap).", valueName: "px"))
    var columnGap: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Space between rows (default: --gap).", valueName: "px"))
    var rowGap: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Margin around the wall (default: --gap).", valueName: "px"))
    var padding: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Top margin (default: --padding).", valueName: "px"))
    var paddingTop: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Right margin (default: --padding).", valueName: "px"))
    var paddingRight: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Bottom margin (default: --padding).", valueName: "px"))
    var paddingBottom: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Left margin (default: --padding).", valueName: "px"))
    var paddingLeft: Int?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Space reserved under each image for its caption.", valueName: "px")
    )
    var captionHeight = defaults.captionHeight

    @Option(
        help: ArgumentHelp("Reading direction: ltr or rtl (the wall is mirrored, not the images).", valueName: "dir"))
    var direction: Direction = defaults.direction

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Masonry: columns within this many pixels of the shortest count as level; the leftmost wins.",
            valueName: "px"))
    var tieTolerance = defaults.tieTolerance

    @Option(help: ArgumentHelp("Grid: the cell shape.", valueName: "W:H"))
    var cellAspect = defaults.cellAspect

    @Option(
        help: ArgumentHelp("Grid: cover (fill and crop) or contain (letterbox on the background).", valueName: "fit"))
    var fit: Fit = defaults.fit

    @Option(
        help: ArgumentHelp(
            "Grid: fill the cells across (row by row) or down (column by column on each page, as printed contact sheets).",
            valueName: "order"))
    var order: TileOrder = defaults.order

    @Option(
        help: ArgumentHelp(
            "Which part cropped images keep: center, north, south, east, west, northeast, northwest, southeast, southwest; or, chosen from each picture's pixels when it is drawn, attention (edges, skin tones and saturated colour, as libvips' smartcrop), entropy (the most varied tones) or faces (the faces OpenCV's detector finds, else attention). Faces a photo organiser marked in XMP come first for all three. The manifest records each crop chosen and by what (cropBy).",
            valueName: "gravity"))
    var gravity: Gravity = defaults.gravity

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Crop images taller or wider than R times their other side to that shape (by --gravity), so long screenshots and panoramas stay ordinary tiles; 0 for no limit.",
            valueName: "R"))
    var maxAspect = defaults.maxAspect ?? 0

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Masonry: an image wider than R times its height spans ⌈aspect ÷ R⌉ adjacent columns (all at most) instead of being cut to --max-aspect in one; the columns under it are evened up first so no hole opens above it.",
            valueName: "R"))
    var spanWide: Double?

    @Flag(
        help:
            "Masonry and columns: crop the last tiles of each column (by --gravity, none by more than a quarter of its height) so the columns of every page and section end level; where a quarter is not enough, as close as it allows."
    )
    var evenBottom = false

    @Flag(
        inversion: .prefixedNo,
        help:
            "Enlarge images smaller than their tile to fill it (the default), or, with --no-upscale, draw them at their own size centred in the tile."
    )
    var upscale = defaults.upscale

    @Option(
        parsing: .singleValue,
        help: ArgumentHelp("Grid: extra space after row ROW (1-based); repeatable.", valueName: "ROW:PX"))
    var rowGapAfter: [RowGapAfter] = []

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Justified and strip: the target image height of a row.", valueName: "px"))
    var rowHeight = defaults.rowHeight

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Justified: rows never grow past this times --row-height; their images are cropped.", valueName: "ratio"))
    var maxRowHeightRatio = defaults.maxRowHeightRatio

    @Option(
        help: ArgumentHelp(
            "Justified: a short last row is set left, center, or stretched (justify).", valueName: "mode"))
    var lastRow: LastRow = defaults.lastRow

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Masonry, columns, justified: the first N images span the full width above the wall.", valueName: "n"))
    var hero = defaults.hero

    @Option(
        help: ArgumentHelp(
            "none; folder: one section per input folder; day, month or year: one section per date taken (EXIF, else a date in the file name, else the modification time in UTC), in date order (newest first with --reverse). Each section is under a header band.",
            valueName: "grouping"))
    var groupBy: Grouping = WallOptions().grouping

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Height of each section's header band with --group-by.", valueName: "px"))
    var sectionHeaderHeight = defaults.sectionHeaderHeight

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Split the wall into pages at most this tall (never cutting a tile).", valueName: "px"))
    var maxHeight: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Split the wall into pages of at most this many pixels.", valueName: "n"))
    var maxPixels: Int?

    /// Every combination of the listed widths and column counts.
    var variants: [LayoutConfiguration] {
        let widths: [Int?] = width.map { $0.values.map { Optional($0) } } ?? [LayoutConfiguration(kind: layout).width]
        return widths.flatMap { w in
            columnCounts.map { n in
                var c = configuration
                c.width = w
                c.columns = n
                return c
            }
        }
    }

    /// The configuration these options describe (the first variant's width and columns).
    var configuration: LayoutConfiguration {
        var c = LayoutConfiguration(kind: layout)
        c.width = width?.values.first ?? c.width
        c.columns = columnCounts.first ?? c.columns
        c.columnWidth = columnWidth
        c.minColumns = minColumns
        c.maxColumns = maxColumns
        c.columnGap = columnGap ?? gap
        c.rowGap = rowGap ?? gap
        let all = padding ?? gap
        c.padding = Insets(
            top: paddingTop ?? all, right: paddingRight ?? all, bottom: paddingBottom ?? all, left: paddingLeft ?? all)
        c.captionHeight = captionHeight
        c.direction = direction
        c.tieTolerance = tieTolerance
        c.cellAspect = cellAspect
        c.fit = fit
        c.order = order
        c.upscale = upscale
        c.evenBottom = evenBottom
        c.spanWide = spanWide
        c.gravity = gravity
        c.maxAspect = maxAspect > 0 ? maxAspect : nil
        for gap in rowGapAfter { c.rowGapsAfter[gap.row, default: 0] += gap.pixels }
        c.rowHeight = rowHeight
        c.maxRowHeightRatio = maxRowHeightRatio
        c.lastRow = lastRow
        c.hero = hero
        c.sectionHeaderHeight = sectionHeaderHeight
        c.maxPageHeight = maxHeight
        c.maxPagePixels = maxPixels
        return c
    }

    func validate() throws {
        if gap < 0 { throw ValidationError("--gap cannot be negative (got \(gap))") }
        if maxAspect != 0 && !(maxAspect >= 1) {
            throw ValidationError("--max-aspect must be 0 (no limit) or at least 1 (got \(maxAspect))")
        }
        if let bad = columnCounts.first(where: { $0 < 1 }) {
            throw ValidationError("--columns must be at least 1 (got \(bad))")
        }
        for variant in variants {
            do {
                try variant.validate()
            } catch {
                throw ValidationError(error.message)
            }
        }
    }
}
