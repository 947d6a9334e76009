import Foundation
import ImageWall
import WallCache
import WallCodecs
import WallCore
import WallLayout

#if canImport(Glibc)
    import Glibc
#endif

/// One build of a site: what changed since the record, and the work it asks for. First each
/// album's sheets and its pictures' renditions (the long part, named by content, beside what
/// the pages show now), album by album from the deepest up; the record is written as albums
/// are done and when the build is stopped, so the next build goes on from there. Then, in one
/// go that is not stopped, the pages whose text changed, each album's put in place together,
/// and last the files no page shows any more are removed: a build stopped at any point leaves
/// every page as it was or as it is now, linking only to files that are there.
struct GalleryBuild {
    let tree: String
    let site: String
    let settings: GallerySettings
    let hooks: GalleryHooks
    private(set) var report = GalleryReport()

    /// The record being made, and the one the build started from.
    private var record = GalleryRecord()
    private var old = GalleryRecord()
    private var journal: SiteJournal
    private var lastSaved = 0.0

    init(tree: String, site: String, settings: GallerySettings, hooks: GalleryHooks) {
        self.tree = tree
        self.site = site
        self.settings = settings
        self.hooks = hooks
        journal = SiteJournal(site: site)
    }

    private var threads: Int { max(1, settings.wall.threads) }

    /// How renditions are made: from the decode the sheets are drawn from.
    private var renditions: PictureRenditions {
        var decoder = ImageDecoder()
        decoder.fast = settings.wall.rendering.fast
        return PictureRenditions(decoder: decoder, quality: settings.quality, site: site)
    }

    mutating func run() throws -> GalleryReport {
        let (recorded, problem) = GalleryRecord.read(site: site)
        if let problem { hooks.warning(problem) }
        old = recorded
        let journaled = SiteJournal.read(site: site)
        record.tree = tree
        record.settings = sheetSettings
        record.written = old.written
        let walk = LibraryWalk.walk(tree, skipping: FileStamp(path: site))
        for reason in walk.notRead { hooks.warning("folder not read: \(reason)") }

        try look(at: walk)
        let albums = albumFolders(walk)
        try readKeys(albums)
        let tree = albumTree(albums, walk: walk)
        lastSaved = ProgressDisplayClock.now()
        let work = tree.order.filter { needsWork($0, files: albums[$0] ?? []) }
        var done = 0
        hooks.progress(GalleryProgress(stage: .albums, done: 0, total: work.count))
        do {
            for path in tree.order {
                try checkCancelled()
                let needed = work.contains(path)
                try prepare(album: path, files: albums[path] ?? [])
                if needed {
                    done += 1
                    hooks.progress(GalleryProgress(stage: .albums, done: done, total: work.count))
                    if ProgressDisplayClock.now() - lastSaved > 5 { try savePartial() }
                }
            }
        } catch WallRunError.cancelled {
            // What is done is kept: the next build goes on from here.
            try savePartial()
            throw WallRunError.cancelled
        }
        // The pages, last, all of them, without stopping (they take no decoding): every page
        // then links to pages and files that are there.
        hooks.progress(GalleryProgress(stage: .pages, done: 0, total: tree.order.count))
        for (n, path) in tree.order.enumerated() {
            try writePages(of: path, tree: tree)
            hooks.progress(GalleryProgress(stage: .pages, done: n + 1, total: tree.order.count))
        }
        report.albums = tree.order.count
        report.pictures = record.albums.values.reduce(0) { $0 + $1.pictures.count }
        report.removed = old.albums.keys.filter { record.albums[$0] == nil }.sorted()
        try removeOldFiles(journaled: journaled)
        if record != old || !journaled.paths.isEmpty || !journaled.prefixes.isEmpty {
            try record.write(site: site)
            report.recordWritten = true
        }
        journal.remove()
        return report
    }

    private func checkCancelled() throws {
        if hooks.isCancelled() { throw WallRunError.cancelled }
    }

    /// Writes the record of a build under way: the albums done so far, the others as they were,
    /// and every file written so far or before (the journal names the rest). A long first
    /// build stopped part-way keeps the albums it finished.
    private mutating func savePartial() throws {
        var partial = record
        partial.albums = old.albums.merging(record.albums) { _, done in done }
        partial.written.formUnion(old.written)
        try partial.write(site: site)
        lastSaved = ProgressDisplayClock.now()
    }

