import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import WallFiles
import _WallTestSupport

@testable import WallGallery

#if canImport(Glibc)
    import Glibc
#endif

/// A tree of pictures and a site folder beside it, under a fresh temporary folder removed with
/// everything in it when released.
final class SiteFixture: @unchecked Sendable {
    let root: String
    var tree: String { root + "/tree" }
    var site: String { root + "/site" }

    init() {
        _ = Fixtures.cacheHome
        var template = Array("/tmp/imagewall-gallery-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        root = String(cString: made!)
        mkdir(root + "/tree", 0o755)
    }

    deinit { PrivateFolder.removeTree(root) }

    /// Copies the sample `name` to `path` in the tree (folders made as needed).
    func add(_ name: String, as path: String? = nil) {
        let target = tree + "/" + (path ?? name)
        try? FileManager.default.createDirectory(
            atPath: FilePaths.folder(of: target), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: target)
        try! FileManager.default.copyItem(atPath: Fixtures.sample(name), toPath: target)
    }

    /// Settings for quick builds: small sheets, one thread, no cache.
    static func settings(_ change: (inout GallerySettings) -> Void = { _ in }) -> GallerySettings {
        var wall = WallOptions()
        wall.limits.threads = 2
        var settings = GallerySettings(wall: wall)
        var narrow = wall.layout, wide = wall.layout
        (narrow.columns, narrow.width) = (2, 400)
        (wide.columns, wide.width) = (4, 800)
        settings.variants = [narrow, wide]
        settings.title = "Test site"
        change(&settings)
        return settings
    }

    /// Builds the site.
    @discardableResult
    func build(_ settings: GallerySettings = SiteFixture.settings(), hooks: GalleryHooks = GalleryHooks()) throws
        -> GalleryReport
    {
        try GallerySite(tree: tree, site: site, settings: settings).build(hooks: hooks)
    }

    /// Every file of the site (not the record, its journal or lock), relative to it.
    func files() -> [String] { Self.files(in: site) }

    /// Each site file's size and modification time, by its path.
    func stamps() -> [String: [Int]] {
        var stamps: [String: [Int]] = [:]
        for path in files() + [SitePaths.record] {
            var status = stat()
            guard stat(site + "/" + path, &status) == 0 else { continue }
            stamps[path] = [
                Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec), Int(status.st_ino),
            ]
        }
        return stamps
    }

    /// The text of the site's page `path`.
    func page(_ path: String) -> String {
        (try? String(contentsOfFile: site + "/" + path, encoding: .utf8)) ?? ""
    }

    /// Every page of the site.
    func pages() -> [String] { files().filter { $0.hasSuffix(".html") } }

    /// The links of a page (href and src, and each srcset's files), as written.
    static func links(in html: String) -> [String] {
        var links: [String] = []
        let attributes = try! NSRegularExpression(pattern: #"(?:href|src|data-view2?)="([^"]*)""#)
        let range = NSRange(html.startIndex..., in: html)
        for match in attributes.matches(in: html, range: range) {
            links.append(String(html[Range(match.range(at: 1), in: html)!]))
        }
        let sets = try! NSRegularExpression(pattern: #"srcset="([^"]*)""#)
        for match in sets.matches(in: html, range: range)
        where !html[Range(match.range(at: 1), in: html)!].hasPrefix("data:") {
            for candidate in html[Range(match.range(at: 1), in: html)!].split(separator: ",") {
                if let url = candidate.split(separator: " ").first { links.append(String(url)) }
            }
        }
        return links
    }

    /// The links of the site's pages that lead nowhere: each relative link, unescaped, must name
    /// a file that exists (in the site, or an original in the tree). Outside links (the map's)
    /// and the blank pixel are left out.
    func brokenLinks() -> [String] {
        var broken: [String] = []
        for name in pages() {
            let folder = FilePaths.folder(of: site + "/" + name)
            for link in SiteFixture.links(in: page(name)) {
                if link.hasPrefix("https://") || link.hasPrefix("data:image/gif") { continue }
                guard link.hasPrefix("./") || link.hasPrefix("../") else {
                    broken.append("\(name): \(link) (not relative)")
                    continue
                }
                let path = (folder + "/" + (link.removingPercentEncoding ?? link) as NSString).standardizingPath
                if access(path, F_OK) != 0 { broken.append("\(name): \(link)") }
            }
        }
        return broken
    }
}

extension SiteFixture {
    /// Every file under `folder` (not the record, journal or lock), relative to it.
    static func files(in folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var status = stat()
            guard lstat(folder + "/" + path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if path.hasPrefix(".imagewall-gallery") { continue }
            found.append(path)
        }
        return found.sorted()
    }
}
