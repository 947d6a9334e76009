import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#endif

/// A gallery site of a tree of folders: an album for every folder that holds pictures, nested as
/// the folders are, each a page with its contact sheets and a lightbox, every picture a page of
/// its own, and the tree's top an index of albums.
///
/// A build does only what changed since the last one, which it finds by looking at the tree's
/// files (`stat`, nothing read) against the record it keeps in the site: an unchanged tree is
/// not read and nothing is written; a picture added, changed or removed draws its album's sheets
/// again and writes the pages whose content changed; a folder renamed or moved keeps its sheets
/// and renditions (they are found by content). Files the gallery did not write are never removed.
///
/// ```swift
/// let site = GallerySite(tree: "Pictures", site: "site", settings: GallerySettings(wall: WallOptions()))
/// let report = try site.build()
/// print(report.summary)
/// ```
public struct GallerySite: Sendable {
    /// The tree of pictures.
    public var tree: String
    /// The site's folder (made when missing).
    public var site: String
    /// How it is drawn.
    public var settings: GallerySettings

    /// A site of `tree` in `site`.
    public init(tree: String, site: String, settings: GallerySettings) {
        self.tree = tree
        self.site = site
        self.settings = settings
    }

    /// Builds the site once: takes the site's lock, brings it up to date with the tree, and
    /// releases it. Throws a ``GalleryError`` naming the folder when the tree cannot be read or
    /// the site written, or ``ImageWall/WallRunError/cancelled`` when `hooks` asked to stop (every
    /// album is then whole: as it was, or as it is now).
    @discardableResult
    public func build(hooks: GalleryHooks = GalleryHooks()) throws -> GalleryReport {
        try GallerySession(self).build(hooks: hooks)
    }
}

/// How a build reports back and is stopped.
public struct GalleryHooks: Sendable {
    /// These hooks, their warnings each said once however many builds meet it again (a watch
    /// rebuilding a tree that holds a broken file says it once, not on every rebuild).
    public func sayingEachWarningOnce() -> GalleryHooks {
        var hooks = self
        let said = Locked<Set<String>>([])
        let warning = self.warning
        hooks.warning = { text in
            if said.withLock({ $0.insert(text).inserted }) { warning(text) }
        }
        return hooks
    }

    /// Receives progress: the stage under way and the items it has done of its total.
    public var progress: @Sendable (GalleryProgress) -> Void
    /// Asked between pictures and albums; `true` stops the build.
    public var isCancelled: @Sendable () -> Bool
    /// Receives warnings (a file skipped or damaged, a folder not read), each naming its file.
    public var warning: @Sendable (String) -> Void
    /// Collects the time each stage of the albums' renders takes, and the renditions', when set.
    public var profile: StageProfile?

    /// Hooks that report nothing and never cancel, unless given.
    public init(
        progress: @escaping @Sendable (GalleryProgress) -> Void = { _ in },
        isCancelled: @escaping @Sendable () -> Bool = { false },
        warning: @escaping @Sendable (String) -> Void = { _ in },
        profile: StageProfile? = nil
    ) {
        self.progress = progress
        self.isCancelled = isCancelled
        self.warning = warning
        self.profile = profile
    }
}

/// A build's progress.
public struct GalleryProgress: Sendable, Equatable {
    /// The stages of a build, in order.
    public enum Stage: String, Sendable {
        /// Reading the pictures new to the site (their content).
        case read
        /// Bringing the albums that changed up to date: sheets and renditions.
        case albums
        /// Writing the pages whose text changed.
        case pages
    }

    /// The stage under way.
    public var stage: Stage
    /// Items done of this stage.
    public var done: Int
    /// Items this stage has.
    public var total: Int
}

/// What a build did.
public struct GalleryReport: Sendable {
    /// Albums in the site.
    public var albums = 0
    /// Pictures in them.
    public var pictures = 0
    /// Albums whose sheets were drawn, by their folders' paths in the tree ("" the top).
    public var drawn: [String] = []
    /// Albums moved or renamed whose sheets were kept.
    public var moved: [String] = []
    /// Albums removed with their folders.
    public var removed: [String] = []
    /// Files read for the first time (new or changed pictures, and files that look like one).
    public var read = 0
    /// Pictures whose renditions were made.
    public var renditions = 0
    /// Pages written (new or changed).
    public var pagesWritten = 0
    /// Files of earlier builds removed.
    public var filesRemoved = 0
    /// Files that could not be drawn, each with its reason.
    public var skipped: [String] = []
    /// Files of the site's albums not drawn (by this build or an earlier one), each named on
    /// its album's page.
    public var notDrawn = 0
    /// Whether nothing changed: no file was written or removed.
    public var nothingChanged: Bool {
        drawn.isEmpty && moved.isEmpty && removed.isEmpty && renditions == 0 && pagesWritten == 0 && filesRemoved == 0
            && !recordWritten
    }
    /// Whether the record was written.
    public var recordWritten = false
    /// How long the build took, in seconds.
    public var seconds = 0.0

