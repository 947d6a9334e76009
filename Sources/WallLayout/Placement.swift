import WallCore

/// The part of a source image shown in a tile, in displayed source pixels (fractions allowed).
public struct CropRegion: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// Where one image goes.
public struct Placement: Hashable, Sendable {
    /// The whole cell: image plus caption space.
    public var cell: Rect
    /// Where the image's pixels are drawn (inside `cell`).
    public var image: Rect
    /// The space reserved for the caption under the image, if any.
    public var caption: Rect?
    /// The part of the source shown; `nil` when the whole image is shown.
    public var crop: CropRegion?
    /// The section (group) the image belongs to; 0 when ungrouped.
    public var section: Int

    public init(cell: Rect, image: Rect, caption: Rect? = nil, crop: CropRegion? = nil, section: Int = 0) {
        self.cell = cell
        self.image = image
        self.caption = caption
        self.crop = crop
        self.section = section
    }

    /// The same placement moved by (`dx`, `dy`).
    func offset(dx: Int, dy: Int) -> Placement {
        func move(_ r: Rect) -> Rect { Rect(x: r.x + dx, y: r.y + dy, width: r.width, height: r.height) }
        return Placement(cell: move(cell), image: move(image), caption: caption.map(move), crop: crop, section: section)
    }

    /// The same placement mirrored left to right on a canvas `width` wide.
    func mirrored(width: Int) -> Placement {
        func flip(_ r: Rect) -> Rect { Rect(x: width - r.maxX, y: r.y, width: r.width, height: r.height) }
        return Placement(cell: flip(cell), image: flip(image), caption: caption.map(flip), crop: crop, section: section)
    }
}

/// A section's header band.
public struct SectionHeader: Hashable, Sendable {
    /// The section number, in order of appearance.
    public var section: Int
    /// The band reserved for the header text.
    public var frame: Rect
}
