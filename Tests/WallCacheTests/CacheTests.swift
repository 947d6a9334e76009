import Foundation
import Testing
import WallCore
import WallLayout
import _WallTestSupport

@testable import ImageWall
@testable import WallCache

@Suite("The persistent cache")
struct CacheTests {
    let folder = TemporaryFolder()

    /// A few samples of different formats and shapes, copied so that the tests can change them.
    func inputs() throws -> String {
        let inputs = folder.file("in")
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        for name in [
            "landscape-baseline-420.jpg", "portrait-progressive-420.jpg", "png-rgba.png", "heic-rotated-6.heic",
            "webp-exif-6.webp",
        ] {
            try FileManager.default.copyItem(atPath: Fixtures.sample(name), toPath: inputs + "/" + name)
        }
        return inputs
    }

    func options(cache: String?, linear: Bool = false) -> WallOptions {
        var layout = LayoutConfiguration()
        (layout.width, layout.columns) = (500, 3)
        var options = WallOptions(layout: layout)
        options.threads = 2
        options.rendering.linear = linear
        options.cache = cache.map { CacheSettings(directory: $0) }
        return options
    }

    /// Renders `inputs` to `name` and returns the sheet's bytes and the time spent decoding.
    @discardableResult
    func render(_ inputs: String, _ name: String, _ options: WallOptions, diagnostics: Locked<[String]>? = nil) throws
        -> (bytes: [UInt8], decoding: Double)
    {
        let profile = StageProfile()
        let hooks = RunHooks(profile: profile, diagnostics: { d in diagnostics?.withLock { $0.append(d.description) } })
        try Wall(inputs: [inputs]).render(to: folder.file(name), options: options, hooks: hooks)
        return (try #require(folder.read(name)), profile.totals[.decode] ?? 0)
    }

    func entries(_ cache: String) -> [String] {
        (FileManager.default.enumerator(atPath: cache)?.allObjects as? [String] ?? []).filter {
            !$0.hasSuffix(".tmp") && $0.split(separator: "/").count == 4
        }.map { cache + "/" + $0 }
    }

    @Test("a key is written as 32 lowercase hexadecimal digits, leading zeros kept, and read back")
    func keyText() {
        let key = CacheKey(high: 0x0123_4567_89ab_cdef, low: 0xa)
        #expect(key.description == "0123456789abcdef000000000000000a")
        #expect(CacheKey(high: .max, low: 0).description == "ffffffffffffffff0000000000000000")
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let key = CacheKey(high: generator.next(), low: generator.next() >> (generator.next() % 64))
            let expected = [key.high, key.low].map {
                let digits = String($0, radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }.joined()
            #expect(key.description == expected)
            #expect(CacheKey(hex: key.description) == key)
        }
    }

    @Test("the sheet is the same to the byte with the cache off, cold and warm; a warm render decodes nothing")
    func identical() throws {
        let inputs = try inputs()
        let cache = folder.file("cache")
        let off = try render(inputs, "off.png", options(cache: nil))
        let cold = try render(inputs, "cold.png", options(cache: cache))
        let warm = try render(inputs, "warm.png", options(cache: cache))
        #expect(cold.bytes == off.bytes)
        #expect(warm.bytes == off.bytes)
        #expect(cold.decoding > 0)
        #expect(warm.decoding == 0)
        let kinds = Set(entries(cache).map { $0.split(separator: "/").reversed()[2] })
        #expect(kinds == ["decoded", "tile", "segment"])
        // Another setting that shapes the pixels is another entry, not a stale one.
        let linearOff = try render(inputs, "linear-off.png", options(cache: nil, linear: true))
        let linearWarm = try render(inputs, "linear-warm.png", options(cache: cache, linear: true))
        #expect(linearWarm.bytes == linearOff.bytes)
        #expect(linearWarm.bytes != off.bytes)
    }

    @Test("a file rewritten in place with its size and modification time kept is not served from the cache")
    func rewrittenInPlace() throws {
        let inputs = try inputs()
        let cache = folder.file("cache")
        let path = inputs + "/landscape-baseline-420.jpg"
        let stamp: [FileAttributeKey: Any] = [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)]
        try FileManager.default.setAttributes(stamp, ofItemAtPath: path)
        try render(inputs, "before.png", options(cache: cache))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let original = try #require(Fixtures.read(path))
        // The same size, other pixels: another sample's JPEG bytes cut or padded to the length.
        var other = try #require(Fixtures.read(Fixtures.sample("portrait-progressive-420.jpg")))
        other = Array(other.prefix(original.count)) + [UInt8](repeating: 0, count: max(0, original.count - other.count))
        #expect(other.count == original.count && other != original)
        try Data(other).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes(stamp, ofItemAtPath: path)
        let after = try FileManager.default.attributesOfItem(atPath: path)
        #expect(after[.size] as? Int == attributes[.size] as? Int)
        #expect(after[.modificationDate] as? Date == attributes[.modificationDate] as? Date)
        let off = try render(inputs, "off.png", options(cache: nil))
        let warm = try render(inputs, "warm.png", options(cache: cache))
        #expect(warm.bytes == off.bytes)
        #expect(warm.decoding > 0)
    }

