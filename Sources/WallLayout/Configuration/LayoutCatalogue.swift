import WallCore

/// The wall layouts: the catalogue. Adding a layout means a case here, its strategy below,
/// and a file of its own under `Layouts/` (see ``LayoutStrategy``).
public enum LayoutKind: String, Sendable, Codable, CaseIterable {
    /// Shortest column: each image goes to the column whose bottom is highest.
    case masonry
    /// Round-robin waterfall: image i goes to column i mod N.
    case columns
    /// Uniform cells, N columns; images cover or fit inside their cell.
    case grid
    /// Rows of equal height that fill the width exactly, breaks chosen over the whole sequence.
    case justified
    /// A repeating pattern of large 2×2 and small square tiles.
    case mosaic
    /// One row at a fixed height, as wide as it needs (wrapping at a maximum width if given).
    case strip

    /// How this layout places images.
    var strategy: any LayoutStrategy {
        switch self {
        case .masonry: return MasonryLayout()
        case .columns: return RoundRobinLayout()
        case .grid: return GridLayout()
        case .justified: return JustifiedLayout()
        case .mosaic: return MosaicLayout()
        case .strip: return StripLayout()
        }
    }

    /// One line saying what the layout does, for help texts.
    public var summary: String { strategy.summary }

    /// `true` when the layout is built on columns (and `columns` applies to it).
    public var hasColumns: Bool { strategy.minimumColumns != nil }

    /// The layouts that can put hero images above the wall.
    public static var withHeroes: [LayoutKind] { allCases.filter { $0.strategy.allowsHeroes } }
}

/// One layout: how it places a wall of images and what it needs and records. Each layout is
/// a value of its own file in `Layouts/`; the engine (``LayoutEngine``) holds the cursor,
/// pages, sections and heroes they all share.
protocol LayoutStrategy: Sendable {
    /// One line saying what the layout does.
    var summary: String { get }
    /// The fewest columns it works with, or `nil` when it has no columns.
    var minimumColumns: Int? { get }
    /// `true` when the sheet is as wide as its content (the width only wraps it), so a layout
    /// needs no width.
    var widthFollowsContent: Bool { get }
    /// `true` when hero images may span the width above the wall.
    var allowsHeroes: Bool { get }

    /// Places `items` (image indices, in order) of `section` at the engine's cursor.
    func place(_ items: [Int], section: Int, in engine: inout LayoutEngine) throws(LayoutError)
    /// About how tall the first row of a wall starting with image `index` is (a section
    /// header is kept on the page of its first row).
    func firstRowHeight(of index: Int, in engine: LayoutEngine) -> Int
    /// Writes the options only this layout reads into the manifest's layout object.
    func encodeOptions(
        of configuration: LayoutConfiguration,
        to container: inout KeyedEncodingContainer<LayoutConfiguration.CodingKeys>) throws
}

extension LayoutStrategy {
    var minimumColumns: Int? { 1 }
    var widthFollowsContent: Bool { false }
    var allowsHeroes: Bool { false }
    func encodeOptions(
        of configuration: LayoutConfiguration,
        to container: inout KeyedEncodingContainer<LayoutConfiguration.CodingKeys>
    ) throws {}
}
