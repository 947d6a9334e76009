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

/// A tree of folders as a gallery site: what it holds, and what a build does again.
@Suite("Gallery site")
struct GallerySiteTests {
    /// A tree: a picture at the top, two in 2024/Rome and one described with its place, a
    /// folder of other pictures, and a folder without any.
    static func tree() throws -> SiteFixture {
        let fixture = SiteFixture()
        fixture.add("png-rgb.png")
        fixture.add("orientation-1.jpg", as: "2024/Rome/orientation-1.jpg")
        fixture.add("orientation-6.jpg", as: "2024/Rome/orientation-6.jpg")
        try DescribedJPEG.write(
            Fixtures.sample("landscape-baseline-420.jpg"), to: fixture.tree + "/2024/Rome/fountain.jpg",
            xmpDescription: "The fountain at night",
            place: PictureDetails.Location(latitude: 41.9009, longitude: 12.4833))
        fixture.add("heic-rotated-6.heic", as: "Samples/heic-rotated-6.heic")
        fixture.add("webp-lossless-alpha.webp", as: "Samples/webp-lossless-alpha.webp")
        fixture.add("video-h264.mp4", as: "Samples/video-h264.mp4")
        try "no picture here".write(toFile: fixture.tree + "/Samples/notes.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: fixture.tree + "/Empty", withIntermediateDirectories: true)
        try "nor here".write(toFile: fixture.tree + "/Empty/readme.txt", atomically: true, encoding: .utf8)
        return fixture
    }

    @Test("an album a folder of pictures, nested; every picture a page; every link leads to a file")
    func site() throws {
        let fixture = try Self.tree()
        let report = try fixture.build()
        #expect(report.albums == 4 && report.pictures == 7, "\(report.summary)")
        #expect(Set(report.drawn) == ["", "2024/Rome", "Samples"])
        for page in [
            "index.html", "2024/index.html", "2024/Rome/index.html", "Samples/index.html",
            "_pictures/png-rgb.png.html", "2024/Rome/_pictures/fountain.jpg.html",
            "Samples/_pictures/video-h264.mp4.html",
        ] {
            #expect(access(fixture.site + "/" + page, F_OK) == 0, "\(page)")
        }
        #expect(access(fixture.site + "/Empty", F_OK) != 0, "a folder without pictures is no album")
        #expect(fixture.brokenLinks().isEmpty, "\(fixture.brokenLinks())")
        // The top lists its albums with their counts; 2024 counts what is below it.
        let top = fixture.page("index.html")
        #expect(top.contains("<strong>2024</strong><span>3 pictures"), "\(top)")
        #expect(top.contains("<strong>Samples</strong><span>3 pictures"))
        #expect(top.contains("<h1>Test site</h1>") && top.contains("7 pictures"))
        // Each tile of an album's sheets links to its picture's page.
        let rome = fixture.page("2024/Rome/index.html")
        for name in ["fountain.jpg", "orientation-1.jpg", "orientation-6.jpg"] {
            #expect(rome.contains("href=\"./_pictures/\(name).html\""), "\(name)")
        }
        #expect(rome.contains("data-columns=\"2\"") && rome.contains("data-columns=\"4\""))
        // Every image has alt text; a described picture's is its description.
        for page in fixture.pages() {
            let html = fixture.page(page)
            let images = html.components(separatedBy: "<img").count - 1
            let described = try NSRegularExpression(pattern: #"<img [^>]*alt="[^"]+""#)
                .numberOfMatches(in: html, range: NSRange(html.startIndex..., in: html))
            #expect(images == described, "\(page): \(images) images, \(described) with alt text")
        }
        let fountain = fixture.page("2024/Rome/_pictures/fountain.jpg.html")
        #expect(fountain.contains("alt=\"The fountain at night\""))
        #expect(fountain.contains("<figcaption>The fountain at night</figcaption>"))
        #expect(fountain.contains("https://www.openstreetmap.org/?mlat=41.900900&amp;mlon=12.483300"))
        #expect(fountain.contains("41.90090° N, 12.48330° E"))
        #expect(
            !fountain.contains("rel=\"prev\"") && fountain.contains("rel=\"next\"") && fountain.contains("rel=\"up\""))
        let middle = fixture.page("2024/Rome/_pictures/orientation-1.jpg.html")
        #expect(middle.contains("rel=\"prev\" href=\"./fountain.jpg.html\""))
        #expect(middle.contains("rel=\"next\" href=\"./orientation-6.jpg.html\""))
        // 1x and 2x renditions, none bigger than the picture (480 px wide).
        let orientation = fixture.page("2024/Rome/_pictures/orientation-6.jpg.html")
        #expect(orientation.contains(" 1x\""), "a picture smaller than 1000 px has one rendition")
        let video = fixture.page("Samples/_pictures/video-h264.mp4.html")
        #expect(video.contains("Length</dt><dd>0:"), "\(video)")
        #expect(fixture.page("Samples/index.html").contains("3 pictures"))
    }

    @Test("a picture of 2000 px and more has its 1000 px rendition for 1x and its 2000 px one for 2x")
    func doubleDensity() throws {
        let fixture = SiteFixture()
        var wide = Bitmap(size: Size(width: 2400, height: 1600), alpha: .none)
        for i in wide.pixels.indices { wide.pixels[i] = UInt8(truncatingIfNeeded: i / 7 &* 13) }
        try FileManager.default.createDirectory(atPath: fixture.tree + "/big", withIntermediateDirectories: true)
        try PNGEncoder.write(wide, to: fixture.tree + "/big/wide.png")
        try fixture.build()
        let page = fixture.page("big/_pictures/wide.png.html")
        let sources = try #require(page.range(of: #"srcset="[^"]*""#, options: .regularExpression)).lowerBound
        let set = page[sources...].prefix(200)
        #expect(set.contains("-1000.jpg 1x") && set.contains("-2000.jpg 2x"), "\(page)")
        let files = fixture.files().filter { $0.hasPrefix("_files/pictures/") }
        #expect(Set(files.map { $0.split(separator: "-").last! }) == ["500.jpg", "1000.jpg", "2000.jpg"])
        let double = try #require(files.first { $0.hasSuffix("-2000.jpg") })
        #expect(
            try ImageProbe().probe(path: fixture.site + "/" + double).displayedSize == Size(width: 2000, height: 1333))
    }

