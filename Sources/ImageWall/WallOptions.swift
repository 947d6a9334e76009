import WallCodecs
import WallCompositor
import WallCore
import WallLayout

/// What to do with an input that cannot be read.
public enum ErrorPolicy: String, Sendable, Codable, CaseIterable {
    /// Report it, list it in the manifest, and render the rest.
    case skip
    /// Stop before writing anything.
    case fail
}

/// How images are grouped into sections.
public enum Grouping: String, Sendable, Codable, CaseIterable {
    /// One wall of all images.
    case none
    /// One section per folder, in order of first appearance, each under a header band.
    case folder
}

/// Everything that shapes a render.
public struct WallOptions: Sendable {
    /// The layout and its geometry.
    public var layout: LayoutConfiguration
    /// How images are grouped into sections.
    public var grouping: Grouping = .none
    /// The colour under and between tiles; not opaque means an RGBA sheet.
    public var background: RGBAColor = .white
    /// What to do with unreadable inputs.
    public var onError: ErrorPolicy = .skip
    /// Treat decoder warnings (damaged but partly readable data) as errors.
    public var strict = false
    /// Threads working at once (probing, decoding, painting and encoding); 1 runs the whole
    /// render on the calling thread.
    public var threads: Int = 1
    /// How the sheet is deflated. With the Paeth filter, run-length deflate writes files within
    /// a few percent of libpng's default settings (level 6, adaptive filters) at a sixth of the cost.
    public var compression: PNGCompression = .runLength
    /// PNG row filter of the sheet.
    public var pngFilter: PNGFilter = .paeth
    /// Trade a little quality for speed: decode images to their tile size rather than twice it,
    /// and read progressive JPEGs shrunk to 1/8 only to their first DC scan.
    public var fast = false
    /// Bytes the images being decoded at once may hold (decoded pixels, and a progressive
    /// JPEG's coefficients: 100 MB for a 16 MP 4:4:4 file); an image needing more is decoded
    /// alone. Keeps peak memory flat however big and however many the inputs are.
    public var decodeMemory: Int = 128 << 20
    /// Inputs with more pixels are refused from their header.
    public var maxImagePixels: Int = ImageProbe.defaultMaxImagePixels
    /// A page bigger than this (pixels) is refused with advice to split the sheet into pages.
    public var maxSheetPixels: Int = 1 << 30
    /// Rounded corners and border of every image.
    public var style = TileStyle()
    /// The caption under each image; space is reserved for it when the layout has none.
    public var caption: CaptionTemplate?
    /// A title across the top of the first page.
    public var title: String?
    /// The font for captions, title and headers: a path or a name (default DejaVu Sans, and
    /// DejaVu Sans Bold for the title and headers).
    public var font: String?
    /// Caption size in pixels (default: from the caption height, or 13).
    public var fontSize: Int?
    /// Colour of captions, title and headers (default: dark on light backgrounds, light on dark).
    public var textColor: RGBAColor?
    /// Resample in linear light instead of on sRGB-encoded values.
    public var linear = false
    /// How folders are searched and which files are kept.
    public var scan = InputScanner.Options()
    /// The order of the images.
    public var sort: SortOrder = .none
    /// Reverse the order.
    public var reverse = false
    /// The seed of `.random` order.
    public var seed: UInt64 = 0
    /// Receives progress as the render goes; called from several threads.
    public var progress: ProgressReporter?
    /// Collects the time each stage takes, when set.
    public var profile: StageProfile?
    /// Asked between images and bands; `true` stops the render with
    /// ``WallRunError/cancelled``, leaving no output behind.
    public var isCancelled: @Sendable () -> Bool = { false }

    /// The text colour in force.
    public var resolvedTextColor: RGBAColor {
        if let textColor { return textColor }
        let light = Int(background.red) * 299 + Int(background.green) * 587 + Int(background.blue) * 114 >= 128_000
        return background.alpha < 128 || light ? RGBAColor(red: 40, green: 40, blue: 40) : RGBAColor(red: 225, green: 225, blue: 225)
    }

    /// The caption size in force, for a caption band `height` tall.
    func captionFontSize(height: Int) -> Int {
        fontSize ?? max(6, min(height - 2, Int((Double(height) * 0.62).rounded())))
    }

    /// The layout with space reserved for the caption and title when they need it.
    public var effectiveLayout: LayoutConfiguration {
        var layout = self.layout
        if caption != nil && layout.captionHeight == 0 {
            layout.captionHeight = Int((Double(fontSize ?? 13) * 1.6).rounded(.up))
        }
        if title != nil && layout.titleHeight == 0 {
            layout.titleHeight = Int((Double(titleFontSize) * 1.8).rounded(.up))
        }
        return layout
    }

    /// The title's size in pixels.
    var titleFontSize: Int { max(16, 2 * (fontSize ?? 13)) }

    /// Options with `layout` and defaults for the rest.
    public init(layout: LayoutConfiguration = LayoutConfiguration()) {
        self.layout = layout
    }
}

/// Rounded corners and border of every image (from the compositor).
public typealias TileStyle = WallCompositor.TileStyle

extension WallOptions {
    /// The decoder these options ask for.
    var decoder: ImageDecoder {
        var decoder = ImageDecoder()
        decoder.fast = fast
        return decoder
    }
}
