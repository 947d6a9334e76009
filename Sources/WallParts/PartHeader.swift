import ImageWall
import WallCodecs

/// What a part file says about itself: the manifest and part it was rendered from, the whole
/// sheet's pages, and the rows it holds.
public struct PartHeader: Codable, Sendable, Equatable {
    /// One page of the sheet.
    public struct Page: Codable, Sendable, Equatable {
        /// The page's size in pixels.
        public var width, height: Int
        /// `true` for RGBA (a transparent background), `false` for RGB.
        public var alpha: Bool
    }

    /// XXH3-128 of the manifest file's bytes, in hexadecimal.
    public var manifest: String
    /// The part's number, from 1.
    public var part: Int
    /// How many parts the sheet was split into.
    public var parts: Int
    /// The PNG's Software text (the ImageWall that rendered it).
    public var software: String
    /// XXH3-128 of the settings that shape the pixels (those recorded in the manifest or, for a
    /// layout's manifest, given to each worker), in hexadecimal: parts must agree.
    public var settings: String
    /// The compression the segments were made with.
    public var compression: PNGCompression
    /// Every page of the sheet.
    public var pages: [Page]
    /// For a part rendered for a Deep Zoom pyramid: the format of the top-level tiles it holds
    /// (the tile rows its rows hold whole); `nil` for a part of a PNG.
    public var deepZoom: DeepZoomTileFormat?
    /// The rows this part holds, in order.
    public var rows: [PageRows]
}
