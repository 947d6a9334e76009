import WallCore

/// Where one image goes.
public struct Placement: Hashable, Sendable {
    /// The whole cell: image plus caption space.
    public var cell: Rect
    /// Where the image's pixels are drawn (inside `cell`).
    public var image: Rect
    /// The space reserved for the caption under the image, if any.
    public var caption: Rect?
    /// The part of the source shown; `nil` when the whole image is shown.
    public var crop: Region?
    /// The section (group) the image belongs to; 0 when ungrouped.
    public var section: Int
    /// The page the image is on; its rectangles are in that page's coordinates.
    public var page: Int

    /// A placement of an image in `cell`, drawn in `image`.
    public init(cell: Rect, image: Rect, caption: Rect? = nil, crop: Region? = nil, section: Int = 0, page: Int = 0) {
        self.cell = cell
        self.image = image
        self.caption = caption
        self.crop = crop
        self.section = section
        self.page = page
    }

    /// The same placement moved by (`dx`, `dy`).
    func offset(dx: Int, dy: Int) -> Placement {
        var moved = self
        moved.cell = cell.offset(dx: dx, dy: dy)
        moved.image = image.offset(dx: dx, dy: dy)
        moved.caption = caption?.offset(dx: dx, dy: dy)
        return moved
    }

    /// The same placement mirrored left to right on a canvas `width` wide.
    func mirrored(width: Int) -> Placement {
        var flipped = self
        flipped.cell = cell.mirrored(width: width)
        flipped.image = image.mirrored(width: width)
        flipped.caption = caption?.mirrored(width: width)
        return flipped
    }
}

/// A section's header band.
public struct SectionHeader: Hashable, Sendable {
    /// The section number, in order of appearance.
    public var section: Int
    /// The band reserved for the header text.
    public var frame: Rect
    /// The page the band is on.
    public var page: Int

    /// The header of `section`, drawn in `frame` on `page`.
    public init(section: Int, frame: Rect, page: Int = 0) {
        self.section = section
        self.frame = frame
        self.page = page
    }
}

extension Rect {
    func offset(dx: Int, dy: Int) -> Rect { Rect(x: x + dx, y: y + dy, width: width, height: height) }
    func mirrored(width canvasWidth: Int) -> Rect { Rect(x: canvasWidth - maxX, y: y, width: width, height: height) }
}