    /// One line: "nothing changed", or what was done.
    public var summary: String {
        let totals =
            "\(albums) album\(albums == 1 ? "" : "s"), \(pictures) picture\(pictures == 1 ? "" : "s")"
            + (notDrawn > 0
                ? ", \(notDrawn) file\(notDrawn == 1 ? "" : "s") not drawn (named on the albums' pages)" : "")
        if nothingChanged { return "\(totals): nothing changed" }
        var done: [String] = []
        if !drawn.isEmpty { done.append("\(drawn.count) album\(drawn.count == 1 ? "" : "s") drawn") }
        if !moved.isEmpty { done.append("\(moved.count) moved (sheets kept)") }
        if !removed.isEmpty { done.append("\(removed.count) removed") }
        if read > 0 { done.append("\(read) file\(read == 1 ? "" : "s") read") }
        if renditions > 0 { done.append("\(renditions) picture\(renditions == 1 ? "" : "s") rendered") }
        if pagesWritten > 0 { done.append("\(pagesWritten) page\(pagesWritten == 1 ? "" : "s") written") }
        if filesRemoved > 0 { done.append("\(filesRemoved) old file\(filesRemoved == 1 ? "" : "s") removed") }
        if done.isEmpty { done.append("record brought up to date") }
        return "\(totals): " + done.joined(separator: ", ")
    }
}

/// A site held for building: the paths checked and the site's lock taken, for one build or for
/// many (a watch builds again each time the tree changes). Not for two threads at once.
public final class GallerySession: @unchecked Sendable {
    /// The tree, absolute.
    public let tree: String
    /// The site's folder, absolute.
    public let site: String
    let settings: GallerySettings
    private let lock: SiteLock

    /// Checks the tree and the site and takes the site's lock (made when missing); throws a
    /// ``GalleryError`` when the tree is not a folder, when the site is the tree or holds it,
    /// or when another build holds the site.
    public init(_ gallery: GallerySite) throws {
        tree = GallerySession.normalized(FilePaths.absolute(gallery.tree))
        site = GallerySession.normalized(FilePaths.absolute(gallery.site))
        settings = gallery.settings
        var status = stat()
        guard stat(tree.systemPath, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw GalleryError(
                "\(gallery.tree): not a folder of pictures (\(errno == 0 ? "a file" : systemErrorText()))")
        }
        let treeReal = GallerySession.resolved(tree)
        do {
            try Folders.make(site)
        } catch {
            throw GalleryError("\(gallery.site): cannot make the site's folder (\(error.reason))")
        }
        let siteReal = GallerySession.resolved(site)
        if siteReal == treeReal || (treeReal + "/").hasPrefix(siteReal + "/") {
            throw GalleryError(
                "\(gallery.site): the site would be written among the pictures of \(gallery.tree): give a folder outside it, or inside it (left out of the albums)"
            )
        }
        lock = try SiteLock(site: site)
    }

    /// `path` with its links resolved.
    static func resolved(_ path: String) -> String {
        FilePaths.resolved(path) ?? path
    }

    /// `path` without a trailing slash (but `/`).
    static func normalized(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// Brings the site up to date with the tree.
    public func build(hooks: GalleryHooks = GalleryHooks()) throws -> GalleryReport {
        let started = ProgressDisplayClock.now()
        var build = GalleryBuild(tree: tree, site: site, settings: settings, hooks: hooks)
        var report = try build.run()
        report.seconds = ProgressDisplayClock.now() - started
        return report
    }

    /// Watches the tree and builds again each time it changed and then stayed still for `quiet`
    /// seconds with no file still being written (a picture being copied in is taken once, when
    /// whole), handing each build's report to `built`; returns when `hooks` ask to stop between
    /// builds (a build under way stops as ``build(hooks:)`` does, throwing). Folders made,
    /// renamed, moved in or out and deleted are followed; past the system's limit of watches a
    /// folder is looked at every 2 s instead, and said so.
    public func watch(quiet: Double = 1, hooks: GalleryHooks = GalleryHooks(), built: (GalleryReport) -> Void) throws {
        try watch(quiet: quiet, hooks: hooks, limit: nil, built: built)
    }

    /// ``watch(quiet:hooks:built:)`` watching at most `limit` folders (the rest polled), calling
    /// `armed` once the tree is watched.
    func watch(
        quiet: Double, hooks: GalleryHooks, limit: Int?, armed: () -> Void = {}, built: (GalleryReport) -> Void
    ) throws {
        let hooks = hooks.sayingEachWarningOnce()
        let watcher = try TreeWatcher(
            tree: tree, skipping: FileStamp(path: site), limit: limit, warning: hooks.warning)
        // What changed between the last build and the watch's start: a build that only looks
        // when nothing did.
        let caught = try build(hooks: hooks)
        if !caught.nothingChanged { built(caught) }
        armed()
        while watcher.wait(quiet: quiet, isCancelled: hooks.isCancelled) {
            built(try build(hooks: hooks))
        }
    }
}
