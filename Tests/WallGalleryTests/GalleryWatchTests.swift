import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

@testable import WallGallery

#if canImport(Glibc)
    import Glibc
#endif

/// A gallery watching its tree: builds when the tree has changed and is still, never while a
/// file is being written, and follows folders as they come, move and go. (Waits here are bounds
/// on how long a build may take to come, far above what it takes; nothing is timed.)
@Suite("Gallery watch")
struct GalleryWatchTests {
    /// A watch of `fixture` running on a thread of its own: the reports of its builds as they
    /// come, and when each came.
    final class Watching: @unchecked Sendable {
        let reports = Locked<[(report: GalleryReport, at: Double)]>([])
        let warnings = Locked<[String]>([])
        let stop = Locked(false)
        let finished = Locked(false)
        let failure = Locked<String?>(nil)
        let armed = Locked(false)

        init(_ fixture: SiteFixture, quiet: Double = 0.3, limit: Int? = nil) throws {
            let session = try GallerySession(
                GallerySite(tree: fixture.tree, site: fixture.site, settings: SiteFixture.settings()))
            _ = try session.build()
            let hooks = GalleryHooks(
                isCancelled: { [stop] in stop.withLock { $0 } },
                warning: { [warnings] text in warnings.withLock { $0.append(text) } })
            let thread = Thread { [self] in
                do {
                    try session.watch(
                        quiet: quiet, hooks: hooks, limit: limit, armed: { self.armed.withLock { $0 = true } }
                    ) { report in
                        self.reports.withLock { $0.append((report, ProgressDisplayClock.now())) }
                    }
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
                finished.withLock { $0 = true }
            }
            thread.start()
            // Changes made from here on are the watch's to see.
            let end = ProgressDisplayClock.now() + 60
            while !armed.withLock({ $0 }) && failure.withLock({ $0 }) == nil && ProgressDisplayClock.now() < end {
                usleep(10_000)
            }
        }

        /// Waits (up to a minute) for a build whose report satisfies `condition`.
        func waitFor(_ condition: (GalleryReport) -> Bool) -> GalleryReport? {
            let end = ProgressDisplayClock.now() + 60
            while ProgressDisplayClock.now() < end {
                if let found = reports.withLock({ $0.map(\.report).first(where: condition) }) { return found }
                usleep(20_000)
            }
            return nil
        }

        func end() {
            stop.withLock { $0 = true }
            while !finished.withLock({ $0 }) { usleep(10_000) }
        }
    }

    /// A JPEG of a few megabytes: noise, 2000 x 1500.
    static func bigJPEG() throws -> [UInt8] {
        var random = SeededGenerator(seed: 0x1234_5678)
        var samples = [UInt8](repeating: 0, count: 2000 * 1500 * 3)
        for i in samples.indices {
            samples[i] = UInt8(truncatingIfNeeded: random.next() >> 57) &+ UInt8(i / 6000 % 128)
        }
        let folder = TemporaryFolder()
        var options = JPEGEncodeOptions(storage: .ycbcr)
        options.quality = 95
        try JPEGEncoder.write(
            samples: samples, size: Size(width: 2000, height: 1500), options: options, to: folder.file("big.jpg"))
        return try #require(folder.read("big.jpg"))
    }

    @Test("a picture copied slowly (64 KB at a time, a pause longer than the quiet one) is taken once, whole")
    func slowCopy() throws {
        let fixture = SiteFixture()
        fixture.add("orientation-1.jpg", as: "a/orientation-1.jpg")
        let bytes = try Self.bigJPEG()
        let watching = try Watching(fixture)
        defer { watching.end() }
        let path = fixture.tree + "/a/new.jpg"
        let handle = try #require(fopen(path, "wb"))
        var written = 0
        while written < bytes.count {
            let count = min(65536, bytes.count - written)
            _ = bytes[written..<written + count].withUnsafeBytes { fwrite($0.baseAddress, 1, count, handle) }
            fflush(handle)
            written += count
            usleep(written == 65536 * 8 ? 900_000 : 20_000)  // once, a pause three times the quiet period
        }
        let copied = ProgressDisplayClock.now()
        fclose(handle)
        let report = try #require(watching.waitFor { $0.drawn == ["a"] }, "the picture is taken")
        #expect(report.read == 1 && report.pictures == 2, "\(report.summary)")
        let builds = watching.reports.withLock { $0 }
        #expect(builds.count == 1, "one build, after the copy: \(builds.map(\.report.summary))")
        #expect(builds.allSatisfy { $0.at >= copied })
        let (record, _) = GalleryRecord.read(site: fixture.site)
        #expect(record.files["a/new.jpg"]?.stamp.size == Int64(bytes.count))
        #expect(record.files["a/new.jpg"]?.picture?.sides == [500, 1000, 2000])
        #expect(fixture.page("a/index.html").contains("./_pictures/new.jpg.html"))
    }

