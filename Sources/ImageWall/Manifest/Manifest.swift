import WallCodecs
import WallCore
import WallFiles
import WallLayout

/// The JSON record of a render: the sheet, the options, where every tile went, and what was
/// skipped. Schema version 1; later versions add fields, never remove or rename them. Keys are
/// written sorted, so the same render writes the same bytes.
public struct Manifest: Codable, Sendable, Equatable {
    /// The options that shaped the layout (every `LayoutConfiguration` field, keyed as on the
    /// command line), the background and the grouping, in one object.
    public struct Layout: Codable, Sendable, Equatable {
        /// The layout as laid out (caption and title space included).
        public var configuration: LayoutConfiguration
        /// The sheet's background colour.
        public var background: RGBAColor
        /// How images were grouped into sections (`groupBy`).
        public var grouping: Grouping

        /// Creates the layout record.
        public init(configuration: LayoutConfiguration, background: RGBAColor, grouping: Grouping) {
            self.configuration = configuration
            self.background = background
            self.grouping = grouping
        }

        enum CodingKeys: String, CodingKey { case background, groupBy }

        /// Reads the layout fields and the background and grouping beside them.
        public init(from decoder: any Decoder) throws {
            configuration = try LayoutConfiguration(from: decoder)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            background = try c.decode(RGBAColor.self, forKey: .background)
            grouping = try c.decodeIfPresent(Grouping.self, forKey: .groupBy) ?? .none
        }

        /// Writes the layout fields with the background and grouping in the same object.
        public func encode(to encoder: any Encoder) throws {
            try configuration.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(background, forKey: .background)
            try c.encode(grouping, forKey: .groupBy)
        }
    }

    /// One output file.
    public struct Page: Codable, Sendable, Equatable {
        /// The path it was written to; absent in a layout's manifest, where nothing was written.
        public var file: String?
        /// Its width in pixels.
        public var width: Int
        /// Its height in pixels.
        public var height: Int
    }

    /// A rectangle on the sheet, in whole pixels.
    public struct Box: Codable, Sendable, Equatable {
        /// Left edge.
        public var x: Int
        /// Top edge.
        public var y: Int
        /// Width.
        public var width: Int
        /// Height.
        public var height: Int

        init(_ rect: Rect) {
            (x, y, width, height) = (rect.x, rect.y, rect.width, rect.height)
        }

        package var rect: Rect { Rect(x: x, y: y, width: width, height: height) }
    }

