import ImageWall
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The folders of a tree and their files with their stamps, found with `readdir` and `stat`
/// alone: nothing is opened. Links are followed as a recursive render follows them (a folder
/// reached again, through a link back up, is read once and named), but a link to a folder out
/// of the tree (`/etc`, a home folder) is not, and is named; hidden files and folders, the
/// site's own folder when it lies in the tree, and Deep Zoom pyramids' tile folders are left out.
struct LibraryWalk {
    /// A folder of the tree.
    struct Folder {
        /// Its path in the tree: "" for the tree, else "2024/Rome".
        var path: String
        /// Its files (not hidden), in byte order of their names.
        var files: [(name: String, stamp: FileStamp)] = []
        /// Its sub-folders' paths in the tree, in byte order.
        var folders: [String] = []
    }

    /// Every folder read, parents before children.
    var folders: [Folder] = []
    /// Folders not read, with the reason.
    var notRead: [String] = []
    /// Files and folders whose name is another's text in other Unicode characters ("é" as one
    /// character, or as "e" and an accent), each said with the two names' code points. The
    /// gallery knows files by their paths as text, in which the two are one: it shows the
    /// first in byte order, and leaves these out of the walk.
    var alike: [String] = []

    /// Walks `tree` (absolute), leaving out the folder `skipping` (the site) when it is in it.
    static func walk(_ tree: String, skipping site: FileStamp?) -> LibraryWalk {
        var walk = LibraryWalk()
        var visited: Set<[UInt64]> = []
        var status = stat()
        guard stat(tree.systemPath, &status) == 0 else { return walk }
        visited.insert([UInt64(status.st_dev), UInt64(status.st_ino)])
        let realTree = FilePaths.resolved(tree) ?? tree
        var pending = [""]
        while let relative = pending.popLast() {
            let absolute = relative.isEmpty ? tree : tree + "/" + relative
            guard let entries = directoryEntries(at: absolute) else {
                walk.notRead.append("\(absolute): \(systemErrorText())")
                continue
            }
            var folder = Folder(path: relative)
            let links = Set(entries.filter(\.isLink).map(\.name))
            let names = entries.map(\.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let pyramidFolders = Set(names.filter(InputScanner.isPyramid).map(DeepZoomGeometry.tilesFolder(of:)))
            // Names by text (Unicode's equivalence), the first of each: only a folder with a name
            // beyond ASCII can hold two of one text.
            let mixed = names.contains { !$0.utf8.allSatisfy { $0 < 0x80 } }
            var seen: [String: String] = [:]
            for name in names where !name.hasPrefix(".") {
                let path = absolute + "/" + name
                if mixed, let other = seen[name] {
                    walk.alike.append(
                        "\(path): its name is \"\(other)\" beside it written in other Unicode characters "
                            + "(\(Self.codePoints(name)) against \(Self.codePoints(other))); the gallery knows files "
                            + "and folders by their names as text, in which the two are one, so it shows \"\(other)\" "
                            + "alone: rename one")
                    continue
                } else if mixed {
                    seen[name] = name
                }
                var status = stat()
                guard stat(path.systemPath, &status) == 0 else { continue }  // a dangling link or a file just gone
                let child = relative.isEmpty ? name : relative + "/" + name
                switch status.st_mode & S_IFMT {
                case S_IFREG:
                    folder.files.append((name, FileStamp(status)))
                case S_IFDIR:
                    let stamp = FileStamp(status)
                    if let site, stamp.device == site.device, stamp.inode == site.inode { continue }
                    if pyramidFolders.contains(name) { continue }
                    if links.contains(name), let target = FilePaths.resolved(path),
                        target != realTree, !target.hasPrefix(realTree == "/" ? "/" : realTree + "/")
                    {
                        walk.notRead.append("\(path): not followed, a link to a folder out of the tree (\(target))")
                        continue
                    }
                    guard visited.insert([stamp.device, stamp.inode]).inserted else {
                        walk.notRead.append("\(path): read already (a link back to a folder above it)")
                        continue
                    }
                    folder.folders.append(child)
                default:
                    continue
                }
            }
            walk.folders.append(folder)
            pending += folder.folders.reversed()
        }
        return walk
    }

    /// The characters of `name` beyond ASCII as code points ("U+0301" of "Café" written with an
    /// accent after its "e"), to tell two names that look the same apart.
    static func codePoints(_ name: String) -> String {
        let beyond = name.unicodeScalars.filter { !$0.isASCII }.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return beyond.isEmpty ? "ASCII only" : beyond.joined(separator: " ")
    }
}
