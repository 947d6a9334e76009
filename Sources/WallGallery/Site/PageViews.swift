import ImageWall
import WallCodecs
import WallCore

/// What an album's page shows: where it is, its sub-albums, its sheets and pictures.
struct AlbumView {
    /// Its folder's path in the tree ("" the top) and the name it is shown by.
    var path: String
    var name: String
    /// Its page, relative to the site.
    var page: String
    /// The albums from the top down to this one.
    var trail: [(name: String, page: String)]
    /// Pictures in it and the albums below it; its own.
    var count: Int
    var own: Int
    /// The first and last days pictures were taken, in it and below it.
    var dates: DateRange?
    /// The albums just below it.
    var children: [ChildView]
    /// Its sheets and its pictures in their order.
    var sheets: [GalleryRecord.SheetEntry]
    var pictures: [PictureView]
    var skipped: [GalleryRecord.SkippedEntry]
}

/// An album as its parent lists it.
struct ChildView {
    var name: String
    var page: String
    var count: Int
    var dates: DateRange?
    var cover: PictureView?
}

/// A picture as the pages show it.
struct PictureView {
    /// Its file's name, and its path in the tree.
    var name: String
    var original: String
    /// Its page, relative to the site.
    var page: String
    /// What its tile and page say of it.
    var tile: GalleryRecord.TileEntry
    var entry: GalleryRecord.PictureEntry?
    /// Its renditions, smallest first: the long side and the file (relative to the site).
    var renditions: [(side: Int, file: String)]
    /// Files drawn with it (a Live Photo's movie), by their paths in the tree.
    var companions: [String]

    /// Its text for `alt`: the author's description, else its name.
    var alt: String { entry?.details?.description ?? name }

    /// The rendition a page shows (1x): the picture page's size, or the largest below it.
    var shown: (file: String, size: Size)? {
        guard let entry,
            let one = renditions.last(where: { $0.side <= PictureRenditions.pageSide }) ?? renditions.first
        else { return nil }
        let size = PictureRenditions.fitted(Size(width: entry.width, height: entry.height), side: one.side)
        return (one.file, size)
    }

    /// The rendition for high-density screens and its density as `srcset` writes it: "2x" for
    /// one twice the 1x one's size, or "1.5x" for a picture that is only that big.
    var double: (file: String, density: String)? {
        guard let one = renditions.last(where: { $0.side <= PictureRenditions.pageSide }) ?? renditions.first,
            let larger = renditions.last, larger.side > one.side
        else { return nil }
        let density = min(2, Double(larger.side) / Double(one.side))
        let text =
            density == 2
            ? "2"
            : String(format: "%.2f", density).replacingOccurrences(of: "0$", with: "", options: .regularExpression)
        return (larger.file, text + "x")
    }
}

/// The first and last days of a set of pictures, from their ISO 8601 dates.
struct DateRange: Equatable {
    var first: String
    var last: String

    /// The range of `dates`' days (their first ten characters: the camera's clock, as the
    /// sheets order them); `nil` for none.
    static func of(_ dates: [String]) -> DateRange? {
        let days = dates.map { String($0.prefix(10)) }.filter { $0.count == 10 }
        guard let first = days.min(), let last = days.max() else { return nil }
        return DateRange(first: first, last: last)
    }

    /// Both ranges' days together.
    func joined(_ other: DateRange?) -> DateRange {
        guard let other else { return self }
        return DateRange(first: min(first, other.first), last: max(last, other.last))
    }

    /// "12 May 2021", "12–14 May 2021", "30 April – 2 May 2021", "12 May 2021 – 3 September 2023".
    var text: String {
        let a = DateRange.parts(first), b = DateRange.parts(last)
        guard let a, let b else { return first == last ? first : "\(first) – \(last)" }
        if a == b { return "\(a.day) \(DateRange.months[a.month - 1]) \(a.year)" }
        if a.year == b.year && a.month == b.month {
            return "\(a.day)–\(b.day) \(DateRange.months[a.month - 1]) \(a.year)"
        }
        if a.year == b.year {
            return "\(a.day) \(DateRange.months[a.month - 1]) – \(b.day) \(DateRange.months[b.month - 1]) \(a.year)"
        }
        return
            "\(a.day) \(DateRange.months[a.month - 1]) \(a.year) – \(b.day) \(DateRange.months[b.month - 1]) \(b.year)"
    }

    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    static func parts(_ day: String) -> (year: Int, month: Int, day: Int)? {
        let fields = day.split(separator: "-")
        guard fields.count == 3, let y = Int(fields[0]), let m = Int(fields[1]), let d = Int(fields[2]),
            (1...12).contains(m)
        else { return nil }
        return (y, m, d)
    }
}
