import Foundation
import ImageWall
import WallCodecs
import WallCore

/// What an album's page shows: where it is, its sub-albums, its sheets and pictures.
package struct AlbumView {
    /// Its folder's path in the tree ("" the top) and the name it is shown by.
    package var path: String
    package var name: String
    /// Its page, relative to the site.
    package var page: String
    /// The albums from the top down to this one.
    package var trail: [(name: String, page: String)]
    /// Pictures in it and the albums below it; its own.
    package var count: Int
    package var own: Int
    /// The first and last days pictures were taken, in it and below it.
    package var dates: DateRange?
    /// The albums just below it.
    package var children: [ChildView]
    /// Its sheets and its pictures in their order.
    package var sheets: [AlbumSheet]
    package var pictures: [PictureView]
    package var skipped: [SkippedFile]

    /// The view of the album `name` at `path`, its page `page`.
    package init(
        path: String, name: String, page: String, trail: [(name: String, page: String)], count: Int, own: Int,
        dates: DateRange?, children: [ChildView], sheets: [AlbumSheet], pictures: [PictureView],
        skipped: [SkippedFile]
    ) {
        self.path = path
        self.name = name
        self.page = page
        self.trail = trail
        self.count = count
        self.own = own
        self.dates = dates
        self.children = children
        self.sheets = sheets
        self.pictures = pictures
        self.skipped = skipped
    }
}

/// An album as its parent lists it.
package struct ChildView {
    package var name: String
    package var page: String
    package var count: Int
    package var dates: DateRange?
    package var cover: PictureView?

    /// The album `name`, its page `page`, as its parent lists it.
    package init(name: String, page: String, count: Int, dates: DateRange?, cover: PictureView?) {
        self.name = name
        self.page = page
        self.count = count
        self.dates = dates
        self.cover = cover
    }
}

/// A picture as the pages show it.
package struct PictureView {
    /// Its file's name, and its path in the tree.
    package var name: String
    package var original: String
    /// Its page, relative to the site.
    package var page: String
    /// What its tile and page say of it.
    package var tile: AlbumTile
    package var entry: PictureFacts?
    /// Its renditions, smallest first: the long side and the file (relative to the site).
    package var renditions: [(side: Int, file: String)]
    /// Files drawn with it (a Live Photo's movie), by their paths in the tree.
    package var companions: [String]

    /// The picture `name` at `original` in the tree, its page `page`.
    package init(
        name: String, original: String, page: String, tile: AlbumTile, entry: PictureFacts?,
        renditions: [(side: Int, file: String)], companions: [String]
    ) {
        self.name = name
        self.original = original
        self.page = page
        self.tile = tile
        self.entry = entry
        self.renditions = renditions
        self.companions = companions
    }

    /// The long side of the rendition a picture's page shows at 1x.
    package static let pageSide = 1000
    /// Its text for `alt`: the author's description, else its name.
    package var alt: String { entry?.details?.description ?? name }

    /// The rendition a page shows (1x): the picture page's size, or the largest below it.
    package var shown: (file: String, size: Size)? {
        guard let entry,
            let one = renditions.last(where: { $0.side <= PictureView.pageSide }) ?? renditions.first
        else { return nil }
        let size = RenditionWriter.fitted(Size(width: entry.width, height: entry.height), side: one.side)
        return (one.file, size)
    }

    /// The rendition for high-density screens and its density as `srcset` writes it: "2x" for
    /// one twice the 1x one's size, or "1.5x" for a picture that is only that big.
    package var double: (file: String, density: String)? {
        guard let one = renditions.last(where: { $0.side <= PictureView.pageSide }) ?? renditions.first,
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