    @Test("a RAW file's page gives the size of the camera's picture, not of the preview drawn")
    func rawPictureSize() throws {
        guard let corpora = Fixtures.corpora else { return }
        let fixture = SiteFixture()
        try FileManager.default.copyItem(
            atPath: corpora + "/raw/canon-eos-d30.CRW", toPath: fixture.tree + "/d30.crw")
        try fixture.build()
        let page = fixture.page("_pictures/d30.crw.html")
        #expect(page.contains("2160 × 1440 px"), "the D30's sensor; its preview is 1440 × 960")
        #expect(!page.contains("1440 × 960 px"))
        #expect(page.contains("<dt>Exposure</dt><dd>1/203 s · f/11.3 · ISO 100 · 100 mm</dd>"), "as captions say it")
    }

    @Test("nothing changed: nothing read, nothing written, the same bytes and times")
    func unchanged() throws {
        let fixture = try Self.tree()
        try fixture.build()
        let before = fixture.stamps()
        let report = try fixture.build()
        #expect(report.nothingChanged && report.read == 0 && report.drawn.isEmpty, "\(report.summary)")
        #expect(report.summary.hasSuffix("nothing changed"))
        #expect(fixture.stamps() == before)
    }

    @Test("a picture added, changed or removed draws its album again and touches no other")
    func changes() throws {
        let fixture = try Self.tree()
        try fixture.build()
        let samples = fixture.stamps().filter { $0.key.hasPrefix("Samples/") }
        fixture.add("orientation-3.jpg", as: "2024/Rome/orientation-3.jpg")
        var report = try fixture.build()
        #expect(report.drawn == ["2024/Rome"] && report.read == 1, "\(report.summary)")
        #expect(fixture.page("2024/Rome/index.html").contains("./_pictures/orientation-3.jpg.html"))
        #expect(fixture.page("index.html").contains("<strong>2024</strong><span>4 pictures"))
        #expect(fixture.stamps().filter { $0.key.hasPrefix("Samples/") } == samples)

        fixture.add("orientation-8.jpg", as: "2024/Rome/orientation-3.jpg")  // the same name, other content
        report = try fixture.build()
        #expect(report.drawn == ["2024/Rome"] && report.read == 1, "\(report.summary)")

        try FileManager.default.removeItem(atPath: fixture.tree + "/2024/Rome/orientation-3.jpg")
        report = try fixture.build()
        #expect(report.drawn == ["2024/Rome"] && report.read == 0, "\(report.summary)")
        #expect(access(fixture.site + "/2024/Rome/_pictures/orientation-3.jpg.html", F_OK) != 0)
        #expect(fixture.page("index.html").contains("<strong>2024</strong><span>3 pictures"))
        #expect(fixture.stamps().filter { $0.key.hasPrefix("Samples/") } == samples)
        #expect(fixture.brokenLinks().isEmpty, "\(fixture.brokenLinks())")
        // A file that is no picture changes no album.
        try "more notes".write(toFile: fixture.tree + "/Samples/more.txt", atomically: true, encoding: .utf8)
        report = try fixture.build()
        #expect(report.drawn.isEmpty && report.pagesWritten == 0, "\(report.summary)")
    }

