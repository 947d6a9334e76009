import WallCodecs
import WallCompositor
import WallCore

/// The settings that shape a sheet's pixels beyond its layout: captions and title, decoration,
/// resampling, decoding and the encoder. The manifest records them as they are (its `render`
/// object), so `--from-manifest` renders the same bytes; a new `RenderSettings()` holds the
/// defaults.
public struct RenderSettings: Sendable, Hashable, Codable {
    /// The caption under each image; space is reserved for it when the layout has none.
    public var caption: CaptionTemplate?
    /// A title across the top of the first page.
    public var title: String?
    /// The font for captions, title and headers: a path or a name (default DejaVu Sans, and
    /// DejaVu Sans Bold for the title and headers).
    public var font: String?
    /// Caption size in pixels (default: from the caption height, or ``defaultFontSize``).
    public var fontSize: Int?
    /// Colour of captions, title and headers (default: dark on light backgrounds, light on dark).
    public var textColor: RGBAColor?
    /// Rounded corners and border of every image.
    public var style = TileStyle()
    /// How each tile is decoded and resampled from its source.
    public var tile = TileSettings()
    /// How the sheet is deflated: ImageWall's own deflater, which codes runs as zlib's run-length
    /// strategy does at about four times its speed and no larger (with the Paeth filter, within a
    /// few percent of libpng's default settings, level 6 and adaptive filters).
    public var compression: PNGCompression = .own
    /// PNG row filter of the sheet.
    public var pngFilter: PNGFilter = .paeth
    /// Quality 1–100 of JPEG and WebP sheets and of a PDF's pictures (`nil`: ``defaultQuality``);
    /// 0 keeps a PDF's pictures lossless.
    public var quality: Int?
    /// The paper of a PDF sheet (`nil`: ``Paper/a4``).
    public var paper: Paper?
    /// The quality of JPEG and WebP sheets when none is given.
    public static let defaultQuality = 85

    /// The quality in force: ``quality``, or ``defaultQuality``.
    public var sheetQuality: Int { quality ?? Self.defaultQuality }

    /// Settings with every default.
    public init() {}

    /// The largest corner radius, border and caption size, in pixels: more than any sheet
    /// draws (a border of a million pixels blanks every tile).
    public static let largestDecoration = 10_000

    /// What is out of range among the settings (as a manifest edited by hand may hold them),
    /// in words naming the field; `nil` when all are in range.
    public var problem: String? {
        let largest = Self.largestDecoration
        if !(0...largest).contains(style.cornerRadius) {
            return "cornerRadius \(style.cornerRadius) (0 to \(largest) px)"
        }
        if !(0...largest).contains(style.border) { return "border \(style.border) (0 to \(largest) px)" }
        if let fontSize, !(1...largest).contains(fontSize) { return "fontSize \(fontSize) (1 to \(largest) px)" }
        if let quality, !(0...100).contains(quality) { return "quality \(quality) (0 to 100)" }
        if let decodeFloor = tile.decodeFloor, decodeFloor < 1 { return "decodeFloor \(decodeFloor) (at least 1 px)" }
        return nil
    }

    /// The caption size when neither it nor the caption band's height is given; the band is
    /// then made tall enough for it.
    public static let defaultFontSize = 13

    /// The caption size in force, for a caption band `height` tall.
    func captionFontSize(height: Int) -> Int {
        fontSize ?? max(6, min(height - 2, Int((Double(height) * 0.62).rounded())))
    }

    /// The title's size in pixels.
    var titleFontSize: Int { max(16, 2 * (fontSize ?? Self.defaultFontSize)) }

    enum CodingKeys: String, CodingKey {
        case caption, title, font, fontSize, textColor, linear, fast, compression, pngFilter, quality, paper,
            decodeFloor
    }

    /// Reads the settings; absent keys keep their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = RenderSettings()
        caption = try c.decodeIfPresent(CaptionTemplate.self, forKey: .caption)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        font = try c.decodeIfPresent(String.self, forKey: .font)
        fontSize = try c.decodeIfPresent(Int.self, forKey: .fontSize)
        textColor = try c.decodeIfPresent(RGBAColor.self, forKey: .textColor)
        style = try TileStyle(from: decoder)
        tile.linear = try c.decodeIfPresent(Bool.self, forKey: .linear) ?? defaults.tile.linear
        tile.fast = try c.decodeIfPresent(Bool.self, forKey: .fast) ?? defaults.tile.fast
        compression = try c.decodeIfPresent(PNGCompression.self, forKey: .compression) ?? defaults.compression
        pngFilter = try c.decodeIfPresent(PNGFilter.self, forKey: .pngFilter) ?? defaults.pngFilter
        quality = try c.decodeIfPresent(Int.self, forKey: .quality)
        paper = try c.decodeIfPresent(Paper.self, forKey: .paper)
        tile.decodeFloor = try c.decodeIfPresent(Int.self, forKey: .decodeFloor)
    }

    /// Writes the settings in one flat object (the style's and the tile's fields beside the rest); `fast`,
    /// `quality`, `paper` and `decodeFloor` only when set.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(caption, forKey: .caption)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(font, forKey: .font)
        try c.encodeIfPresent(fontSize, forKey: .fontSize)
        try c.encodeIfPresent(textColor, forKey: .textColor)
        try style.encode(to: encoder)
        try c.encode(tile.linear, forKey: .linear)
        if tile.fast { try c.encode(tile.fast, forKey: .fast) }
        try c.encode(compression, forKey: .compression)
        try c.encode(pngFilter, forKey: .pngFilter)
        try c.encodeIfPresent(quality, forKey: .quality)
        try c.encodeIfPresent(paper, forKey: .paper)
        try c.encodeIfPresent(tile.decodeFloor, forKey: .decodeFloor)
    }
}
