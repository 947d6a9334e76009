import Foundation
import ImageWall
import WallCache
import WallCodecs
import WallCore
import WallFiles
import WallLayout

/// Draws one album's sheets and makes its pictures' renditions. It holds only what drawing
/// reads (the build's settings and the album's own files, as the build read them), so an album
/// can be drawn on a thread of its own while the build goes on with another.
struct AlbumDrawer: Sendable {
    let tree: String
    let site: String
    let settings: GallerySettings
    let hooks: GalleryHooks
    let journal: SiteJournal
    let renditions: PictureRenditions
    /// The album's files, by their paths in the tree: their stamps and contents' keys.
    let files: [String: GalleryRecord.FileEntry]

    /// What drawing an album gave: what its sheets show, how many renditions were made, and the
    /// files left out (with their album's path and why).
    struct Drawn: Sendable {
        var entry: GalleryRecord.AlbumEntry
        var renditions: Int
        var skipped: [String]
    }

    /// The paths of files in `folder` whose names are an album file's in other Unicode
    /// characters, byte for byte: the build knows files by their names as text, in which the
    /// two are one, and keeps the first of them in byte order (its walk says so); the render
    /// of the folder leaves these out, so that the sheets show what the pages and the record do.
    func twins(in folder: String, album: String) -> Set<[UInt8]> {
        guard files.keys.contains(where: { !$0.utf8.allSatisfy { $0 < 0x80 } }),
            let entries = directoryEntries(at: folder)
        else { return [] }
        var twins: Set<[UInt8]> = []
        for entry in entries where !entry.name.utf8.allSatisfy({ $0 < 0x80 }) {
            let path = GalleryBuild.join(album, entry.name)
            if let known = files.index(forKey: path), !files.keys[known].utf8.elementsEqual(path.utf8) {
                twins.insert(Array((folder + "/" + entry.name).utf8))
            }
        }
        return twins
    }

    /// Draws the album's sheets (every variant, in the site's sheets folder, named by `key`),
    /// as `imagewall render FOLDER` draws them, and its pictures' renditions from the same
    /// decodes; returns what the sheets show. Stops, as when the build is cancelled, once
    /// `stopped` says so.
    func draw(album path: String, key: String, stopped: @escaping @Sendable () -> Bool = { false }) throws -> Drawn {
        let folder = path.isEmpty ? tree : tree + "/" + path
        let leftOut = twins(in: folder, album: path)
        var jobs: [(output: String, options: WallOptions)] = []
        var prefixes: [String] = []
        for (v, variant) in settings.sheetVariants.enumerated() {
            var options = settings.wall
            options.input.scan.recursive = false
            options.input.scan.leftOut = leftOut
            options.layout = variant
            options.rendering.tile.decodeFloor = renditions.floor
            options.cache?.keepsDecodes = false  // tiles and bands are kept; renditions are the site's own
            if settings.sheetFormat != .png, options.rendering.quality == nil {
                options.rendering.quality = settings.quality
            }
            // Drawn under a name of its album's own (two folders whose names are one text in
            // other Unicode forms share a key), then named by its content.
            let file = SitePaths.sheet(
                SitePaths.digest([key, String(v), path]), fileExtension: settings.sheetFormat.fileExtension)
            prefixes.append(settings.sheetFormat.stem(of: file))
            jobs.append((site + "/" + file, options))
        }
        // The pictures' renditions are made from the decode their tiles are drawn from; the
        // cache is told their contents' keys, read already (while their files are as read).
        var keys: [String: String] = [:]
        var contents: [String: (FileStamp, CacheKey)] = [:]
        for (name, file) in files {
            guard let key = file.key else { continue }
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
            profile: profile, isCancelled: { [hooks] in stopped() || hooks.isCancelled() },
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
                    return nil
                }
                let shown = image.info.displayedSize
                let sides = PictureRenditions.sides(long: max(shown.width, shown.height))
                guard !renditions.exist(key, sides: sides) else { return nil }
                do throws(CodecError) {
                    let halved = try profile.measure(.renditions) { () throws(CodecError) in
                        try renditions.write(decoded, shown: shown, sides: sides, key: key)
                    }
                    made.withLock { $0[image.path] = .some(nil) }
                    return halved
                } catch {
                    made.withLock { $0[image.path] = .some(error) }
                    return nil
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
        } catch let error as WallError where settings.wall.limits.onError == .skip {
            // Nothing drawable in the folder: the album lists its files and why.
            warn("\(folder): \(error.message)")
            let names = files.keys.filter { files[$0]?.looksLikeImage == true }
            let entry = GalleryRecord.AlbumEntry(
                sheetKey: key, sheets: [], pictures: [],
                skipped: names.sorted().map {
                    GalleryRecord.SkippedEntry(name: FilePaths.name(of: $0), reason: error.message)
                })
            return Drawn(entry: entry, renditions: 0, skipped: [])
        }
        var renditionsMade = 0
        for error in made.withLock({ $0.values }) {
            if let error { throw error }  // only writes fail here: the site cannot be whole
            renditionsMade += 1
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
        let skipped = entry.skipped.map { GalleryBuild.join(path, $0.name) + ": " + $0.reason }
        for manifest in manifests {
            var manifest = manifest
            for page in manifest.pages.indices {
                guard let file = manifest.pages[page].file else { continue }
                manifest.pages[page].file = try namedByContent(file)
            }
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
        return Drawn(entry: entry, renditions: renditionsMade, skipped: skipped)
    }

    /// The sheet page at `path` (in the site), moved to the name of its content: a sheet drawn
    /// again the same (a file touched, a setting changed and back) keeps its name and, the
    /// earlier file being kept, its time, so that neither browsers nor `rsync` fetch it again.
    func namedByContent(_ path: String) throws -> String {
        guard let content = CacheKey.ofFile(atPath: path) else {
            throw FileError(.read, path: path, reason: systemErrorText())
        }
        let fileExtension = String(FilePaths.splitExtension(path).extension.dropFirst())
        let named = SitePaths.sheet(content.description, fileExtension: fileExtension)
        let target = site + "/" + named
        guard target != path else { return target }
        if Folders.exists(target) {
            unlink(path.systemPath)
        } else {
            try journal.note([named])
            try PictureRenditions.makeFolder(of: target)
            guard rename(path.systemPath, target.systemPath) == 0 else {
                throw FileError(.write, path: target, reason: systemErrorText())
            }
        }
        return target
    }
}
