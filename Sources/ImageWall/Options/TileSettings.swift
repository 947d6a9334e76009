import WallCodecs

/// The settings that shape a tile's pixels from its source, besides its place and crop: how
/// the source is decoded and how it is resampled. The tile cache's key holds them whole (their
/// encoded text), so a setting added here changes the key by construction. Recorded in the
/// manifest's `render` object beside the other ``RenderSettings``.
public struct TileSettings: Sendable, Hashable, Codable {
    /// Resample in linear light instead of on sRGB-encoded values.
    public var linear = false
    /// Trade a little quality for speed: decode images to their tile size rather than twice it,
    /// and read progressive JPEGs shrunk to 1/8 only to their first DC scan.
    public var fast = false
    /// Every source decoded as for a tile at least this long on its long side (or as big as the
    /// source, when smaller), however small its tiles: what a gallery decodes once for its
    /// sheets and its renditions alike (see ``RunHooks/decoded``). `nil`: each as its tiles need.
    public var decodeFloor: Int?

    /// Settings with every default.
    public init() {}

    /// The decoder these settings ask for.
    var decoder: ImageDecoder {
        var decoder = ImageDecoder()
        decoder.fast = fast
        return decoder
    }
}
