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
    /// One section per day the pictures were taken ("14 March 2024"), earliest first (latest
    /// first with `reverse`); dates as ``CaptureDate`` finds them.
    case day
    /// One section per month ("March 2024").
    case month
    /// One section per year ("2024").
    case year

    /// `true` for the groupings by date.
    public var isByDate: Bool { self == .day || self == .month || self == .year }
}

/// Everything that shapes a render, in the command line's groups: which inputs are drawn, the
/// layout, how the sheet looks (with what shapes each tile), how the run goes about it, and the
/// cache. The values a new `WallOptions()` holds are the defaults, for the library and the
/// command line alike.
///
/// How a run reports back and is stopped (progress, timing, cancellation, diagnostics) is not
/// a setting: see ``RunHooks``.
public struct WallOptions: Sendable {
    /// Which inputs are drawn, and in what order.
    public var input = InputSelection()
    /// The layout and its geometry.
    public var layout: LayoutConfiguration
    /// How images are grouped into sections.
    public var grouping: Grouping = .none
    /// The colour under and between tiles; not opaque means an RGBA sheet.
    public var background: RGBAColor = .white
    /// Everything else that shapes the pixels: captions, decoration, how tiles are decoded and
    /// resampled (``RenderSettings/tile``) and the encoder. Recorded in the manifest as it is.
    public var rendering = RenderSettings()
    /// Threads, memory, the largest inputs and pages, and what an unreadable input does.
    public var limits = RunLimits()
    /// The persistent cache of decodes, tiles and compressed bands; `nil` (the default for the
    /// library; the command line uses ``CacheSettings/defaultDirectory``) renders without one.
    public var cache: CacheSettings?
    /// The tiles' format when a page is written as a Deep Zoom pyramid (an output ending in `.dzi`).
    public var deepZoomTiles: DeepZoomTileFormat = .png

    /// Options with `layout` and defaults for the rest.
    public init(layout: LayoutConfiguration = LayoutConfiguration()) {
        self.layout = layout
    }

    /// The text colour in force: as set, else dark on light backgrounds and light on dark ones.
    public var resolvedTextColor: RGBAColor {
        if let textColor = rendering.textColor { return textColor }
        let light = Int(background.red) * 299 + Int(background.green) * 587 + Int(background.blue) * 114 >= 128_000
        return background.alpha < 128 || light
            ? RGBAColor(red: 40, green: 40, blue: 40) : RGBAColor(red: 225, green: 225, blue: 225)
    }

    /// The layout with space reserved for the caption and title when they need it.
    public var effectiveLayout: LayoutConfiguration {
        var layout = self.layout
        if rendering.caption != nil && layout.captionHeight == 0 {
            layout.captionHeight = Int(
                (Double(rendering.fontSize ?? RenderSettings.defaultFontSize) * 1.6).rounded(.up))
        }
        if rendering.title != nil && layout.titleHeight == 0 {
            layout.titleHeight = Int((Double(rendering.titleFontSize) * 1.8).rounded(.up))
        }
        return layout
    }

    /// The decoder these options ask for.
    var decoder: ImageDecoder { rendering.tile.decoder }
}

/// Rounded corners and border of every image (from the compositor).
public typealias TileStyle = WallCompositor.TileStyle
