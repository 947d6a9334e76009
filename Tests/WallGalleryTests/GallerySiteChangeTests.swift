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

/// Gallery sites of awkward trees: names that are not UTF-8, pictures rewritten in place, builds
/// killed part-way, files an album cannot draw, files touched but unchanged.
@Suite("Gallery site: names, rewrites and interrupted builds")
struct GallerySiteChangeTests {
    @Test("a picture whose name is not UTF-8 gets its page under its own bytes, linked with them percent-encoded")
    func byteName() throws {
        let fixture = SiteFixture()
        let latin = SystemPath.string(Array("Urlaub_M".utf8) + [0xFC] + Array("nchen.png".utf8))
        fixture.add("png-gray.png", as: "Urlaub/plain.png")
        try AtomicFile.write(
            try FileContents.read(Fixtures.sample("png-rgb.png")), to: fixture.tree + "/Urlaub/" + latin)
        let report = try fixture.build()
        #expect(report.pictures == 2, "\(report)")
        #expect(Folders.exists(fixture.site + "/Urlaub/_pictures/" + latin + ".html"))
        let album = String(decoding: try FileContents.read(fixture.site + "/Urlaub/index.html"), as: UTF8.self)
        #expect(album.contains("./_pictures/Urlaub_M%FCnchen.png.html"))
        #expect(album.contains("Urlaub_M\u{FFFD}nchen.png"))
        let page = try FileContents.read(fixture.site + "/Urlaub/_pictures/" + latin + ".html")
        #expect(String(decoding: page, as: UTF8.self).contains("Urlaub/Urlaub_M%FCnchen.png\""))
        // No page holds the private scalars a name's bytes are kept in.
        #expect(!album.unicodeScalars.contains { $0.value >= 0x10FF80 })
    }

    @Test("a picture rewritten in place with its size and time put back is read again and drawn anew")
    func rewrittenInPlace() throws {
        let fixture = SiteFixture()
        fixture.add("landscape-baseline-420.jpg", as: "Trip/a.jpg")
        fixture.add("png-gray.png", as: "Trip/b.png")
        try fixture.build()
        let path = fixture.tree + "/Trip/a.jpg"
        let before = try FileContents.read(path)
        let renditions = Set(fixture.files().filter { $0.hasPrefix("_files/pictures/") })
        var status = stat()
        stat(path, &status)
        // Another JPEG, padded after its end to the same size, written into the same file.
        var other = try FileContents.read(Fixtures.sample("orientation-6.jpg"))
        try #require(other.count <= before.count)
        other += [UInt8](repeating: 0, count: before.count - other.count)
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        _ = other.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        let times = [status.st_atim, status.st_mtim]
        _ = utimensat(AT_FDCWD, path, times, 0)
        let report = try fixture.build()
        #expect(report.read == 1 && report.drawn == ["Trip"], "\(report.summary)")
        #expect(Set(fixture.files().filter { $0.hasPrefix("_files/pictures/") }) != renditions)
        // Only the change time moved, the content the same: read again, nothing drawn.
        _ = utimensat(AT_FDCWD, path, times, 0)
        let same = try fixture.build()
        #expect(same.read == 1 && same.drawn.isEmpty && same.renditions == 0, "\(same.summary)")
    }

    @Test("a build killed part-way leaves temporary files the next build removes and names")
    func killedBuildLeftovers() throws {
        let fixture = SiteFixture()
        fixture.add("png-gray.png", as: "Trip/b.png")
        try fixture.build()
        // What a build killed while writing a rendition leaves: its journal, and its temporary
        // file beside the rendition, named for this host and a process that is gone.
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { free(argv[0]) }
        posix_spawn(&pid, "/bin/true", nil, nil, argv, environ)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count)
        let shortHost = String(cString: host).split(separator: ".").first.map(String.init) ?? "host"
        let folder = fixture.site + "/_files/pictures/ab"
        try Folders.make(folder)
        let leftover = folder + "/.abcdef-300.jpg.\(shortHost)-\(pid)-x1y2z3.tmp"
        try AtomicFile.write([1, 2, 3], to: leftover)
        try SiteJournal(site: fixture.site).note([], prefixes: ["_files/pictures/ab/abcdef"])
        let warnings = Locked<[String]>([])
        var hooks = GalleryHooks()
        hooks.warning = { message in warnings.withLock { $0.append(message) } }
        try fixture.build(hooks: hooks)
        #expect(!Folders.exists(leftover))
        #expect(warnings.withLock { $0 }.contains { $0.contains(leftover) && $0.contains("process \(pid)") })
    }

    @Test("files an album could not draw are counted in every build's summary and named on its page")
    func notDrawnCounted() throws {
        let fixture = SiteFixture()
        fixture.add("png-gray.png", as: "Trip/b.png")
        try AtomicFile.write(Array("not a picture".utf8), to: fixture.tree + "/Trip/broken.jpg")
        let first = try fixture.build()
        #expect(first.notDrawn == 1 && first.summary.contains("1 file not drawn"), "\(first.summary)")
        let again = try fixture.build()  // nothing changed: still counted
        #expect(again.notDrawn == 1 && again.summary.contains("1 file not drawn"), "\(again.summary)")
        let album = String(decoding: try FileContents.read(fixture.site + "/Trip/index.html"), as: UTF8.self)
        #expect(album.contains("1 file not drawn") && album.contains("broken.jpg"))
    }

    @Test("a file touched but unchanged draws its album's sheets again under the same names, kept as they were")
    func touchedKeepsSheets() throws {
        let fixture = SiteFixture()
        fixture.add("png-gray.png", as: "Trip/b.png")
        fixture.add("landscape-baseline-420.jpg", as: "Trip/a.jpg")
        try fixture.build()
        let before = fixture.stamps().filter { $0.key.hasPrefix("_files/sheets/") }
        #expect(!before.isEmpty)
        var later = [timespec(tv_sec: 1_800_000_000, tv_nsec: 0)]
        later.append(later[0])
        _ = utimensat(AT_FDCWD, fixture.tree + "/Trip/a.jpg", later, 0)
        let report = try fixture.build()
        #expect(report.drawn == ["Trip"], "\(report.summary)")
        #expect(fixture.stamps().filter { $0.key.hasPrefix("_files/sheets/") } == before)
    }
}