    @Test("a folder renamed or moved keeps its sheets and renditions: nothing read or decoded")
    func moved() throws {
        let fixture = try Self.tree()
        try fixture.build()
        let sheets = Set(fixture.files().filter { $0.hasPrefix("_files/") })
        try FileManager.default.moveItem(atPath: fixture.tree + "/2024/Rome", toPath: fixture.tree + "/2024/Roma")
        var report = try fixture.build()
        #expect(report.moved == ["2024/Roma"] && report.removed == ["2024/Rome"], "\(report.summary)")
        #expect(report.drawn.isEmpty && report.read == 0 && report.renditions == 0, "\(report.summary)")
        #expect(access(fixture.site + "/2024/Rome", F_OK) != 0, "the old album's pages and folder are gone")
        #expect(fixture.page("2024/Roma/index.html").contains("./_pictures/fountain.jpg.html"))
        #expect(Set(fixture.files().filter { $0.hasPrefix("_files/") }) == sheets)

        try FileManager.default.moveItem(atPath: fixture.tree + "/Samples", toPath: fixture.tree + "/2024/Samples")
        report = try fixture.build()
        #expect(report.moved == ["2024/Samples"] && report.drawn.isEmpty && report.read == 0, "\(report.summary)")
        #expect(fixture.page("2024/index.html").contains("<strong>Samples</strong>"))
        #expect(fixture.brokenLinks().isEmpty, "\(fixture.brokenLinks())")
    }