    // MARK: - What changed

    /// Each file of the tree: as recorded when its stamp is; moved when a recorded file has its
    /// identity, size and time (what was read of it is kept); else new, and its name or first
    /// bytes say whether it looks like an image.
    private mutating func look(at walk: LibraryWalk) throws {
        var byMove: [FileStamp.Moved: GalleryRecord.FileEntry] = [:]
        for entry in old.files.values where entry.key != nil { byMove[entry.stamp.moved] = entry }
        var fresh: [String] = []
        for folder in walk.folders {
            for (name, stamp) in folder.files {
                let path = Self.join(folder.path, name)
                if let entry = old.files[path], entry.stamp == stamp {
                    record.files[path] = entry
                } else if var entry = byMove[stamp.moved] {
                    entry.stamp = stamp
                    record.files[path] = entry
                } else {
                    record.files[path] = GalleryRecord.FileEntry(stamp: stamp, looksLikeImage: false)
                    fresh.append(path)
                }
            }
        }
        let root = tree, paths = fresh
        let sniffed = try parallelMap(paths.count, threads: threads) {
            InputScanner.looksLikeImage(root + "/" + paths[$0])
        }
        for (n, path) in fresh.enumerated() { record.files[path]?.looksLikeImage = sniffed[n] }
    }

    /// The folders that hold pictures (files that look like images and pass the filters), with
    /// those files' names.
    private func albumFolders(_ walk: LibraryWalk) -> [String: [String]] {
        var albums: [String: [String]] = [:]
        for folder in walk.folders {
            let names = folder.files.map(\.name).filter { name in
                let path = Self.join(folder.path, name)
                return record.files[path]?.looksLikeImage == true && settings.wall.scan.keeps(tree + "/" + path)
            }
            if !names.isEmpty { albums[folder.path] = names }
        }
        return albums
    }

    /// Reads the content of every picture not read before (new or changed): its key names its
    /// renditions and, with its name, its album's sheets.
    private mutating func readKeys(_ albums: [String: [String]]) throws {
        let unread = albums.flatMap { album, names in names.map { Self.join(album, $0) } }
            .filter { record.files[$0]?.key == nil }.sorted()
        guard !unread.isEmpty else { return }
        hooks.progress(GalleryProgress(stage: .read, done: 0, total: unread.count))
        let root = tree, hooks = self.hooks
        let counter = Locked(0)
        let keys = try parallelMap(unread.count, threads: threads) { n -> String? in
            if hooks.isCancelled() { return nil }
            let key = CacheKey.ofFile(atPath: root + "/" + unread[n])?.description
            let done = counter.withLock { count -> Int in
                count += 1
                return count
            }
            hooks.progress(GalleryProgress(stage: .read, done: done, total: unread.count))
            return key
        }
        try checkCancelled()
        for (n, path) in unread.enumerated() {
            guard var entry = record.files[path] else { continue }
            // A file that cannot be read is keyed by its stamp: its album is drawn again when it changes.
            entry.key =
                keys[n] ?? "unread-" + SitePaths.digest([String(entry.stamp.modified), String(entry.stamp.size)])
            entry.picture = nil
            record.files[path] = entry
        }
        report.read = unread.count
    }

    // MARK: - Albums

    /// The albums: folders with pictures and every folder above one (they lead to it), the top
    /// included; `order` has each album after those below it.
    struct AlbumTree {
        var order: [String]
        var children: [String: [String]]
    }

