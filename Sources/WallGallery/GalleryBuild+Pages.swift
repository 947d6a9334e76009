import Foundation
import ImageWall
import WallCache
import WallCodecs
import WallCore
import WallFiles
import WallLayout
import WallPages

#if canImport(Glibc)
    import Glibc
#endif

/// What each picture's page shows, its renditions, and the pages.
extension GalleryBuild {
    /// Reads what each picture's page shows (header, EXIF, XMP and IPTC), once per file.
    mutating func readPictures(of album: String, _ entry: GalleryRecord.AlbumEntry) throws {
        let unread = entry.pictures.map { Self.join(album, $0.name) }.filter { record.files[$0]?.picture == nil }
        guard !unread.isEmpty else { return }
        let root = tree
        let probed = Wall(inputs: unread.map { root + "/" + $0 }).probe(
            threads: threads, maxImagePixels: settings.wall.limits.maxImagePixels,
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
            if let captured = info.capturedSize.map({ info.orientation.displayedSize(ofStored: $0) }) {
                file.picture?.capturedWidth = captured.width
                file.picture?.capturedHeight = captured.height
            }
            record.files[path] = file
        }
    }

    /// Makes the renditions of the album's pictures that are not in the site yet (their tiles
    /// came from the cache, or the album's sheets were kept), on the build's threads, each from
    /// a decode with the plan the sheets are drawn with; a picture that cannot be decoded gets
    /// none (its page says why).
    mutating func makeRenditions(of album: String, _ entry: GalleryRecord.AlbumEntry) throws {
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
                try hooks.profile.measure(.renditions) { () throws(CodecError) in
                    try renditions.make(source: root + "/" + work[n].path, key: work[n].key)
                }
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
    mutating func writePages(of path: String, tree: AlbumTree, summaries: [String: AlbumSummary]) throws {
        guard let entry = record.albums[path] else { return }
        let page = pageContext
        let view = albumView(path, tree: tree, summaries: summaries)
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
        if entry.pagesKey == pagesKey, entry.pages == pages, pages.allSatisfy({ Folders.exists(site + "/" + $0) }) {
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
            (try? FileContents.read(site + "/" + file)).map { !$0.elementsEqual(text.utf8) } ?? true
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
                    try out.write(Array(text.utf8))
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
    static let pagesFormat = SitePaths.digest(["pages 1", Wall.version] + SitePage.looks)

    var pageContext: SitePage {
        SitePage(
            site: site, tree: tree, title: settings.title ?? FilePaths.name(of: tree), mapLink: settings.mapLink)
    }

    /// What names a picture's file as its pages show it: its name, content, size and time
    /// (what is read of it, and its renditions, follow from them), and whether it has a rendition.
    func fileKey(album: String, _ name: String) -> [String] {
        let file = record.files[Self.join(album, name)]
        return [
            name, file?.key ?? "", String(file?.stamp.size ?? 0), String(file?.stamp.modified ?? 0),
            String(file?.picture?.sides.count ?? -1),
        ]
    }

    /// What the album's page shows, from the record (its children already done) and every
    /// album's summary.
    func albumView(_ path: String, tree: AlbumTree, summaries: [String: AlbumSummary]) -> AlbumView {
        let title = settings.title ?? FilePaths.name(of: self.tree)
        var trail: [(name: String, page: String)] = [(title, SitePaths.albumPage(""))]
        var walked = ""
        for part in FilePaths.components(of: path) {
            walked = walked.isEmpty ? part : walked + "/" + part
            trail.append((part, SitePaths.albumPage(walked)))
        }
        let entry = record.albums[path]
        let pictures = (entry?.pictures ?? []).map { pictureView($0, album: path, entry: entry) }
        let children = (tree.children[path] ?? []).map { child -> ChildView in
            let summary = summaries[child] ?? AlbumSummary()
            return ChildView(
                name: FilePaths.name(of: child), page: SitePaths.albumPage(child), count: summary.count,
                dates: summary.dates, cover: summary.cover)
        }
        let mine = summaries[path] ?? AlbumSummary()
        return AlbumView(
            path: path, name: path.isEmpty ? title : FilePaths.name(of: path), page: SitePaths.albumPage(path),
            trail: trail, count: mine.count, own: pictures.count, dates: mine.dates, children: children,
            sheets: entry?.sheets ?? [], pictures: pictures, skipped: entry?.skipped ?? [])
    }

    func pictureView(_ tile: GalleryRecord.TileEntry, album: String, entry: GalleryRecord.AlbumEntry?)
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
    struct AlbumSummary {
        var count = 0
        var dates: DateRange?
        var cover: PictureView?
    }

    /// Every album's summary, each made once from its own pictures and its children's summaries
    /// (`tree.order` has each album after those below it).
    func summaries(_ tree: AlbumTree) -> [String: AlbumSummary] {
        var made: [String: AlbumSummary] = [:]
        made.reserveCapacity(tree.order.count)
        for path in tree.order {
            let entry = record.albums[path]
            let own = entry?.pictures ?? []
            var summary = AlbumSummary(
                count: own.count,
                dates: DateRange.of(own.compactMap { record.files[Self.join(path, $0.name)]?.picture?.date }),
                cover: own.lazy.map { pictureView($0, album: path, entry: entry) }.first { $0.shown != nil })
            for child in tree.children[path] ?? [] {
                guard let below = made[child] else { continue }
                summary.count += below.count
                if let range = below.dates { summary.dates = range.joined(summary.dates) }
                if summary.cover == nil { summary.cover = below.cover }
            }
            made[path] = summary
        }
        return made
    }
}
