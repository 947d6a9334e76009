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
    /// The key of how this build draws sheets, made once (every album's key begins with it).
    let sheetSettings: String
    var report = GalleryReport()

    /// The record being made, and the one the build started from.
    var record = GalleryRecord()
    var old = GalleryRecord()
    var journal: SiteJournal
    var lastSaved = 0.0

    init(tree: String, site: String, settings: GallerySettings, hooks: GalleryHooks) {
        self.tree = tree
        self.site = site
        self.settings = settings
        self.hooks = hooks
        sheetSettings = Self.sheetSettings(settings)
        journal = SiteJournal(site: site)
    }

    var threads: Int { max(1, settings.wall.limits.threads) }

    /// How renditions are made: from the decode the sheets are drawn from.
    var renditions: PictureRenditions {
        var decoder = ImageDecoder()
        decoder.fast = settings.wall.rendering.tile.fast
        return PictureRenditions(decoder: decoder, quality: settings.quality, site: site)
    }

    mutating func run() throws -> GalleryReport {
        let (recorded, problem) = GalleryRecord.read(site: site)
        if let problem { hooks.warning(problem) }
        old = recorded
        let journaled = SiteJournal.read(site: site)
        removeLeftovers(journaled: journaled)
        record.tree = tree
        record.settings = sheetSettings
        record.written = old.written
        let walk = LibraryWalk.walk(tree, skipping: FileStamp(path: site))
        for reason in walk.notRead { hooks.warning("folder not read: \(reason)") }
        for reason in walk.alike { hooks.warning(reason) }

        try look(at: walk)
        let albums = albumFolders(walk)
        try readKeys(albums)
        let tree = albumTree(albums, walk: walk)
        lastSaved = ProgressDisplayClock.now()
        let work = tree.order.filter { needsWork($0, files: albums[$0] ?? []) }
        var done = 0
        hooks.progress(GalleryProgress(stage: .albums, done: 0, total: work.count))
        // The albums whose sheets are drawn are drawn ahead, two at a time, and taken in order
        // as the build comes to them; with one thread, each when the build comes to it.
        let plans = tree.order.map { sheetsPlan(album: $0, files: albums[$0] ?? []) }
        let drawing = drawers(
            zip(tree.order, plans).compactMap { path, plan in
                guard case .draw(let key) = plan else { return nil }
                return (path, key)
            })
        let pipeline = AlbumPipeline(count: drawing.count, lanes: threads > 1 ? 2 : 0) { n, stopped in
            try drawing[n].drawer.draw(album: drawing[n].album, key: drawing[n].key, stopped: stopped)
        }
        var taken = 0
        do {
            defer { pipeline.stop() }
            for (path, plan) in zip(tree.order, plans) {
                try checkCancelled()
                let needed = work.contains(path)
                try prepare(album: path, plan: plan) {
                    taken += 1
                    return try pipeline.result(taken - 1)
                }
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
        let summaries = summaries(tree)
        for (n, path) in tree.order.enumerated() {
            try writePages(of: path, tree: tree, summaries: summaries)
            hooks.progress(GalleryProgress(stage: .pages, done: n + 1, total: tree.order.count))
        }
        report.albums = tree.order.count
        report.pictures = record.albums.values.reduce(0) { $0 + $1.pictures.count }
        report.notDrawn = record.albums.values.reduce(0) { $0 + $1.skipped.count }
        report.removed = old.albums.keys.filter { record.albums[$0] == nil }.sorted()
        try removeOldFiles(journaled: journaled)
        if record != old || !journaled.paths.isEmpty || !journaled.prefixes.isEmpty {
            try record.write(site: site)
            report.recordWritten = true
        }
        journal.remove()
        return report
    }

    func checkCancelled() throws {
        if hooks.isCancelled() { throw WallRunError.cancelled }
    }

    /// Writes the record of a build under way: the albums done so far, the others as they were,
    /// and every file written so far or before (the journal names the rest). A long first
    /// build stopped part-way keeps the albums it finished.
    mutating func savePartial() throws {
        var partial = record
        partial.albums = old.albums.merging(record.albums) { _, done in done }
        partial.written.formUnion(old.written)
        try partial.write(site: site)
        lastSaved = ProgressDisplayClock.now()
    }

    // MARK: - What changed

    /// Each file of the tree: as recorded when its stamp is; read again when only its change
    /// time moved in the same place (rewritten in place with its size and time put back, as
    /// `cat other.jpg > a.jpg; touch -r` does: its content tells); moved when a recorded file
    /// elsewhere has its identity, size and time (what was read of it is kept); else new, and
    /// its name or first bytes say whether it looks like an image.
    mutating func look(at walk: LibraryWalk) throws {
        var byMove: [FileStamp.Moved: GalleryRecord.FileEntry] = [:]
        for entry in old.files.values where entry.key != nil { byMove[entry.stamp.moved] = entry }
        var fresh: [String] = []
        for folder in walk.folders {
            for (name, stamp) in folder.files {
                let path = Self.join(folder.path, name)
                if let entry = old.files[path], entry.stamp == stamp {
                    record.files[path] = entry
                } else if var entry = old.files[path], entry.stamp.moved == stamp.moved {
                    // Its key is read again; the same content changes nothing built from it.
                    (entry.stamp, entry.key) = (stamp, nil)
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
    func albumFolders(_ walk: LibraryWalk) -> [String: [String]] {
        var albums: [String: [String]] = [:]
        for folder in walk.folders {
            let names = folder.files.map(\.name).filter { name in
                let path = Self.join(folder.path, name)
                return record.files[path]?.looksLikeImage == true && settings.wall.input.scan.keeps(tree + "/" + path)
            }
            if !names.isEmpty { albums[folder.path] = names }
        }
        return albums
    }

    /// Reads the content of every picture not read before (new or changed): its key names its
    /// renditions and, with its name, its album's sheets.
    mutating func readKeys(_ albums: [String: [String]]) throws {
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

    // MARK: - Paths in the tree

    /// The folder of the tree's file `path` ("" the top).
    static func folder(of path: String) -> String {
        FilePaths.parent(of: path)
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
