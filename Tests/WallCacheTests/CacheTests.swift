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

    func options(
        cache: String?, linear: Bool = false, decodes: Bool = false, width: Int = 500, columns: Int = 3
    ) -> WallOptions {
        var layout = LayoutConfiguration()
        (layout.width, layout.columns) = (width, columns)
        var options = WallOptions(layout: layout)
        options.limits.threads = 2
        options.rendering.tile.linear = linear
        options.cache = cache.map { CacheSettings(directory: $0) }
        options.cache?.keepsDecodes = decodes
        return options
    }

    /// The kinds of the entries in `cache`.
    func kinds(_ cache: String) -> Set<String> {
        Set(entries(cache).map { String($0.split(separator: "/").reversed()[2]) })
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
        // Tiles and bands, and the sources they serve; no decode unless asked.
        #expect(kinds(cache) == ["tile", "segment", "source"])
        // Another setting that shapes the pixels is another entry, not a stale one.
        let linearOff = try render(inputs, "linear-off.png", options(cache: nil, linear: true))
        let linearWarm = try render(inputs, "linear-warm.png", options(cache: cache, linear: true))
        #expect(linearWarm.bytes == linearOff.bytes)
        #expect(linearWarm.bytes != off.bytes)
    }

    @Test("decodes, kept when asked, serve a sheet of other tile sizes: nothing decoded, the same bytes")
    func keptDecodes() throws {
        // JPEGs too small to be shrunk on load and a PNG: decoded whole for either sheet.
        let inputs = folder.file("whole")
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        for name in ["landscape-baseline-420.jpg", "portrait-progressive-420.jpg", "png-rgba.png"] {
            try FileManager.default.copyItem(atPath: Fixtures.sample(name), toPath: inputs + "/" + name)
        }
        let cache = folder.file("cache")
        try render(inputs, "first.png", options(cache: cache, decodes: true))
        #expect(kinds(cache).contains("decoded"))
        // Wider tiles from the same decodes.
        let off = try render(inputs, "off.png", options(cache: nil, width: 560))
        let other = try render(inputs, "other.png", options(cache: cache, decodes: true, width: 560))
        #expect(other.bytes == off.bytes)
        #expect(other.decoding == 0)
        // Without them, the same sheet decodes its sources.
        let plain = folder.file("plain")
        try render(inputs, "plain.png", options(cache: plain))
        #expect(!kinds(plain).contains("decoded"))
        #expect(try render(inputs, "plain-other.png", options(cache: plain, width: 560)).decoding > 0)
    }

    @Test("the cache keeps no more than the pictures it serves, at any number of column counts, decodes first to go")
    func boundBySources() throws {
        let inputs = try inputs()
        let cache = folder.file("bounded")
        let files = try FileManager.default.contentsOfDirectory(atPath: inputs)
        let pictures = try files.reduce(0) {
            $0 + (try FileManager.default.attributesOfItem(atPath: inputs + "/" + $1)[.size] as? Int ?? 0)
        }
        var sheets: [[UInt8]] = []
        for columns in [1, 2, 3, 5] {
            var options = options(cache: cache, decodes: true, width: 900, columns: columns)
            options.cache?.allowance = 0
            sheets.append(try render(inputs, "c\(columns).png", options).bytes)
            let usage = CacheStore(directory: cache, sizeLimit: 1 << 30).usage(recount: true)
            #expect(usage.served == pictures, "served \(usage.served), pictures \(pictures)")
            #expect(usage.bytes <= pictures, "\(usage.bytes) bytes of cache for \(pictures) of pictures")
            #expect(usage.entries > 0)
        }
        // What is left still draws the same sheets; unbounded, a sheet of these small files
        // would take more than they do.
        for (columns, sheet) in zip([1, 2, 3, 5], sheets) {
            var options = options(cache: cache, decodes: true, width: 900, columns: columns)
            options.cache?.allowance = 0
            #expect(try render(inputs, "again-c\(columns).png", options).bytes == sheet)
        }
        let unbounded = folder.file("unbounded")
        try render(inputs, "u.png", options(cache: unbounded, decodes: true, width: 900, columns: 1))
        #expect(CacheStore(directory: unbounded, sizeLimit: 1 << 30).usage(recount: true).bytes > pictures)
    }

    @Test("a store over the sources it serves trims decodes before other entries used a day earlier")
    func decodesFirst() throws {
        let directory = folder.file("first")
        let store = CacheStore(directory: directory, sizeLimit: 1 << 30, firstToGo: ["decoded"])
        var random = SeededGenerator(seed: 5)
        let noise = { (0..<(8 << 10)).map { _ in UInt8.random(in: 0...255, using: &random) } }
        let keys = (0..<6).map { n in [UInt8(n), 9].withUnsafeBytes { CacheKey($0) } }
        // Tiles used two hours ago, decodes now, each entry 12 KB on disk; the source takes room
        // for the tiles and its own record (a render's trim keeps nine tenths of it: 43 KB).
        for (n, key) in keys.enumerated() {
            let kind = n < 3 ? "tile" : "decoded"
            store.save(kind, key, parts: [noise()], compressing: false)
            let path = directory + "/v1/\(kind)/" + key.description.prefix(2) + "/" + key.description
            let time = Date(timeIntervalSinceNow: n < 3 ? -7200 : 0)
            try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: path)
        }
        store.serve(keys[0], bytes: 48 << 10)
        store.trim()
        #expect(keys[0..<3].allSatisfy { store.load("tile", $0) != nil })
        #expect(keys[3...].allSatisfy { store.load("decoded", $0) == nil })
        let usage = store.usage(recount: true)
        #expect(usage.served == 48 << 10 && usage.bytes <= 48 << 10 && usage.entries == 4)
        // A source recorded twice counts once; its record outlives what it justifies.
        store.serve(keys[0], bytes: 48 << 10)
        store.trim()
        #expect(store.usage().served == 48 << 10)
        store.trim(to: 20 << 10, walk: true)
        #expect(store.usage().served == 48 << 10 && store.usage().entries == 2)
    }

    @Test("a settled file's content key is remembered, and a write to it (size and time kept) forgets it")
    func rememberedContentKeys() throws {
        let directory = folder.file("keys")
        let store = CacheStore(directory: directory, sizeLimit: 1 << 30)
        let path = folder.write(Array(repeating: 7, count: 5000), to: "settled.bin")
        // Changed just now: read, not remembered (a write within the clock's tick would keep its times).
        #expect(store.contentKey(ofFile: path) == CacheKey.ofFile(atPath: path))
        #expect(!kinds(directory).contains("file"))
        Thread.sleep(forTimeInterval: 2.2)
        let key = try #require(store.contentKey(ofFile: path))
        #expect(kinds(directory) == ["file"])
        #expect(store.contentKey(ofFile: path) == key)
        #expect(store.counts == (0, 0))  // not counted among the lookups
        // The same size and modification time, other bytes: its change time moved.
        let stamp = try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        try Data(Array(repeating: 8, count: 5000)).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: stamp], ofItemAtPath: path)
        let now = try #require(store.contentKey(ofFile: path))
        #expect(now != key && now == CacheKey.ofFile(atPath: path))
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
}
