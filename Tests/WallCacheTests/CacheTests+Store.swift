import Foundation
import Testing
import WallCore
import WallLayout
import _WallTestSupport

@testable import ImageWall
@testable import WallCache

/// The store itself: its size limit, its default folder, writers at once, its usage record and
/// `imagewall cache`.
extension CacheTests {
    @Test("over its size limit the cache deletes the least recently used entries first")
    func leastRecentlyUsed() throws {
        let directory = folder.file("store")
        let store = CacheStore(directory: directory, sizeLimit: 40 << 10)
        let keys = (0..<8).map { n in [UInt8(n)].withUnsafeBytes { CacheKey($0) } }
        // Noise: parts zstd cannot shrink, so each entry takes its 8 KB.
        var random = SeededGenerator(seed: 7)
        let noise = (0..<8).map { _ in (0..<(8 << 10)).map { _ in UInt8.random(in: 0...255, using: &random) } }
        for (n, key) in keys.enumerated() {
            store.save("test", key, parts: [[UInt8(n)], noise[n]])
            // Distinct times of use, oldest first; entry 0 is then read, so used last.
            let path = directory + "/v1/test/" + key.description.prefix(2) + "/" + key.description
            let time = Date(timeIntervalSince1970: 1_000_000 + Double(n) * 60)
            try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: path)
        }
        #expect(store.load("test", keys[0]) == [[0], noise[0]])
        store.trim()
        let kept = keys.indices.filter { store.load("test", keys[$0]) != nil }
        #expect(kept.contains(0))
        #expect(!kept.contains(1) && !kept.contains(2))
        #expect(kept.contains(7))
        #expect(kept.count >= 3 && kept.count <= 4)
        #expect(store.problem == nil)
    }

    @Test(
        "entries are stored compressed (unless told not to) and read back whole; an entry of the older format reads as missing"
    )
    func compressed() throws {
        let directory = folder.file("packed")
        let store = CacheStore(directory: directory, sizeLimit: 1 << 30)
        let key = [UInt8(1)].withUnsafeBytes { CacheKey($0) }
        let smooth = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 / 4096) }
        store.save("test", key, parts: [[9, 9], smooth])
        let path = directory + "/v1/test/" + key.description.prefix(2) + "/" + key.description
        let size = try #require(Fixtures.read(path)).count
        #expect(size < smooth.count / 20, "stored \(size) bytes for 1 MB of gradient")
        #expect(store.load("test", key) == [[9, 9], smooth])
        let plain = [UInt8(2)].withUnsafeBytes { CacheKey($0) }
        store.save("test", plain, parts: [smooth], compressing: false)
        let plainPath = directory + "/v1/test/" + plain.description.prefix(2) + "/" + plain.description
        #expect(try #require(Fixtures.read(plainPath)).count > smooth.count)
        #expect(store.load("test", plain) == [smooth])
        var older = try #require(Fixtures.read(path))
        older.replaceSubrange(0..<8, with: Array("IWCACHE2".utf8))
        try Data(older).write(to: URL(fileURLWithPath: path))
        #expect(store.load("test", key) == nil && !FileManager.default.fileExists(atPath: path))
    }

    @Test("the tests' renders left on the default cache use a folder of the test run's, never the user's")
    func isolated() throws {
        let folder = TemporaryFolder()
        #expect(CacheSettings.defaultDirectory == Fixtures.cacheHome + "/imagewall")
        // A command run from the tests, with no cache option, writes there too.
        let run = try Fixtures.run(
            Fixtures.binary, ["render", Fixtures.sample("png-rgb.png"), "-o", folder.file("s.png"), "-q"])
        #expect(run.status == 0)
        #expect(!Fixtures.files(in: Fixtures.cacheHome + "/imagewall/v1").isEmpty)
    }

    @Test("two renders writing the same entries at once record them once; a damaged entry leaves the record")
    func usageOfRenders() throws {
        let directory = folder.file("shared")
        // Two processes' stores, both missing the same entries and then writing them, as two
        // renders of one folder started together do.
        let first = CacheStore(directory: directory, sizeLimit: 1 << 30)
        let second = CacheStore(directory: directory, sizeLimit: 1 << 30)
        var random = SeededGenerator(seed: 11)
        let keys = (0..<6).map { n in [UInt8(n), 7].withUnsafeBytes { CacheKey($0) } }
        let parts = keys.map { _ in [(0..<(6 << 10)).map { _ in UInt8.random(in: 0...255, using: &random) }] }
        for key in keys { #expect(first.load("test", key) == nil && second.load("test", key) == nil) }
        for (key, part) in zip(keys, parts) {
            first.save("test", key, parts: part)
            second.save("test", key, parts: part)
        }
        first.trim()
        second.trim()
        let recorded = first.usage(), counted = first.usage(recount: true)
        #expect(recorded.entries == 6 && recorded.bytes == counted.bytes, "\(recorded) against \(counted)")
        // An entry found damaged and deleted is taken out of the record by the one that deletes it.
        let path = directory + "/v1/test/" + keys[0].description.prefix(2) + "/" + keys[0].description
        var bytes = try #require(Fixtures.read(path))
        bytes[bytes.count - 1] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(first.load("test", keys[0]) == nil && second.load("test", keys[0]) == nil)
        first.trim()
        second.trim()
        let after = first.usage(), recount = first.usage(recount: true)
        #expect(after.entries == 5 && after.bytes == recount.bytes, "\(after) against \(recount)")
    }

    @Test("the usage record: renders add to it without walking the folder, a walk happens only over the limit")
    func usageRecord() throws {
        let inputs = try inputs()
        let cache = folder.file("counted")
        try render(inputs, "a.png", options(cache: cache))
        let store = CacheStore(directory: cache, sizeLimit: 1 << 30)
        let recorded = store.usage()
        #expect(recorded.entries == entries(cache).count && recorded.entries > 0)
        #expect(recorded.misses > 0 && recorded.hits == 0)
        let walked = store.usage(recount: true)
        #expect(walked.bytes == recorded.bytes && walked.entries == recorded.entries)
        try render(inputs, "b.png", options(cache: cache))
        let warm = store.usage()
        // Nothing new but the notes of the files' content keys, once they were over a second old.
        let notes = entries(cache).filter { $0.contains("/v1/file/") }.count
        #expect(warm.hits > 0 && warm.entries == recorded.entries + notes && warm.misses == recorded.misses)
        // An entry deleted behind the record's back is not seen until a walk: none was made.
        try FileManager.default.removeItem(atPath: try #require(entries(cache).first))
        #expect(store.usage().entries == warm.entries)
        #expect(store.usage(recount: true).entries == warm.entries - 1)
        // Trimming to a size walks and deletes; clearing leaves nothing.
        store.trim(to: recorded.bytes / 2, walk: false)
        #expect(store.usage().bytes <= recorded.bytes / 2 && entries(cache).count < warm.entries - 1)
        store.clear()
        #expect(entries(cache).isEmpty && store.usage() == CacheStore.Usage())
        // A folder with entries and no record (as an older ImageWall left it) is cleared too.
        try render(inputs, "c.png", options(cache: cache))
        try FileManager.default.removeItem(atPath: cache + "/v1/usage")
        #expect(!entries(cache).isEmpty)
        CacheStore(directory: cache, sizeLimit: 1 << 30).clear()
        #expect(entries(cache).isEmpty)
    }

    @Test("imagewall cache shows, trims and clears, and refuses options that do not go together")
    func command() throws {
        let inputs = try inputs()
        let cache = folder.file("shown")
        try render(inputs, "a.png", options(cache: cache))
        let shown = try Fixtures.run(Fixtures.binary, ["cache", "--cache", cache, "--json"])
        #expect(shown.status == 0, "\(shown.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: shown.output) as? [String: Any])
        #expect(object["entries"] as? Int == entries(cache).count && (object["bytes"] as? Int ?? 0) > 0)
        let pictures = try FileManager.default.contentsOfDirectory(atPath: inputs).reduce(0) {
            $0 + (try FileManager.default.attributesOfItem(atPath: inputs + "/" + $1)[.size] as? Int ?? 0)
        }
        #expect(object["served"] as? Int == pictures)
        let text = String(
            decoding: try Fixtures.run(Fixtures.binary, ["cache", "--cache", cache]).output, as: UTF8.self)
        #expect(text.contains("hit rate") && text.contains("serves:"))
        let trimmed = try Fixtures.run(Fixtures.binary, ["cache", "--cache", cache, "--trim", "--max-size", "0"])
        #expect(trimmed.status == 0 && entries(cache).isEmpty)
        try render(inputs, "b.png", options(cache: cache))
        #expect(!entries(cache).isEmpty)
        #expect(try Fixtures.run(Fixtures.binary, ["cache", "--cache", cache, "--clear"]).status == 0)
        #expect(entries(cache).isEmpty)
        #expect(try Fixtures.run(Fixtures.binary, ["cache", "--clear", "--trim"]).status != 0)
        #expect(try Fixtures.run(Fixtures.binary, ["cache", "--max-size", "5"]).status != 0)
    }
}
