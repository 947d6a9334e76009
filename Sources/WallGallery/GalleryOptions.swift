import ImageWall
import WallCodecs
import WallLayout

/// Everything that shapes a gallery site: how each album's sheets are drawn (every option a
/// render takes, and its variants), the renditions of each picture, and the pages.
public struct GallerySettings: Sendable {
    /// How the sheets are drawn: layout, appearance, reading, the cache, threads. Folders are
    /// read one at a time (not recursively), whatever `scan.recursive` says; its filters and
    /// pairing apply.
    public var wall: WallOptions
    /// The sheets of each album: one a layout, each shown to the windows it suits (a phone the
    /// narrow one). Empty: the ``defaultVariants``.
    public var variants: [LayoutConfiguration] = []
    /// The sheets' format: JPEG (the default), WebP or PNG.
    public var sheetFormat: PageFormat = .jpeg
    /// JPEG quality of the renditions (and of JPEG and WebP sheets unless `wall` says).
    public var quality = 85
    /// The site's name, at the top of every page; `nil`: the tree's folder name.
    public var title: String?
    /// Where a picture's coordinates link: `{lat}` and `{lon}` (decimal degrees) are replaced.
    /// Nothing is fetched: the page holds the link only.
    public var mapLink = GallerySettings.defaultMapLink

    /// OpenStreetMap's page centred on the place, with a marker.
    public static let defaultMapLink = "https://www.openstreetmap.org/?mlat={lat}&mlon={lon}#map=15/{lat}/{lon}"

    /// Settings with `wall`'s options and the defaults for the rest.
    public init(wall: WallOptions) {
        self.wall = wall
    }

    /// Two sheets a gallery shows when not told otherwise, `wall`'s layout in both: 2 columns
    /// for phones (1000 px wide with the default gaps) and 4 columns from 640 CSS pixels up
    /// (1990 px), their columns equally wide (``defaultColumnWidth``), so that each picture's
    /// tile is drawn once for both.
    public var defaultVariants: [LayoutConfiguration] {
        var phone = wall.layout, wide = wall.layout
        let margins = wall.layout.padding.left + wall.layout.padding.right, gap = wall.layout.columnGap
        (phone.columns, phone.width) = (2, 2 * GallerySettings.defaultColumnWidth + gap + margins)
        (wide.columns, wide.width) = (4, 4 * GallerySettings.defaultColumnWidth + 3 * gap + margins)
        return [phone, wide]
    }

    /// The column width of the default sheets, in pixels.
    public static let defaultColumnWidth = 485

    /// The sheets' variants in force, each split into pages at most ``pageHeight`` tall unless
    /// it says otherwise.
    public var sheetVariants: [LayoutConfiguration] {
        (variants.isEmpty ? defaultVariants : variants).map { variant in
            var v = variant
            if v.maxPageHeight == nil && v.maxPagePixels == nil { v.maxPageHeight = GallerySettings.pageHeight }
            return v
        }
    }

    /// The height of a sheet's pages in a gallery, unless the layout says: short enough for
    /// JPEG and for a page that loads one image at a time.
    public static let pageHeight = 6000
}
