import Foundation
import ImageWall
import WallCache
import WallCodecs
import WallCore
import WallFiles
import WallLayout

#if canImport(Glibc)
    import Glibc
#endif

/// Files earlier builds wrote that no album needs now.
extension GalleryBuild {
    /// Removes the temporary files that a build killed part-way (`kill -9`, a power cut: no
    /// handler ran) left where it was writing — the site's top, and every folder its journal
    /// names — and says so; a build that is running (another process) keeps its own.
    func removeLeftovers(journaled: (paths: Set<String>, prefixes: [String])) {
        let written = (journaled.paths.union(journaled.prefixes)).filter(SitePaths.isInside).map { site + "/" + $0 }
        for (path, process) in TemporaryNames.removeLeftovers(besides: [site + "/" + SitePaths.record] + written) {
            hooks.warning("\(path): removed, left by a build that was stopped (process \(process))")
        }
    }

    /// Removes the files earlier builds wrote that no album needs now (pages of pictures and
    /// albums gone, sheets and renditions no longer shown), and the folders they leave empty.
    /// Only files the record or the journal name as the gallery's own are ever removed.
    mutating func removeOldFiles(journaled: (paths: Set<String>, prefixes: [String])) throws {
        var candidates = old.written.union(journaled.paths)
        for prefix in journaled.prefixes {
            let folder = FilePaths.folder(of: site + "/" + prefix), stem = FilePaths.name(of: prefix)
            for entry in directoryEntries(at: folder) ?? []
            where entry.name.hasPrefix(stem) && !entry.name.hasPrefix(".") {
                candidates.insert(String((folder + "/" + entry.name).dropFirst(site.count + 1)))
            }
        }
        var kept: Set<String> = []
        for album in record.albums.values {
            kept.formUnion(album.pages)
            for sheet in album.sheets { kept.formUnion(sheet.pages.map(\.file)) }
        }
        for (album, entry) in record.albums {
            for picture in entry.pictures {
                guard let file = record.files[Self.join(album, picture.name)], let key = file.key,
                    let sides = file.picture?.sides, !sides.isEmpty
                else { continue }
                kept.formUnion(PictureRenditions.files(renditions.key(content: key), sides: sides))
            }
        }
        record.written = kept
        // Compared byte for byte: as text, a page of "Café" written with an accent after its "e"
        // is one of "Café" written with "é", and would be kept for it.
        let keptBytes = Set(kept.map { Array($0.utf8) })
        var folders: [[UInt8]: String] = [:]
        for path in candidates where !keptBytes.contains(Array(path.utf8)) && SitePaths.isInside(path) {
            var status = stat()
            let full = site + "/" + path
            guard lstat(full.systemPath, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if unlink(full.systemPath) == 0 {
                report.filesRemoved += 1
                let folder = FilePaths.folder(of: full)
                folders[Array(folder.utf8)] = folder
            }
        }
        // Folders left empty, deepest first, up to the site (never it): rmdir removes none that holds anything.
        for folder in folders.values.sorted(by: { $0.utf8.count > $1.utf8.count }) {
            var folder = folder
            while folder.count > site.count, folder.hasPrefix(site + "/"), rmdir(folder.systemPath) == 0 {
                folder = FilePaths.folder(of: folder)
            }
        }
    }
}
