import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Folders ImageWall wrote that a recursive render finds among the pictures: a page's files
/// (`PAGE_files/`, renditions and sheet copies, beside `PAGE.html` that names ImageWall as its
/// generator) and a gallery site (a folder holding the gallery's record). They are left out and
/// named, as earlier sheets are; a browser's saved page (`Page_files/` beside a page another
/// program made) is read as any folder.
public enum OwnFolders {
    /// The line every page ImageWall writes has in its head.
    public static var generatorMeta: String { "<meta name=\"generator\" content=\"\(ImageWallRelease.software)\">" }

    /// The file a gallery site keeps its record in, at its top.
    public static let galleryRecord = ".imagewall-gallery.json"

    /// Whether the sub-folder `name` of `folder`, whose entries are `present`, is one ImageWall wrote.
    static func isOwn(_ name: String, in folder: String, present: Set<String>) -> Bool {
        let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
        if access((path + "/" + galleryRecord).systemPath, F_OK) == 0 { return true }
        guard name.hasSuffix("_files") else { return false }
        let page = String(name.dropLast("_files".count)) + ".html"
        guard present.contains(page) else { return false }
        return isOwnPage(String(path.dropLast(name.count)) + page)
    }

    /// Whether the HTML file at `path` names ImageWall as its generator in its first 4 KB.
    static func isOwnPage(_ path: String) -> Bool {
        guard let file = fopen(path.systemPath, "rb") else { return false }
        defer { fclose(file) }
        var head = [UInt8](repeating: 0, count: 4096)
        let count = head.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        let marker = Array("<meta name=\"generator\" content=\"ImageWall ".utf8)
        return count >= marker.count
            && head[..<count].indices.contains { at in
                at + marker.count <= count && head[at..<at + marker.count].elementsEqual(marker)
            }
    }
}
