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

    /// Brings one album's files up to date: its sheets (kept when their key is unchanged, or
    /// found under another folder when it moved), what is read of its pictures, and their
    /// renditions. Its pages stay as they are until every album is done.
    mutating func prepare(album path: String, files: [String]) throws {
        var entry: GalleryRecord.AlbumEntry
        if files.isEmpty {
            entry = GalleryRecord.AlbumEntry(sheetKey: "", sheets: [], pictures: [])
        } else {
            let key = sheetKey(path, files: files)
            if let kept = old.albums[path], kept.sheetKey == key, sheetsExist(kept) {
                entry = kept
            } else if let moved = old.albums.first(where: { $0.value.sheetKey == key && sheetsExist($0.value) })?.value
            {
                entry = moved
                entry.pages = []
                entry.pagesKey = ""
                report.moved.append(path)
            } else {
                entry = try drawSheets(album: path, key: key)
                report.drawn.append(path)
            }
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
            && album.sheets.allSatisfy { $0.pages.allSatisfy { access(site + "/" + $0.file, F_OK) == 0 } }
    }

    /// The key of how sheets are drawn: ImageWall and its libraries, and every setting that
    /// shapes a sheet's pixels or its pictures' order.
    var sheetSettings: String {
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
            grouping: w.grouping.rawValue, background: w.background, rendering: w.rendering, include: w.scan.include,
            exclude: w.scan.exclude, pairs: "\(w.scan.pairs)", sort: "\(w.sort)", reverse: w.reverse, seed: w.seed,
            onError: w.onError.rawValue, strict: w.strict, maxImagePixels: w.maxImagePixels,
            maxSheetPixels: w.maxSheetPixels, format: settings.sheetFormat.rawValue, quality: settings.quality)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = (try? encoder.encode(shaping)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return SitePaths.digest(["sheets 1", text])
    }

    /// Draws the album's sheets (every variant, in the site's sheets folder, named by `key`),
    /// as `imagewall render FOLDER` draws them; returns what they show.
    mutating func drawSheets(album path: String, key: String) throws -> GalleryRecord.AlbumEntry {
        let folder = path.isEmpty ? tree : tree + "/" + path
        var jobs: [(output: String, options: WallOptions)] = []
        var prefixes: [String] = []
        let renditions = self.renditions
        for (v, variant) in settings.sheetVariants.enumerated() {
            var options = settings.wall
            options.scan.recursive = false
            options.layout = variant
            options.rendering.decodeFloor = renditions.floor
            options.cache?.keepsDecodes = false  // tiles and bands are kept; renditions are the site's own
            if settings.sheetFormat != .png, options.rendering.quality == nil {
                options.rendering.quality = settings.quality
            }
            let file = SitePaths.sheet(
                SitePaths.digest([key, String(v)]), fileExtension: settings.sheetFormat.fileExtension)
            prefixes.append(settings.sheetFormat.stem(of: file))
            jobs.append((site + "/" + file, options))
        }
        // The pictures' renditions are made from the decode their tiles are drawn from; the
        // cache is told their contents' keys, read already (while their files are as read).
        var keys: [String: String] = [:]
        var contents: [String: (FileStamp, CacheKey)] = [:]
        for name in record.files.keys where Self.folder(of: name) == path {
            guard let file = record.files[name], let key = file.key else { continue }
            keys[tree + "/" + name] = renditions.key(content: key)
            if let content = CacheKey(hex: key) { contents[tree + "/" + name] = (file.stamp, content) }
        }
        let named = keys, known = contents
        prefixes += named.values.map { SitePaths.renditionPrefix($0) }
        try journal.note([], prefixes: prefixes)
        for job in jobs { try PictureRenditions.makeFolder(of: job.output) }
        let warn = hooks.warning
        let profile = hooks.profile
        let made = Locked<[String: CodecError?]>([:])
        let runHooks = RunHooks(
            profile: profile, isCancelled: hooks.isCancelled,
            diagnostics: { diagnostic in
                switch diagnostic {
                case .note: return
                case .skipped(let source, let reason, let stage):
                    warn("skipped \(source): \(stage.rawValue): \(reason)")
                case .warning(let source, let message): warn("\(source): \(message)")
                }
            },
            decoded: { image, decodedFor, decoded in
                guard let key = named[image.path], renditions.isFloorDecode(image.info, decodedFor: decodedFor) else {
                    return
                }
                let shown = image.info.displayedSize
                let sides = PictureRenditions.sides(long: max(shown.width, shown.height))
                guard !renditions.exist(key, sides: sides) else { return }
                do throws(CodecError) {
                    try profile.measure(.renditions) { () throws(CodecError) in
                        try renditions.write(decoded, shown: shown, sides: sides, key: key)
                    }
                    made.withLock { $0[image.path] = .some(nil) }
                } catch {
                    made.withLock { $0[image.path] = .some(error) }
                }
            },
            contentKey: { path in
                guard let (stamp, key) = known[path], FileStamp(path: path) == stamp else { return nil }
                return key
            })
        let manifests: [Manifest]
        do {
            manifests = try Wall(inputs: [folder]).render(variants: jobs, hooks: runHooks)
        } catch WallRunError.cancelled {
            throw WallRunError.cancelled
        } catch let error as WallError where settings.wall.onError == .skip {
            // Nothing drawable in the folder: the album lists its files and why.
            warn("\(folder): \(error.message)")
            let names = record.files.keys.filter {
                Self.folder(of: $0) == path && record.files[$0]?.looksLikeImage == true
            }
            return GalleryRecord.AlbumEntry(
                sheetKey: key, sheets: [], pictures: [],
                skipped: names.sorted().map {
                    GalleryRecord.SkippedEntry(name: FilePaths.name(of: $0), reason: error.message)
                })
        }
        for error in made.withLock({ $0.values }) {
            if let error { throw error }  // only writes fail here: the site cannot be whole
            report.renditions += 1
        }
        let tiles = manifests[0].tiles.sorted { $0.index < $1.index }
        var entry = GalleryRecord.AlbumEntry(
            sheetKey: key, sheets: [],
            pictures: tiles.map { tile in
                GalleryRecord.TileEntry(
                    name: FilePaths.name(of: tile.source), placeholder: tile.placeholder, damaged: tile.damaged)
            })
        for tile in tiles {
            if let companions = tile.companions, !companions.isEmpty {
                entry.companions[FilePaths.name(of: tile.source)] = companions.map(FilePaths.name(of:))
            }
        }
        entry.skipped = manifests[0].skipped.map {
            GalleryRecord.SkippedEntry(name: FilePaths.name(of: $0.source), reason: $0.reason)
        }
        for skipped in entry.skipped { report.skipped.append(Self.join(path, skipped.name) + ": " + skipped.reason) }
        for manifest in manifests {
            let byIndex = Dictionary(manifest.tiles.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })
            entry.sheets.append(
                GalleryRecord.SheetEntry(
                    columns: manifest.layout.configuration.columns, width: manifest.width,
                    pages: manifest.pages.compactMap { page in
                        page.file.map {
                            GalleryRecord.PageEntry(
                                file: String($0.dropFirst(site.count + 1)), width: page.width, height: page.height)
                        }
                    },
                    tiles: tiles.map { tile in
                        let placed = byIndex[tile.index] ?? tile
                        return GalleryRecord.Box(
                            page: placed.page, x: placed.x, y: placed.y, width: placed.width, height: placed.height)
                    }))
        }
        return entry
    }
}