    private func albumTree(_ albums: [String: [String]], walk: LibraryWalk) -> AlbumTree {
        var kept: Set<String> = [""]
        for path in albums.keys {
            var path = path
            kept.insert(path)
            while let slash = path.lastIndex(of: "/") {
                path = String(path[..<slash])
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
    private func sheetKey(_ album: String, files: [String]) -> String {
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
    private func needsWork(_ album: String, files: [String]) -> Bool {
        guard let entry = old.albums[album] else { return true }
        return entry.sheetKey != (files.isEmpty ? "" : sheetKey(album, files: files))
    }

    /// Brings one album's files up to date: its sheets (kept when their key is unchanged, or
    /// found under another folder when it moved), what is read of its pictures, and their
    /// renditions. Its pages stay as they are until every album is done.
    private mutating func prepare(album path: String, files: [String]) throws {
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
    private func sheetsExist(_ album: GalleryRecord.AlbumEntry) -> Bool {
        !album.sheets.isEmpty
            && album.sheets.allSatisfy { $0.pages.allSatisfy { access(site + "/" + $0.file, F_OK) == 0 } }
    }

    /// The key of how sheets are drawn: ImageWall and its libraries, and every setting that
    /// shapes a sheet's pixels or its pictures' order.
    private var sheetSettings: String {
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
    private mutating func drawSheets(album path: String, key: String) throws -> GalleryRecord.AlbumEntry {
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
        let made = Locked<[String: CodecError?]>([:])
        let runHooks = RunHooks(
            isCancelled: hooks.isCancelled,
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
                    try renditions.write(decoded, shown: shown, sides: sides, key: key)
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

    // MARK: - Pictures

    /// Reads what each picture's page shows (header, EXIF, XMP and IPTC), once per file.
    private mutating func readPictures(of album: String, _ entry: GalleryRecord.AlbumEntry) throws {
        let unread = entry.pictures.map { Self.join(album, $0.name) }.filter { record.files[$0]?.picture == nil }
        guard !unread.isEmpty else { return }
        let root = tree
        let probed = Wall(inputs: unread.map { root + "/" + $0 }).probe(
            threads: threads, maxImagePixels: settings.wall.maxImagePixels,
            scan: InputScanner.Options(recursive: false, pairs: .separate))
        var byPath: [String: ProbedImage] = [:]
        for image in probed.images { byPath[image.path] = image }
        let details = try parallelMap(unread.count, threads: threads) {
            PictureDetails.read(path: root + "/" + unread[$0])
        }
        for (n, path) in unread.enumerated() {
            guard let image = byPath[root + "/" + path], var file = record.files[path] else { continue }
            let info = image.info, shown = info.displayedSize
            let date = CaptureDate(of: image)
            file.picture = GalleryRecord.PictureEntry(
                format: info.format.rawValue, width: shown.width, height: shown.height, bytes: file.stamp.size,
                date: date.iso8601, dateFrom: date.source.rawValue,
                camera: info.camera.flatMap { $0.isEmpty ? nil : $0 },
                details: details[n].description == nil && details[n].location == nil ? nil : details[n],
                duration: info.duration, sides: PictureRenditions.sides(long: max(shown.width, shown.height)))
            record.files[path] = file
        }
    }

    /// Makes the renditions of the album's pictures that are not in the site yet (their tiles
    /// came from the cache, or the album's sheets were kept), on the build's threads, each from
    /// a decode with the plan the sheets are drawn with; a picture that cannot be decoded gets
    /// none (its page says why).
    private mutating func makeRenditions(of album: String, _ entry: GalleryRecord.AlbumEntry) throws {
        struct Job: Sendable {
            var path: String, key: String
        }
        let renditions = self.renditions
        var jobs: [Job] = []
        for picture in entry.pictures where picture.placeholder == nil {
            let path = Self.join(album, picture.name)
            guard let file = record.files[path], let key = file.key, let read = file.picture, !read.sides.isEmpty
            else { continue }
            let named = renditions.key(content: key)
            if !renditions.exist(named, sides: read.sides) { jobs.append(Job(path: path, key: named)) }
        }
        guard !jobs.isEmpty else { return }
        try journal.note([], prefixes: jobs.map { SitePaths.renditionPrefix($0.key) })
        let root = tree, hooks = self.hooks, work = jobs
        let made = try parallelMap(work.count, threads: threads) { n -> CodecError? in
            if hooks.isCancelled() { return nil }
            do throws(CodecError) {
                try renditions.make(source: root + "/" + work[n].path, key: work[n].key)
                return nil
            } catch {
                return error
            }
        }
        try checkCancelled()
        for (n, error) in made.enumerated() {
            guard let error else {
                report.renditions += 1
                continue
            }
            if error.stage == .write { throw error }
            hooks.warning("\(tree)/\(jobs[n].path): no picture for its page: \(error.reason)")
            record.files[jobs[n].path]?.picture?.sides = []
        }
    }

    // MARK: - Pages

    /// Writes the album's page and its pictures' pages when what they show changed (or one is
    /// missing): those whose text is new, put in place together; pages of pictures no longer in
    /// the album are left for ``removeOldFiles(journaled:)``.
    private mutating func writePages(of path: String, tree: AlbumTree) throws {
        guard let entry = record.albums[path] else { return }
        let page = pageContext
        let view = albumView(path, tree: tree)
        // What the pages show follows from these: the sheets' key (their files, tiles and the
        // files not drawn follow from it), each picture's file, the albums below, and the trail.
        var key = [
            Self.pagesFormat, page.title, page.mapLink, FilePaths.relative(from: site, to: self.tree), entry.sheetKey,
            String(view.count), view.dates?.text ?? "",
        ]
        key += view.trail.map(\.name)
        for child in view.children {
            key += [child.name, String(child.count), child.dates?.text ?? ""]
            if let cover = child.cover { key += fileKey(album: Self.folder(of: cover.original), cover.name) }
        }
        for picture in entry.pictures { key += fileKey(album: path, picture.name) }
        let pagesKey = SitePaths.digest(key)
        let pages = [view.page] + view.pictures.map(\.page)
        if entry.pagesKey == pagesKey, entry.pages == pages, pages.allSatisfy({ access(site + "/" + $0, F_OK) == 0 }) {
            return
        }
        var texts = [(view.page, AlbumPage.html(view, site: page))]
        for (n, picture) in view.pictures.enumerated() {
            let html = PicturePage.html(
                picture, number: n + 1, of: view.pictures.count, previous: n > 0 ? view.pictures[n - 1] : nil,
                next: n + 1 < view.pictures.count ? view.pictures[n + 1] : nil, album: view, site: page)
            texts.append((picture.page, html))
        }
        // Only pages whose text changed are written: the others keep their bytes and times.
        let changed = texts.filter { file, text in
            FileManager.default.contents(atPath: site + "/" + file).map { !$0.elementsEqual(text.utf8) } ?? true
        }
        if !changed.isEmpty {
            try journal.note(changed.map(\.0))
            var staged: [any StagedOutput] = []
            do {
                for (file, text) in changed {
                    let destination = site + "/" + file
                    try PictureRenditions.makeFolder(of: destination)
                    let out = try AtomicFile(destination: destination, durable: false)
                    staged.append(out)
                    let bytes = Array(text.utf8)
                    guard bytes.withUnsafeBytes({ fwrite($0.baseAddress, 1, $0.count, out.handle) }) == bytes.count
                    else {
                        throw CodecError(.write, path: destination, reason: systemErrorText())
                    }
                    try out.finishWriting()
                }
            } catch {
                staged.discardAll()
                throw error
            }
            try staged.commitAll()
            report.pagesWritten += changed.count
        }
        record.albums[path]?.pagesKey = pagesKey
        record.albums[path]?.pages = pages
        record.written.formUnion(pages)
    }

    /// What the pages look like: ImageWall's version and the pages' style and scripts, so pages
    /// made by another ImageWall are written again.
    static let pagesFormat = SitePaths.digest([
        "pages 1", Wall.version, SitePage.style, AlbumPage.script, AlbumPage.lightbox, PicturePage.script,
    ])

    private var pageContext: SitePage {
        SitePage(
            site: site, tree: tree, title: settings.title ?? FilePaths.name(of: tree), mapLink: settings.mapLink)
    }

    /// What names a picture's file as its pages show it: its name, content, size and time
    /// (what is read of it, and its renditions, follow from them), and whether it has a rendition.
    private func fileKey(album: String, _ name: String) -> [String] {
        let file = record.files[Self.join(album, name)]
        return [
            name, file?.key ?? "", String(file?.stamp.size ?? 0), String(file?.stamp.modified ?? 0),
            String(file?.picture?.sides.count ?? -1),
        ]
    }

    /// What the album's page shows, from the record (its children already done).
    private func albumView(_ path: String, tree: AlbumTree) -> AlbumView {
        let title = settings.title ?? FilePaths.name(of: self.tree)
        var trail: [(name: String, page: String)] = [(title, SitePaths.albumPage(""))]
        var walked = ""
        for part in path.split(separator: "/") where !path.isEmpty {
            walked = walked.isEmpty ? String(part) : walked + "/" + part
            trail.append((String(part), SitePaths.albumPage(walked)))
        }
        let entry = record.albums[path]
        let pictures = (entry?.pictures ?? []).map { pictureView($0, album: path, entry: entry) }
        let children = (tree.children[path] ?? []).map { child -> ChildView in
            let summary = self.summary(child, tree: tree)
            return ChildView(
                name: FilePaths.name(of: child), page: SitePaths.albumPage(child), count: summary.count,
                dates: summary.dates, cover: summary.cover)
        }
        let mine = summary(path, tree: tree)
        return AlbumView(
            path: path, name: path.isEmpty ? title : FilePaths.name(of: path), page: SitePaths.albumPage(path),
            trail: trail, count: mine.count, own: pictures.count, dates: mine.dates, children: children,
            sheets: entry?.sheets ?? [], pictures: pictures, skipped: entry?.skipped ?? [])
    }

    private func pictureView(_ tile: GalleryRecord.TileEntry, album: String, entry: GalleryRecord.AlbumEntry?)
        -> PictureView
    {
        let path = Self.join(album, tile.name)
        let file = record.files[path]
        var renditions: [(side: Int, file: String)] = []
        if let key = file?.key, let sides = file?.picture?.sides, tile.placeholder == nil {
            let named = self.renditions.key(content: key)
            renditions = sides.map { ($0, SitePaths.rendition(named, side: $0)) }
        }
        return PictureView(
            name: tile.name, original: path, page: SitePaths.picturePage(album: album, name: tile.name), tile: tile,
            entry: file?.picture, renditions: renditions,
            companions: (entry?.companions[tile.name] ?? []).map { Self.join(album, $0) })
    }

    /// An album's pictures with those below it, their days, and its cover: its first picture
    /// with a rendition, else the first of the albums below it.
    private func summary(_ path: String, tree: AlbumTree) -> (count: Int, dates: DateRange?, cover: PictureView?) {
        let entry = record.albums[path]
        let own = entry?.pictures ?? []
        var count = own.count
        var dates = DateRange.of(own.compactMap { record.files[Self.join(path, $0.name)]?.picture?.date })
        var cover = own.lazy.map { pictureView($0, album: path, entry: entry) }.first { $0.shown != nil }
        for child in tree.children[path] ?? [] {
            let below = summary(child, tree: tree)
            count += below.count
            if let range = below.dates { dates = range.joined(dates) }
            if cover == nil { cover = below.cover }
        }
        return (count, dates, cover)
    }

    // MARK: - Removing

    /// Removes the files earlier builds wrote that no album needs now (pages of pictures and
    /// albums gone, sheets and renditions no longer shown), and the folders they leave empty.
    /// Only files the record or the journal name as the gallery's own are ever removed.
    private mutating func removeOldFiles(journaled: (paths: Set<String>, prefixes: [String])) throws {
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
        var folders: Set<String> = []
        for path in candidates.subtracting(kept) where SitePaths.isInside(path) {
            var status = stat()
            let full = site + "/" + path
            guard lstat(full, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if unlink(full) == 0 {
                report.filesRemoved += 1
                folders.insert(FilePaths.folder(of: full))
            }
        }
        // Folders left empty, deepest first, up to the site (never it): rmdir removes none that holds anything.
        for folder in folders.sorted(by: { $0.count > $1.count }) {
            var folder = folder
            while folder.count > site.count, folder.hasPrefix(site + "/"), rmdir(folder) == 0 {
                folder = FilePaths.folder(of: folder)
            }
        }
    }

    /// The folder of the tree's file `path` ("" the top).
    static func folder(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }

    /// `name` in the folder `folder` of the tree ("" the top).
    static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }
}

/// A monotonic clock, in seconds.
enum ProgressDisplayClock {
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
