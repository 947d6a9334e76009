import WallCodecs
import WallCore
import WallLayout

/// The JSON record of a render: the sheet, the options, where every tile went, and what was
/// skipped. Schema version 1; later versions add fields, never remove or rename them.
public struct Manifest: Codable, Sendable, Equatable {
    /// The options that shaped the layout.
    public struct Layout: Codable, Sendable, Equatable {
        public var name: String
        public var width: Int
        public var columns: Int
        public var columnGap: Int
        public var rowGap: Int
        public var padding: Insets
        public var background: String
    }

    /// One output file.
    public struct Page: Codable, Sendable, Equatable {
        public var file: String
        public var width: Int
        public var height: Int
    }

    /// A part of the source image, in displayed source pixels.
    public struct Crop: Codable, Sendable, Equatable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
    }

    /// One placed image.
    public struct Tile: Codable, Sendable, Equatable {
        public var index: Int
        public var page: Int
        /// The path as the user gave it.
        public var source: String
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        /// Displayed (oriented) size of the source.
        public var sourceWidth: Int
        public var sourceHeight: Int
        /// EXIF orientation of the source, 1–8.
        public var orientation: Int
        public var format: String
        /// The part of the source shown; `null` when all of it is.
        public var crop: Crop?
        /// Decoder warnings (damaged data rendered as far as it went).
        public var warnings: [String]

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(index, forKey: .index)
            try c.encode(page, forKey: .page)
            try c.encode(source, forKey: .source)
            try c.encode(x, forKey: .x)
            try c.encode(y, forKey: .y)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
            try c.encode(sourceWidth, forKey: .sourceWidth)
            try c.encode(sourceHeight, forKey: .sourceHeight)
            try c.encode(orientation, forKey: .orientation)
            try c.encode(format, forKey: .format)
            try c.encode(crop, forKey: .crop)  // null, not absent, when the whole image shows
            try c.encode(warnings, forKey: .warnings)
        }
    }

    /// An input left out, and why.
    public struct Skipped: Codable, Sendable, Equatable {
        public var source: String
        public var reason: String
    }

    public var version = 1
    public var width: Int
    public var height: Int
    public var layout: Layout
    public var pages: [Page]
    public var tiles: [Tile]
    public var skipped: [Skipped]
}
