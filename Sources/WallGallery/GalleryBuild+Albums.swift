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

/// The albums' sheets
extension GalleryBuild {
    /// The albums: folders with pictures and every folder above one (they lead to it), the top
    /// included; `order` has each album after those below it.
    struct AlbumTree {
        var order: [String]
        var children: [String: [String]]
    }

    func albumTree(_ albums: [String: [String]], walk: LibraryWalk) -> AlbumTree {
        var kept: Set<String> = [""]
        for path in albums.keys {
            var path = path
            kept.insert(path)
            while path.contains("/") {
                path = FilePaths.parent(of: path)
                kept.insert(path)
            }
        }
        var children: [String: [String]] = [:]
        for folder in walk.folders where kept.contains(folder.path) {
            children[folder.path] = folder.folders.filter(kept.contains)
        }
        let order = walk.folders.map(\.path).filter(kept.contains).reversed()
        return AlbumTree(order: Array(order), children: children)
    }

    /// The key of an album's sheets: the settings, and each file's name, content and time (the
    /// time can date a picture), and the folder's path when captions or sections show it.
    func sheetKey(_ album: String, files: [String]) -> String {
        var parts = [sheetSettings]
        let caption = settings.wall.rendering.caption?.description ?? ""
        if caption.contains("{path}") || settings.wall.grouping == .folder { parts.append("folder " + album) }
        for name in files {
            let entry = record.files[Self.join(album, name)]
            parts += [name, entry?.key ?? "", String(entry?.stamp.modified ?? 0)]
        }
        return SitePaths.digest(parts)
    }

    /// Whether the album has anything to do: sheets to draw, or pages to write.
    func needsWork(_ album: String, files: [String]) -> Bool {
        guard let entry = old.albums[album] else { return true }
        return entry.sheetKey != (files.isEmpty ? "" : sheetKey(album, files: files))
    }

    /// What an album's sheets need: none (no pictures), those of the record (their key is
    /// unchanged), those of another folder's record (it moved), or to be drawn.
    enum SheetsPlan {
        case none
        case kept(GalleryRecord.AlbumEntry)
        case moved(GalleryRecord.AlbumEntry)
        case draw(key: String)
    }

    func sheetsPlan(album path: String, files: [String]) -> SheetsPlan {
        guard !files.isEmpty else { return .none }
        let key = sheetKey(path, files: files)
        if let kept = old.albums[path], kept.sheetKey == key, sheetsExist(kept) { return .kept(kept) }
        if let moved = old.albums.first(where: { $0.value.sheetKey == key && sheetsExist($0.value) })?.value {
            return .moved(moved)
        }
        return .draw(key: key)
    }

    /// Brings one album's files up to date, its sheets as `plan` says (those to draw come from
    /// `drawn`): what is read of its pictures, and their renditions. Its pages stay as they are
    /// until every album is done.
    mutating func prepare(album path: String, plan: SheetsPlan, drawn: () throws -> AlbumDrawer.Drawn) throws {
        var entry: GalleryRecord.AlbumEntry
        switch plan {
        case .none:
            entry = GalleryRecord.AlbumEntry(sheetKey: "", sheets: [], pictures: [])
        case .kept(let kept):
            entry = kept
        case .moved(let moved):
            entry = moved
            entry.pages = []
            entry.pagesKey = ""
            report.moved.append(path)
        case .draw:
            let result = try drawn()
            report.renditions += result.renditions
            report.skipped += result.skipped
            entry = result.entry
            report.drawn.append(path)
        }
        if let kept = old.albums[path], entry.pages.isEmpty, entry.sheetKey == kept.sheetKey {
            (entry.pages, entry.pagesKey) = (kept.pages, kept.pagesKey)
        }
        try readPictures(of: path, entry)
        try makeRenditions(of: path, entry)
        record.albums[path] = entry
        for sheet in entry.sheets { record.written.formUnion(sheet.pages.map(\.file)) }
        for picture in entry.pictures {
            guard let file = record.files[Self.join(path, picture.name)], let key = file.key,
                let sides = file.picture?.sides
            else { continue }
            record.written.formUnion(PictureRenditions.files(renditions.key(content: key), sides: sides))
        }
    }

    /// Whether every page of the album's sheets is in the site.
    func sheetsExist(_ album: GalleryRecord.AlbumEntry) -> Bool {
        !album.sheets.isEmpty
            && album.sheets.allSatisfy { $0.pages.allSatisfy { Folders.exists(site + "/" + $0.file) } }
    }

    /// The key of how sheets are drawn: ImageWall and its libraries, and every setting that
    /// shapes a sheet's pixels or its pictures' order.
    static func sheetSettings(_ settings: GallerySettings) -> String {
        struct Shaping: Encodable {
            var imagewall: String, libraries: String
            var variants: [LayoutConfiguration]
            var grouping: String, background: RGBAColor, rendering: RenderSettings
            var include: [String], exclude: [String], pairs: String
            var sort: String, reverse: Bool, seed: UInt64
            var onError: String, strict: Bool, maxImagePixels: Int, maxSheetPixels: Int
            var format: String, quality: Int
        }
        let w = settings.wall
        let shaping = Shaping(
            imagewall: Wall.version, libraries: CodecLibraries.versions, variants: settings.sheetVariants,
            grouping: w.grouping.rawValue, background: w.background, rendering: w.rendering,
            include: w.input.scan.include,
            exclude: w.input.scan.exclude, pairs: "\(w.input.scan.pairs)", sort: "\(w.input.sort)",
            reverse: w.input.reverse, seed: w.input.seed,
            onError: w.limits.onError.rawValue, strict: w.limits.strict, maxImagePixels: w.limits.maxImagePixels,
            maxSheetPixels: w.limits.maxSheetPixels, format: settings.sheetFormat.rawValue, quality: settings.quality)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = (try? encoder.encode(shaping)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return SitePaths.digest(["sheets 1", text])
    }

    /// The drawers of `albums` (paths and sheet keys), each given its own folder's files, the
    /// record's files sorted by folder in one pass.
    func drawers(_ albums: [(path: String, key: String)]) -> [(drawer: AlbumDrawer, album: String, key: String)] {
        guard !albums.isEmpty else { return [] }
        let byFolder = Dictionary(grouping: record.files, by: { Self.folder(of: $0.key) })
        return albums.map { album in
            let files = Dictionary(uniqueKeysWithValues: byFolder[album.path] ?? [])
            let drawer = AlbumDrawer(
                tree: tree, site: site, settings: settings, hooks: hooks, journal: journal, renditions: renditions,
                files: files)
            return (drawer, album.path, album.key)
        }
    }
}