    /// One placed image.
    public struct Tile: Codable, Sendable, Equatable {
        /// Its position in the layout order, from 0.
        public var index: Int
        /// The page it is on, from 0.
        public var page: Int
        /// The path as the user gave it.
        public var source: String
        /// The input it came from: an index into ``Manifest/roots``; absent in manifests older
        /// than roots, and for sizes given without files.
        public var root: Int?
        /// Its path under that root: what stays the same when the folders move (`sub/a.jpg`).
        public var path: String?
        /// Left edge of the image on its page.
        public var x: Int
        /// Top edge of the image on its page.
        public var y: Int
        /// Width of the image on the sheet.
        public var width: Int
        /// Height of the image on the sheet.
        public var height: Int
        /// Displayed (oriented) width of the source.
        public var sourceWidth: Int
        /// Displayed (oriented) height of the source.
        public var sourceHeight: Int
        /// EXIF orientation of the source, 1–8.
        public var orientation: Int
        /// The source's format ("jpeg", "png", …); absent for sizes given without files.
        public var format: String?
        /// The part of the source shown, in displayed source pixels; `null` when all of it is.
        public var crop: Region?
        /// What chose `crop` from the picture's pixels (`attention`, `entropy`: `--gravity`),
        /// when it followed the content; absent for a crop placed by a fixed side, and in a layout
        /// not drawn (its crop is then the middle, which drawing moves).
        public var cropBy: String?
        /// The whole cell: the image plus caption space (and letterbox, for `contain`).
        public var cell: Box
        /// The space reserved for the caption, when there is one.
        public var caption: Box?
        /// The section (folder group) of the tile.
        public var section: Int
        /// Decoder warnings (damaged data rendered as far as it went).
        public var warnings: [String]
        /// The decoder's notes that change no pixel (libpng recognising an edited sRGB
        /// profile); absent when there are none.
        public var notes: [String]?
        /// What the tile was sorted by, with `--sort`.
        public var sortKey: SortKey?
        /// For a batch variant's tile: the size its source was decoded for, when not its own.
        public var decodedFor: Size?
        /// For a batch variant's tile: the whole-image sizes it was resampled through.
        public var via: [Size]?
        /// Why the source could not be decoded, when the tile is drawn as a placeholder.
        public var placeholder: String?
        /// `true` when the tile is drawn from a damaged file (its decoder warned that pixels are
        /// missing or may be wrong) and carries the damaged mark; absent otherwise.
        public var damaged: Bool?
        /// The decoder that drew the tile, when its pixels may differ by a level from one CPU to
        /// another ("libjxl 0.7.0"; see `ImageInfo.inexactDecoder`): comparisons allow it that
        /// rounding unless asked to be exact. Absent for the decoders that are exact.
        public var inexactDecoder: String?
        /// What in the source the picture is drawn from, for files that hold several: a RAW
        /// file's `preview 6000x4000 JPEG` or `sensor, half size`, a video's `frame of H.264`.
        public var drawnFrom: String?
        /// What the tile is marked as: a video, a Live Photo's still, a RAW+JPEG pair's JPEG.
        public var mark: TileMark?
        /// The other files of the picture, drawn as this tile (a Live Photo's movie, a pair's
        /// RAW file), as the user gave them.
        public var companions: [String]?
        /// A video's length in seconds.
        public var duration: Double?
        /// When the picture was taken (ISO 8601, its offset when known), with the wall grouped
        /// by date: the date that placed it in its section.
        public var date: String?
        /// What gave `date`: the file's metadata, its name, or its modification time.
        public var dateFrom: CaptureDate.Source?
        /// The page of the source drawn, from 1, for a file drawn page by page (`--pages all`).
        public var sourcePage: Int?
        /// The stack the tile stands for (`--stack`): every picture of it, the tile's own among
        /// them, and why the tile's was drawn; absent for a picture drawn alone.
        public var stack: PictureStack?

        /// Writes the tile; `crop` is `null`, not absent, when the whole image shows.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(index, forKey: .index)
            try c.encode(page, forKey: .page)
            try c.encode(source, forKey: .source)
            try c.encodeIfPresent(root, forKey: .root)
            try c.encodeIfPresent(path, forKey: .path)
            try c.encode(x, forKey: .x)
            try c.encode(y, forKey: .y)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
            try c.encode(sourceWidth, forKey: .sourceWidth)
            try c.encode(sourceHeight, forKey: .sourceHeight)
            try c.encode(orientation, forKey: .orientation)
            try c.encodeIfPresent(format, forKey: .format)
            try c.encode(crop, forKey: .crop)
            try c.encodeIfPresent(cropBy, forKey: .cropBy)
            try c.encode(cell, forKey: .cell)
            try c.encodeIfPresent(caption, forKey: .caption)
            try c.encode(section, forKey: .section)
            try c.encode(warnings, forKey: .warnings)
            try c.encodeIfPresent(notes, forKey: .notes)
            try c.encodeIfPresent(sortKey, forKey: .sortKey)
            try c.encodeIfPresent(decodedFor, forKey: .decodedFor)
            try c.encodeIfPresent(via, forKey: .via)
            try c.encodeIfPresent(placeholder, forKey: .placeholder)
            try c.encodeIfPresent(damaged, forKey: .damaged)
            try c.encodeIfPresent(inexactDecoder, forKey: .inexactDecoder)
            try c.encodeIfPresent(drawnFrom, forKey: .drawnFrom)
            try c.encodeIfPresent(mark, forKey: .mark)
            try c.encodeIfPresent(companions, forKey: .companions)
            try c.encodeIfPresent(duration, forKey: .duration)
            try c.encodeIfPresent(date, forKey: .date)
            try c.encodeIfPresent(dateFrom, forKey: .dateFrom)
            try c.encodeIfPresent(sourcePage, forKey: .sourcePage)
            try c.encodeIfPresent(stack, forKey: .stack)
        }

