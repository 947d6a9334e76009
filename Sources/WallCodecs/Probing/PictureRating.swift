import CExivShim

/// How a photo organiser or a camera rated a picture: stars (EXIF `Rating`, else XMP
/// `xmp:Rating`), and whether it was rejected (XMP `xmp:Rating` of −1, as Lightroom, darktable
/// and digiKam write a reject), read through Exiv2.
public struct PictureRating: Sendable, Hashable {
    /// Stars, 0 to 5; `nil` when unrated.
    public var stars: Int?
    /// Whether the picture was rejected.
    public var isRejected: Bool

    /// A rating of `stars`, rejected or not.
    public init(stars: Int? = nil, isRejected: Bool = false) {
        self.stars = stars
        self.isRejected = isRejected
    }

    /// The rating of the file at `path`: unrated where Exiv2 cannot read it (GIF, videos).
    public static func read(path: String) -> PictureRating {
        var read = iw_exiv_metadata()
        var reason = [CChar](repeating: 0, count: 256)
        guard iw_exiv_read(path.systemPath, 0, nil, &read, &reason, reason.count) == 0 else { return PictureRating() }
        return PictureRating(stars: read.rating >= 0 ? Int(read.rating) : nil, isRejected: read.rejected != 0)
    }
}