    @Test("truncated, corrupt and foreign entries are ignored and written again")
    func damagedEntries() throws {
        let inputs = try inputs()
        let cache = folder.file("cache")
        let off = try render(inputs, "off.png", options(cache: nil))
        try render(inputs, "cold.png", options(cache: cache))
        let files = entries(cache).sorted()
        #expect(files.count > 5)
        for (n, file) in files.enumerated() {
            var bytes = try #require(Fixtures.read(file))
            switch n % 3 {
            case 0: bytes = Array(bytes.prefix(bytes.count / 2))  // truncated
            case 1: bytes[bytes.count - 1] ^= 0x55  // a flipped payload byte
            default: bytes = try #require(Fixtures.read(files[(n + 1) % files.count]))  // another key's entry
            }
            try Data(bytes).write(to: URL(fileURLWithPath: file))
        }
        let repaired = try render(inputs, "repaired.png", options(cache: cache))
        #expect(repaired.bytes == off.bytes)
        #expect(repaired.decoding > 0)
        let warm = try render(inputs, "warm.png", options(cache: cache))
        #expect(warm.bytes == off.bytes)
        #expect(warm.decoding == 0)
    }

    @Test("a cache that cannot be written is one warning, and the render goes on unchanged")
    func unwritable() throws {
        let inputs = try inputs()
        let blocker = folder.write([1, 2, 3], to: "not-a-folder")  // a file where the folder would go
        let messages = Locked<[String]>([])
        let off = try render(inputs, "off.png", options(cache: nil))
        let result = try render(inputs, "sheet.png", options(cache: blocker + "/cache"), diagnostics: messages)
        #expect(result.bytes == off.bytes)
        let warnings = messages.withLock { $0 }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("cannot write to the cache") == true)
    }

    @Test("two renders sharing a cache at once both draw the right sheet")
    func concurrent() async throws {
        let inputs = try inputs()
        let cache = folder.file("cache")
        let off = try render(inputs, "off.png", options(cache: nil))
        let options = self.options(cache: cache)
        let paths = (0..<4).map { folder.file("together-\($0).png") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for path in paths {
                group.addTask { try Wall(inputs: [inputs]).render(to: path, options: options) }
            }
            try await group.waitForAll()
        }
        for path in paths { #expect(Fixtures.read(path) == off.bytes) }
        #expect(try render(inputs, "after.png", options).bytes == off.bytes)
    }

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

    @Test("entries are stored compressed and read back whole; an entry of the older format reads as missing")
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
        var older = try #require(Fixtures.read(path))
        older.replaceSubrange(0..<8, with: Array("IWCACHE2".utf8))
        try Data(older).write(to: URL(fileURLWithPath: path))
        #expect(store.load("test", key) == nil && !FileManager.default.fileExists(atPath: path))
        // Pixels go through the gradient filter and back unchanged, whatever their layout.
        var random = SeededGenerator(seed: 3)
        for (width, channels) in [(1, 1), (7, 3), (64, 4), (5, 2), (23, 3)] {
            let pixels = (0..<(width * channels * 9)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let residuals = GradientFilter.residuals(of: pixels, rowBytes: width * channels, step: channels)
            #expect(GradientFilter.pixels(from: residuals, rowBytes: width * channels, step: channels) == pixels)
            // Each residual is its byte less left + above - above-left (0 where there is none),
            // as entries in caches already hold them.
            let row = width * channels
            let defined = pixels.indices.map { i -> UInt8 in
                let (x, y) = (i % row, i / row)
                let left = x >= channels ? pixels[i - channels] : 0, above = y > 0 ? pixels[i - row] : 0
                let corner = x >= channels && y > 0 ? pixels[i - row - channels] : 0
                return pixels[i] &- (left &+ above &- corner)
            }
            #expect(residuals == defined, "\(width) x \(channels)")
        }
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
        #expect(warm.hits > 0 && warm.entries == recorded.entries && warm.misses == recorded.misses)
        // An entry deleted behind the record's back is not seen until a walk: none was made.
        try FileManager.default.removeItem(atPath: try #require(entries(cache).first))
        #expect(store.usage().entries == recorded.entries)
        #expect(store.usage(recount: true).entries == recorded.entries - 1)
        // Trimming to a size walks and deletes; clearing leaves nothing.
        store.trim(to: recorded.bytes / 2, walk: false)
        #expect(store.usage().bytes <= recorded.bytes / 2 && entries(cache).count < recorded.entries - 1)
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
        let text = try Fixtures.run(Fixtures.binary, ["cache", "--cache", cache])
        #expect(String(decoding: text.output, as: UTF8.self).contains("hit rate"))
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