        /// How the tile's pixels were made, when the manifest records a recipe that fits a
        /// source of `displayed` size: sizes above zero, each step no larger than the one before
        /// it or than the image (a hand-edited one must not ask for a huge bitmap).
        func recipe(forSourceOf displayed: Size) -> TileRecipe? {
            guard let decodedFor, decodedFor.width > 0, decodedFor.height > 0 else { return nil }
            var bound = displayed
            for size in via ?? [] {
                guard size.width > 0, size.height > 0, size.width <= bound.width, size.height <= bound.height else {
                    return nil
                }
                bound = size
            }
            return TileRecipe(decodedFor: decodedFor, via: via ?? [])
        }
    }

    /// A section's header band.
    public struct Section: Codable, Sendable, Equatable {
        /// The section's number, in order of appearance.
        public var index: Int
        /// The folder the section's images come from.
        public var title: String
        /// The page the header is on.
        public var page: Int
        /// Where the header band is on its page.
        public var header: Box
    }

    /// The title band across the first page.
    public struct Title: Codable, Sendable, Equatable {
        /// The title's text.
        public var text: String
        /// Where the band is.
        public var box: Box
    }

    /// An input left out, and why.
    public struct Skipped: Codable, Sendable, Equatable {
        /// The path as the user gave it.
        public var source: String
        /// Why it was left out.
        public var reason: String
    }

    /// What drew a rendered sheet: ImageWall's version and the decoding libraries'.
    public struct MadeBy: Codable, Sendable, Equatable {
        /// ImageWall's version, as `--version` prints it.
        public var imagewall: String
        /// The libraries and their versions, as one line ("libjpeg 2001005, libpng 10639, …").
        public var libraries: String

        /// A record of what drew a sheet.
        public init(imagewall: String, libraries: String) {
            self.imagewall = imagewall
            self.libraries = libraries
        }
    }

    /// The schema version.
    public var version = 1
    /// What drew the sheet; absent in layouts not rendered and in manifests written before it.
    public var madeBy: MadeBy?
    /// The first page's width (the sheet's, when it has one page).
    public var width: Int
    /// The first page's height.
    public var height: Int
    /// The options that shaped the layout.
    public var layout: Layout
    /// Every page: its size, and the file written (none for a layout that was not rendered).
    public var pages: [Page]
    /// The section headers, when images were grouped.
    public var sections: [Section]
    /// The title, when the sheet has one.
    public var title: Title?
    /// The options that shaped the pixels (absent in manifests of layouts that were not rendered).
    public var render: RenderSettings?
    /// Every placed image, in layout order.
    public var tiles: [Tile]
    /// Inputs left out.
    public var skipped: [Skipped]
    /// Files in the folders given that are not images (text, video, hidden files), when there
    /// are any.
    public var ignored: [String]?
    /// Folders among the inputs whose images were not taken (sub-folders without `-r`,
    /// folders reached twice through links), with why, when there are any.
    public var foldersNotRead: [FolderNotRead]?
    /// How many files the `--include` and `--exclude` globs left out, when any were.
    public var filteredOut: Int?
    /// Sheets and Deep Zoom tile folders ImageWall wrote, found in the folders given and left
    /// out, when there are any.
    public var ownOutputs: [String]?
    /// Files given more than once and drawn once, each with the path it is drawn under, when
    /// there are any.
    public var repeats: [RepeatedInput]?
    /// Pictures left out by their rating (`--min-rating`, `--rejected`), each with why, when
    /// there are any.
    public var ratedOut: [RatedOut]?
    /// The inputs the tiles came from (see ``Tile/root`` and ``Tile/path``); absent in manifests
    /// older than roots and for sizes given without files.
    public var roots: [Root]?

    /// An input the tiles came from: a folder given, or the folder of a file given.
    public struct Root: Codable, Sendable, Equatable {
        /// The folder as given (relative to the working folder of the render, or absolute).
        public var path: String
        /// The same folder relative to the manifest's own folder, when the manifest was written
        /// to a file: how `--from-manifest` finds the sources after both moved together.
        public var fromManifest: String?

        /// Creates a root.
        public init(path: String, fromManifest: String? = nil) {
            self.path = path
            self.fromManifest = fromManifest
        }
    }

    /// A tile's identity that survives moving the folders: its path under its root, or for an
    /// older manifest its file's name.
    public func identity(of tile: Tile) -> String {
        tile.path ?? FilePaths.name(of: tile.source)
    }
}