    @Test("a link to a folder out of the tree is not followed, and a watch says so once, not on every build")
    func linkOutOfTree() throws {
        let fixture = SiteFixture()
        fixture.add("orientation-1.jpg", as: "a/orientation-1.jpg")
        let outside = TemporaryFolder()
        outside.write(try #require(Fixtures.read(Fixtures.sample("png-rgb.png"))), to: "private.png")
        #expect(symlink(outside.path, fixture.tree + "/elsewhere") == 0)
        #expect(symlink(fixture.tree + "/a", fixture.tree + "/again") == 0)  // inside the tree: followed
        let watching = try Watching(fixture)
        defer { watching.end() }
        fixture.add("png-gray.png", as: "a/png-gray.png")
        #expect(watching.waitFor { $0.drawn.contains("a") } != nil)
        let said = watching.warnings.withLock { $0 }.filter { $0.contains("out of the tree") }
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.contains(fixture.tree + "/elsewhere") == true)
        #expect(access(fixture.site + "/elsewhere", F_OK) != 0)
        let (record, _) = GalleryRecord.read(site: fixture.site)
        #expect(!record.files.keys.contains { $0.hasPrefix("elsewhere/") })
        #expect(
            record.files.keys.contains("again/orientation-1.jpg") || record.files.keys.contains("a/orientation-1.jpg"))
    }

    @Test("folders made, renamed and deleted are followed")
    func folders() throws {
        let fixture = SiteFixture()
        fixture.add("orientation-1.jpg", as: "a/orientation-1.jpg")
        let watching = try Watching(fixture)
        defer { watching.end() }
        try FileManager.default.moveItem(atPath: fixture.tree + "/a", toPath: fixture.tree + "/b")
        #expect(watching.waitFor { $0.moved == ["b"] } != nil)
        try FileManager.default.createDirectory(atPath: fixture.tree + "/c/d", withIntermediateDirectories: true)
        usleep(100_000)
        fixture.add("png-rgb.png", as: "c/d/png-rgb.png")  // in a folder made after the watch began
        #expect(watching.waitFor { $0.drawn == ["c/d"] } != nil)
        fixture.add("orientation-2.jpg", as: "b/orientation-2.jpg")  // in the folder moved
        #expect(watching.waitFor { $0.drawn == ["b"] } != nil)
        try FileManager.default.removeItem(atPath: fixture.tree + "/c")
        #expect(watching.waitFor { $0.removed == ["c", "c/d"] } != nil)
        #expect(access(fixture.site + "/c", F_OK) != 0)
        #expect(watching.failure.withLock { $0 } == nil)
    }

    @Test("a burst of files makes a few builds, not one each")
    func burst() throws {
        let fixture = SiteFixture()
        fixture.add("orientation-1.jpg", as: "a/orientation-1.jpg")
        let watching = try Watching(fixture, quiet: 0.5)
        defer { watching.end() }
        try FileManager.default.createDirectory(atPath: fixture.tree + "/many", withIntermediateDirectories: true)
        let source = try #require(Fixtures.read(Fixtures.sample("png-palette.png")))
        for n in 0..<200 {
            // Each its own content: a different last byte of the PNG's trailing data.
            let handle = try #require(fopen(fixture.tree + "/many/p\(n).png", "wb"))
            _ = (source + [UInt8(n & 0xFF), UInt8(n >> 8)]).withUnsafeBytes {
                fwrite($0.baseAddress, 1, $0.count, handle)
            }
            fclose(handle)
        }
        let report = try #require(watching.waitFor { $0.pictures == 201 })
        #expect(report.albums == 3)
        let builds = watching.reports.withLock { $0.count }
        #expect(builds <= 3, "\(builds) builds for 200 files")
    }

    @Test("past the limit of watched folders, a folder is looked at every 2 s instead, and said so")
    func limit() throws {
        let fixture = SiteFixture()
        fixture.add("orientation-1.jpg", as: "a/orientation-1.jpg")
        fixture.add("orientation-2.jpg", as: "b/orientation-2.jpg")
        let watching = try Watching(fixture, limit: 1)  // the top only
        defer { watching.end() }
        #expect(watching.warnings.withLock { $0 }.contains { $0.contains("limit of watched folders") })
        fixture.add("orientation-3.jpg", as: "b/orientation-3.jpg")
        #expect(watching.waitFor { $0.drawn == ["b"] } != nil)
    }
}