    @Test("interrupted, every album is whole and the next build finishes: the site a build in one go makes")
    func interrupted() throws {
        let fixture = try Self.tree()
        let albums = Locked(0)
        let hooks = GalleryHooks(
            progress: { progress in
                if progress.stage == .albums { albums.withLock { $0 = progress.done } }
            },
            isCancelled: { albums.withLock { $0 } >= 1 })
        #expect(throws: WallRunError.cancelled) { try fixture.build(hooks: hooks) }
        // No page yet (pages come last, all together); the album done has its sheets.
        #expect(fixture.pages().isEmpty, "\(fixture.pages())")
        #expect(fixture.files().contains { $0.hasPrefix("_files/sheets/") })
        #expect(!fixture.files().contains { $0.hasSuffix(".tmp") }, "\(fixture.files())")
        let report = try fixture.build()
        #expect(report.drawn.count == 2 && report.read == 0, "the two albums left: \(report.summary)")
        #expect(fixture.brokenLinks().isEmpty, "\(fixture.brokenLinks())")
        // Stopped again once its sheets are drawn, a site in place keeps every page as it was.
        fixture.add("orientation-3.jpg", as: "2024/Rome/orientation-3.jpg")
        fixture.add("orientation-4.jpg", as: "Samples/orientation-4.jpg")
        let before = fixture.stamps().filter { $0.key.hasSuffix(".html") }
        albums.withLock { $0 = 0 }
        #expect(throws: WallRunError.cancelled) { try fixture.build(hooks: hooks) }
        #expect(fixture.stamps().filter { $0.key.hasSuffix(".html") } == before)
        #expect(fixture.brokenLinks().isEmpty, "\(fixture.brokenLinks())")
        #expect(try fixture.build().drawn.count == 1)
        let fresh = SiteFixture()
        try FileManager.default.removeItem(atPath: fresh.tree)
        // A copy with the files' times (a picture without a date is dated by its file's).
        #expect(try Fixtures.run("/bin/cp", ["-a", fixture.tree, fresh.tree]).status == 0)
        try GallerySite(tree: fresh.tree, site: fixture.root + "/fresh", settings: SiteFixture.settings()).build()
        // The same files but for the pages, which link to the originals in their own tree.
        let other = SiteFixture.files(in: fixture.root + "/fresh")
        #expect(fixture.files() == other, "\(Set(fixture.files()).symmetricDifference(other).sorted())")
        for file in other where !file.hasSuffix(".html") || !fixture.page(file).contains("Original") {
            #expect(
                Fixtures.read(fixture.site + "/" + file) == Fixtures.read(fixture.root + "/fresh/" + file), "\(file)")
        }
    }

    @Test("albums drawn two at a time make the site that one thread makes, file for file")
    func albumsAtOnce() throws {
        let fixture = try Self.tree()
        fixture.add("orientation-3.jpg", as: "2023/Paris/orientation-3.jpg")
        fixture.add("png-rgba.png", as: "2023/Paris/png-rgba.png")
        let report = try fixture.build()
        #expect(report.drawn.count == 4, "\(report.summary)")
        let one = fixture.root + "/one"
        try GallerySite(tree: fixture.tree, site: one, settings: SiteFixture.settings { $0.wall.limits.threads = 1 })
            .build()
        #expect(fixture.files() == SiteFixture.files(in: one))
        for file in fixture.files() + [SitePaths.record] {
            #expect(Fixtures.read(fixture.site + "/" + file) == Fixtures.read(one + "/" + file), "\(file)")
        }
        // The record lists the files written in byte order, whatever order the build kept them in.
        let record = try JSONSerialization.jsonObject(
            with: Data(try #require(Fixtures.read(one + "/" + SitePaths.record))))
        let written = try #require((record as? [String: Any])?["written"] as? [String])
        #expect(
            written.count > 10 && written == written.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) },
            "\(written)")
    }

    @Test("only what the gallery wrote is ever removed")
    func ownFilesOnly() throws {
        let fixture = try Self.tree()
        try fixture.build()
        try "mine".write(toFile: fixture.site + "/notes.txt", atomically: true, encoding: .utf8)
        try "mine".write(toFile: fixture.site + "/2024/Rome/mine.html", atomically: true, encoding: .utf8)
        try "mine".write(toFile: fixture.site + "/_files/keep.txt", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: fixture.tree + "/2024/Rome")
        let report = try fixture.build()
        #expect(report.removed.contains("2024/Rome"), "\(report.summary)")
        for file in ["notes.txt", "2024/Rome/mine.html", "_files/keep.txt"] {
            #expect(access(fixture.site + "/" + file, F_OK) == 0, "\(file)")
        }
        #expect(access(fixture.site + "/2024/Rome/index.html", F_OK) != 0)
        #expect(!fixture.files().contains { $0.contains("_pictures/orientation-1") })
    }

    @Test("names and descriptions that look like markup are shown as text; every link is relative")
    func hostileNames() throws {
        let fixture = SiteFixture()
        let folder = "<svg onload=alert(1)>"
        for (sample, name) in [
            ("orientation-1.jpg", "<img src=x onerror=alert(1)>.jpg"), ("png-rgb.png", "\"><b>x.png"),
            ("orientation-2.jpg", "javascript:alert(1).jpg"), ("orientation-3.jpg", "a&amp;b's\\c.jpg"),
            ("orientation-4.jpg", "_pictures"), ("orientation-5.jpg", "index.html"),
        ] {
            fixture.add(sample, as: folder + "/" + name)
        }
        try DescribedJPEG.write(
            Fixtures.sample("landscape-baseline-420.jpg"), to: fixture.tree + "/" + folder + "/described.jpg",
            xmpDescription: "</figcaption><script>alert(2)</script>")
        try fixture.build(SiteFixture.settings { $0.title = "<i>Ours</i>" })
        #expect(fixture.brokenLinks().isEmpty, "\(fixture.brokenLinks())")
        for page in fixture.pages() {
            let html = fixture.page(page)
            for raw in ["<img src=x", "<script>alert", "\"><b>", "<i>Ours", "onerror=alert(1)>", "<svg onload"] {
                #expect(!html.contains(raw), "\(page) holds \(raw)")
            }
            for link in SiteFixture.links(in: html) where !link.hasPrefix("https://") && !link.hasPrefix("data:") {
                #expect(link.hasPrefix("./") || link.hasPrefix("../"), "\(page): \(link)")
            }
        }
        // The folder's album is under its own name, escaped only as a URL.
        #expect(access(fixture.site + "/" + folder + "/index.html", F_OK) == 0)
        // The pictures named like the gallery's own files have pages of their own.
        #expect(access(fixture.site + "/" + folder + "/_pictures/_pictures.html", F_OK) == 0)
        #expect(access(fixture.site + "/" + folder + "/_pictures/index.html.html", F_OK) == 0)
    }

    @Test("a tree folder named as the gallery's own files keeps out of their way")
    func reservedNames() throws {
        let fixture = SiteFixture()
        fixture.add("orientation-1.jpg", as: "_files/a.jpg")
        fixture.add("orientation-2.jpg", as: "index.html/b.jpg")
        fixture.add("orientation-3.jpg", as: "_pictures/c.jpg")
        try fixture.build()
        #expect(access(fixture.site + "/__files/index.html", F_OK) == 0)
        #expect(access(fixture.site + "/_index.html/index.html", F_OK) == 0)
        #expect(access(fixture.site + "/__pictures/index.html", F_OK) == 0)
        #expect(fixture.brokenLinks().isEmpty, "\(fixture.brokenLinks())")
    }

    @Test("the site cannot be the tree; a site in the tree is no album; one build at a time")
    func refusals() throws {
        let fixture = try Self.tree()
        #expect(throws: GalleryError.self) {
            try GallerySite(tree: fixture.tree, site: fixture.tree, settings: SiteFixture.settings()).build()
        }
        #expect(throws: GalleryError.self) {
            try GallerySite(tree: fixture.tree + "/2024", site: fixture.tree, settings: SiteFixture.settings()).build()
        }
        let inside = fixture.tree + "/site"
        let report = try GallerySite(tree: fixture.tree, site: inside, settings: SiteFixture.settings()).build()
        #expect(report.albums == 4, "\(report.summary)")
        #expect(access(inside + "/site", F_OK) != 0)
        let held = try GallerySession(GallerySite(tree: fixture.tree, site: inside, settings: SiteFixture.settings()))
        #expect(throws: GalleryError.self) {
            try GallerySite(tree: fixture.tree, site: inside, settings: SiteFixture.settings()).build()
        }
        _ = held
    }

    @Test("--profile: a build's decoding and renditions are measured; a rebuild with nothing changed decodes nothing")
    func profile() throws {
        let fixture = try Self.tree()
        let first = StageProfile()
        try fixture.build(hooks: GalleryHooks(profile: first))
        #expect((first.totals[.decode] ?? 0) > 0, "\(first.totals)")
        #expect((first.totals[.renditions] ?? 0) > 0, "\(first.totals)")
        let again = StageProfile()
        #expect(try fixture.build(hooks: GalleryHooks(profile: again)).nothingChanged)
        #expect(again.totals[.decode] == nil && again.totals[.renditions] == nil, "\(again.totals)")
    }

    @Test("a name that is another's text in other Unicode characters is said, with both names' code points")
    func namesAlike() throws {
        let fixture = SiteFixture()
        // "é" as one character (U+00E9, after "e" in byte order) and as "e" and an accent (U+0301).
        fixture.add("png-rgb.png", as: "Caf\u{E9}/a.png")
        fixture.add("orientation-1.jpg", as: "Cafe\u{301}/cafe\u{301}.jpg")
        fixture.add("orientation-3.jpg", as: "Cafe\u{301}/caf\u{E9}.jpg")
        fixture.add("png-rgba.png", as: "Cafe\u{301}/other.png")
        let said = Locked<[String]>([])
        try fixture.build(hooks: GalleryHooks(warning: { text in said.withLock { $0.append(text) } }))
        let warnings = said.withLock { $0 }
        // Compared as bytes: as text, either name would do.
        func warned(about path: String) -> Bool {
            warnings.contains {
                $0.utf8.starts(with: (fixture.tree + "/" + path + ": ").utf8) && $0.contains("(U+00E9 against U+0301)")
            }
        }
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warned(about: "Caf\u{E9}"), "\(warnings)")
        #expect(warned(about: "Cafe\u{301}/caf\u{E9}.jpg"), "\(warnings)")
        // The first of the two in byte order is shown, alone: one page, one tile, one record, so
        // nothing is left behind when the folder is renamed.
        func pages(under folder: String) -> [String] {
            fixture.pages().filter { $0.utf8.starts(with: (folder + "/").utf8) }.map {
                String($0.dropFirst(folder.count + 1))
            }
        }
        var shown = pages(under: "Cafe\u{301}").map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        #expect(
            shown
                == ["_pictures/cafe\u{301}.jpg.html", "_pictures/other.png.html", "index.html"].map { Array($0.utf8) },
            "\(pages(under: "Cafe\u{301}"))")
        #expect(pages(under: "Caf\u{E9}").isEmpty, "the folder's twin is not an album: \(fixture.pages())")
        #expect(
            fixture.page("Cafe\u{301}/index.html").contains("2 pictures"), "\(fixture.page("Cafe\u{301}/index.html"))")
        try FileManager.default.moveItem(atPath: fixture.tree + "/Cafe\u{301}", toPath: fixture.tree + "/Bar")
        try fixture.build()
        #expect(pages(under: "Cafe\u{301}").isEmpty, "\(fixture.pages())")
        shown = pages(under: "Bar").map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        #expect(
            shown
                == ["_pictures/cafe\u{301}.jpg.html", "_pictures/other.png.html", "index.html"].map { Array($0.utf8) },
            "\(fixture.pages())")
        // Its twin gone, the other folder is an album of its own.
        #expect(pages(under: "Caf\u{E9}").contains { $0.utf8.elementsEqual("index.html".utf8) }, "\(fixture.pages())")
        #expect(fixture.brokenLinks().isEmpty, "\(fixture.brokenLinks())")
        #expect(
            LibraryWalk.codePoints("Cafe\u{301}.jpg") == "U+0301" && LibraryWalk.codePoints("a.jpg") == "ASCII only")
    }

    @Test("a damaged record is said and the site built again, whole")
    func damagedRecord() throws {
        let fixture = try Self.tree()
        try fixture.build()
        try "{ not a record".write(toFile: fixture.site + "/" + SitePaths.record, atomically: true, encoding: .utf8)
        let said = Locked<[String]>([])
        let report = try fixture.build(hooks: GalleryHooks(warning: { text in said.withLock { $0.append(text) } }))
        #expect(said.withLock { $0 }.contains { $0.contains("cannot be read") }, "\(said.withLock { $0 })")
        #expect(report.read == 7 && fixture.brokenLinks().isEmpty, "\(report.summary)")
        #expect(try fixture.build().nothingChanged)
    }
}
