import ImageWall
import WallCache
import WallFiles

/// Where a gallery puts what it writes in the site folder, every path relative to it. The
/// site mirrors the tree: the album of `2024/Rome` is `2024/Rome/index.html` and its pictures'
/// pages `2024/Rome/_pictures/NAME.html`. Names the gallery writes in an album's folder begin
/// with `_` (or are `index.html`); a folder of the tree whose name would collide (`_pictures`,
/// `index.html`) gets one `_` more, so no tree name reaches a file the gallery writes.
/// Sheets and renditions, found by their content, are under `_files/` at the top.
enum SitePaths {
    /// A tree folder's name as a site folder's.
    static func escaped(_ name: String) -> String {
        name.hasPrefix("_") || name == "index.html" ? "_" + name : name
    }

    /// The site folder of the tree folder `relative` ("" for the tree itself), ending in `/`
    /// unless it is the top.
    static func albumFolder(_ relative: String) -> String {
        relative.isEmpty ? "" : FilePaths.components(of: relative).map(escaped).joined(separator: "/") + "/"
    }

    /// The album page of the tree folder `relative`.
    static func albumPage(_ relative: String) -> String { albumFolder(relative) + "index.html" }

    /// The page of the picture `name` in the album of `relative`: its name and `.html`, or for a
    /// name too long for one more suffix, its first 200 bytes and a hash of the whole.
    static func picturePage(album relative: String, name: String) -> String {
        albumFolder(relative) + "_pictures/" + pageName(of: name)
    }

    static func pageName(of name: String) -> String {
        guard name.utf8.count > 240 else { return name + ".html" }
        var cut = ""
        for character in name {
            if cut.utf8.count + String(character).utf8.count > 200 { break }
            cut.append(character)
        }
        return cut + "-" + String(digest([name]).prefix(12)) + ".html"
    }

    /// The shared files' folder.
    static let files = "_files/"

    /// The rendition named `key` (see ``PictureRenditions/key(content:)``) at `side` px.
    static func rendition(_ key: String, side: Int) -> String {
        renditionPrefix(key) + "\(side).jpg"
    }

    /// What the names of every rendition named `key` begin with.
    static func renditionPrefix(_ key: String) -> String {
        "\(files)pictures/\(key.prefix(2))/\(key)-"
    }

    /// The first file of the sheet `key` (a whole album's variant) as it is drawn, its later
    /// pages named as ``ImageWall/PageFormat/pageFiles(for:count:)`` names them; and each page
    /// drawn, named then by the key of its content (``AlbumDrawer/namedByContent(_:)``).
    static func sheet(_ key: String, fileExtension: String) -> String {
        "\(files)sheets/\(key.prefix(2))/\(key).\(fileExtension)"
    }

    /// The record of what the gallery wrote and read, its journal and its lock, beside the pages.
    static let record = OwnFolders.galleryRecord
    static let journal = ".imagewall-gallery.journal"
    static let lock = ".imagewall-gallery.lock"

    /// A site-relative path the gallery may have written: relative, with no `.` or `..` part.
    static func isInside(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/")
            && !path.split(separator: "/", omittingEmptySubsequences: false).contains {
                $0.isEmpty || $0 == "." || $0 == ".."
            }
    }

    /// 32 hex digits of the texts' XXH3-128, each added with its length.
    static func digest(_ parts: [String]) -> String {
        var hasher = KeyHasher()
        for part in parts { hasher.add(part) }
        return hasher.finish().description
    }
}
