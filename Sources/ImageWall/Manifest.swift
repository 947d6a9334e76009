import WallCodecs
import WallCore
import WallLayout

/// The JSON record of a render: the sheet, the options, where every tile went, and what was
/// skipped. Schema version 1; later versions add fields, never remove or rename them.
public struct Manifest: Codable, Sendable, Equatable {
    /// The options that shaped the layout (every `LayoutConfiguration` field, keyed as in the
    /// command line) and the background.
    public struct Layout: Codable, Sendable, Equatable {
        public var configuration: LayoutConfiguration
        public var background: String
        public var grouping: Grouping

        public init(configuration: LayoutConfiguration, background: String, grouping: Grouping) {
            self.configuration = configuration
            self.background = background
            self.grouping = grouping
        }

        enum CodingKeys: String, CodingKey { case background, groupBy }

        public init(from decoder: any Decoder) throws {
            configuration = try LayoutConfiguration(from: decoder)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            background = try c.decode(String.self, forKey: .background)
            grouping = try c.decodeIfPresent(Grouping.self, forKey: .groupBy) ?? .none
        }

        public func encode(to encoder: any Encoder) throws {
            try configuration.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(background, forKey: .background)
            try c.encode(grouping, forKey: .groupBy)
        }
    }

    /// One output file.
    public struct Page: Codable, Sendable, Equatable {
        public var file: String
        public var width: Int
        public var height: Int
    }

    /// A rectangle on the sheet.
    public struct Box: Codable, Sendable, Equatable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int

        init(_ rect: Rect) {
            (x, y, width, height) = (rect.x, rect.y, rect.width, rect.height)
        }

        var rect: Rect { Rect(x: x, y: y, width: width, height: height) }
    }

    /// One placed image.
    public struct Tile: Codable, Sendable, Equatable {
        public var index: Int
        public var page: Int
        /// The path as the user gave it.
        public var source: String
        /// The image's rectangle on the sheet.
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        /// Displayed (oriented) size of the source.
        public var sourceWidth: Int
        public var sourceHeight: Int
        /// EXIF orientation of the source, 1–8.
        public var orientation: Int
        /// "jpeg" or "png"; absent for sizes given without files.
        public var format: String?
        /// The part of the source shown; `null` when all of it is.
        public var crop: Region?
        /// The whole cell: the image plus caption space (and letterbox, for `contain`).
        public var cell: Box
        /// The space reserved for the caption, when there is one.
        public var caption: Box?
        /// The section (folder group) of the tile.
        public var section: Int
        /// Decoder warnings (damaged data rendered as far as it went).
        public var warnings: [String]
        /// What the tile was sorted by, with `--sort`.
        public var sortKey: SortKey?
        /// For a batch variant's tile: the size its source was decoded for, when not its own.
        public var decodedFor: Size?
        /// For a batch variant's tile: the whole-image sizes it was resampled through.
        public var via: [Size]?

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
            try c.encodeIfPresent(format, forKey: .format)
            try c.encode(crop, forKey: .crop)  // null, not absent, when the whole image shows
            try c.encode(cell, forKey: .cell)
            try c.encodeIfPresent(caption, forKey: .caption)
            try c.encode(section, forKey: .section)
            try c.encode(warnings, forKey: .warnings)
            try c.encodeIfPresent(sortKey, forKey: .sortKey)
            try c.encodeIfPresent(decodedFor, forKey: .decodedFor)
            try c.encodeIfPresent(via, forKey: .via)
        }

        /// How the tile's pixels were made, when the manifest records a recipe that fits a
        /// source of `displayed` size: sizes above zero, each step no larger than the one before
        /// it or than the image (a hand-edited one must not ask for a huge bitmap).
        func recipe(forSourceOf displayed: Size) -> TileRecipe? {
            guard let decodedFor, decodedFor.width > 0, decodedFor.height > 0 else { return nil }
            var bound = displayed
            for size in via ?? [] {
                guard size.width > 0, size.height > 0, size.width <= bound.width, size.height <= bound.height else { return nil }
                bound = size
            }
            return TileRecipe(decodedFor: decodedFor, via: via ?? [])
        }
    }

    /// A section's header band.
    public struct Section: Codable, Sendable, Equatable {
        public var index: Int
        /// The folder the section's images come from.
        public var title: String
        /// The page the header is on.
        public var page: Int
        public var header: Box
    }

    /// The title band across the first page.
    public struct Title: Codable, Sendable, Equatable {
        public var text: String
        public var box: Box
    }

    /// An input left out, and why.
    public struct Skipped: Codable, Sendable, Equatable {
        public var source: String
        public var reason: String
    }

    /// The options that shaped the pixels, so `--from-manifest` can render the same sheet.
    public struct Rendering: Codable, Sendable, Equatable {
        public var caption: String?
        public var title: String?
        public var font: String?
        public var fontSize: Int?
        public var textColor: String?
        public var cornerRadius: Int
        public var border: Int
        public var borderColor: String
        public var linear: Bool
        public var compression: PNGCompression
        public var pngFilter: String
        /// `true` for `--fast` renders; absent otherwise.
        public var fast: Bool?

        init(_ options: WallOptions) {
            caption = options.caption?.description
            title = options.title
            font = options.font
            fontSize = options.fontSize
            textColor = options.textColor?.description
            cornerRadius = options.style.cornerRadius
            border = options.style.border
            borderColor = options.style.borderColor.description
            linear = options.linear
            compression = options.compression
            pngFilter = options.pngFilter.rawValue
            fast = options.fast ? true : nil
        }

        /// Puts these settings into `options`.
        func apply(to options: inout WallOptions) throws {
            options.caption = try caption.map(CaptionTemplate.init)
            options.title = title
            options.font = font
            options.fontSize = fontSize
            options.textColor = textColor.flatMap(RGBAColor.init(parsing:))
            options.style = TileStyle(cornerRadius: cornerRadius, border: border, borderColor: RGBAColor(parsing: borderColor) ?? .white)
            options.linear = linear
            options.compression = compression
            options.pngFilter = PNGFilter(rawValue: pngFilter) ?? .paeth
            options.fast = fast ?? false
        }
    }

    public var version = 1
    public var width: Int
    public var height: Int
    public var layout: Layout
    public var pages: [Page]
    public var sections: [Section]
    /// The title, when the sheet has one.
    public var title: Title?
    /// The rendering options (absent in manifests of layouts that were not rendered).
    public var render: Rendering?
    public var tiles: [Tile]
    public var skipped: [Skipped]
}

