import WallCodecs
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
    /// Threads probing and decoding at once.
    public var threads: Int = 1
    /// zlib level of the sheet, 0–9.
    public var compressionLevel: Int = 6
    /// Inputs with more pixels are refused from their header.
    public var maxImagePixels: Int = ImageProbe.defaultMaxImagePixels

    /// Options with `layout` and defaults for the rest.
    public init(layout: LayoutConfiguration = LayoutConfiguration()) {
        self.layout = layout
    }
}