extension Manifest {
    /// What the manifest says about each laid-out source.
    struct Source {
        var path: String
        var displayed: Size
        var orientation: Int
        var format: String?
        var sortKey: SortKey?

        init(_ image: ProbedImage) {
            path = image.path
            displayed = image.info.displayedSize
            orientation = image.info.orientation.rawValue
            format = image.info.format.rawValue
            sortKey = image.sortKey
        }

        init(path: String, displayed: Size) {
            self.path = path
            self.displayed = displayed
            orientation = 1
        }
    }

    /// The manifest of `arrangement` for `sources`, its pages written to `outputs` (none for a
    /// layout that was not rendered).
    init(
        arrangement: Arrangement, sources: [Source], sectionTitles: [String], options: WallOptions,
        outputs: [String], warnings: (Int) -> [String], skipped: [CodecError], recipes: [Int: TileRecipe] = [:]
    ) {
        let canvas = arrangement.canvas
        self.init(
            width: canvas.width, height: canvas.height,
            layout: Layout(configuration: options.effectiveLayout, background: options.background.description, grouping: options.grouping),
            pages: zip(outputs, arrangement.pages).map { Page(file: $0, width: $1.width, height: $1.height) },
            sections: arrangement.sectionHeaders.map {
                Section(index: $0.section, title: sectionTitles.indices.contains($0.section) ? sectionTitles[$0.section] : "", page: $0.page, header: Box($0.frame))
            },
            title: arrangement.title.map { Title(text: options.title ?? "", box: Box($0)) },
            render: outputs.isEmpty ? nil : Rendering(options),
            tiles: sources.indices.map { i in
                let p = arrangement.placements[i]
                let source = sources[i]
                return Tile(
                    index: i, page: p.page, source: source.path, x: p.image.x, y: p.image.y,
                    width: p.image.width, height: p.image.height, sourceWidth: source.displayed.width,
                    sourceHeight: source.displayed.height, orientation: source.orientation, format: source.format,
                    crop: p.crop,
                    cell: Box(p.cell), caption: p.caption.map(Box.init), section: p.section, warnings: warnings(i),
                    sortKey: source.sortKey, decodedFor: recipes[i]?.decodedFor, via: recipes[i].flatMap { $0.via.isEmpty ? nil : $0.via })
            },
            skipped: skipped.map { Skipped(source: $0.path, reason: $0.reason) })
    }
}
