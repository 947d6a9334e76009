import WallCache
import WallCodecs
import WallCore

/// The cache as a render uses it: decoded images, finished tiles and compressed bands, each
/// found by a key built from the source's content and every setting that shapes the result.
/// Anything unreadable reads as missing; nothing read from it differs from what would be made.
struct RenderCache: Sendable {
    let store: CacheStore

    /// Bumped whenever what an entry holds, or how a key is built, changes.
    static let format = 2

    init(_ settings: CacheSettings) {
        store = CacheStore(directory: settings.directory, sizeLimit: settings.sizeLimit)
    }

    enum Kind: String {
        case decoded, tile, segment
    }

    /// A decode of a source, with its decoder's warnings and notes.
    func decoded(_ key: CacheKey) -> DecodedImage? {
        guard let bytes = store.load(Kind.decoded.rawValue, key) else { return nil }
        var reader = EntryReader(bytes)
        guard let warnings = reader.texts(), let notes = reader.texts(), let bitmap = reader.bitmap(), reader.isAtEnd
        else { return nil }
        return DecodedImage(bitmap: bitmap, warnings: warnings, notes: notes)
    }

    func save(_ decoded: DecodedImage, as key: CacheKey) {
        var writer = EntryWriter()
        writer.add(decoded.warnings)
        writer.add(decoded.notes)
        writer.add(decoded.bitmap)
        store.save(Kind.decoded.rawValue, key, payload: writer.bytes)
    }

    /// A finished tile (before its cell), with its source's decoder warnings and notes (its
    /// pixels in a `DecodedImage`, though resampled).
    func tile(_ key: CacheKey) -> DecodedImage? {
        guard let bytes = store.load(Kind.tile.rawValue, key) else { return nil }
        var reader = EntryReader(bytes)
        guard let warnings = reader.texts(), let notes = reader.texts(), let bitmap = reader.bitmap(), reader.isAtEnd
        else { return nil }
        return DecodedImage(bitmap: bitmap, warnings: warnings, notes: notes)
    }

    func save(tile: Bitmap, of decoded: DecodedImage, as key: CacheKey) {
        var writer = EntryWriter()
        writer.add(decoded.warnings)
        writer.add(decoded.notes)
        writer.add(tile)
        store.save(Kind.tile.rawValue, key, payload: writer.bytes)
    }

    /// A band of a sheet, filtered and deflated.
    func segment(_ key: CacheKey) -> PNGSegment? {
        guard let bytes = store.load(Kind.segment.rawValue, key) else { return nil }
        var reader = EntryReader(bytes)
        guard let adler = reader.integer(), let filtered = reader.integer(), let deflated = reader.run(),
            reader.isAtEnd, let adler32 = UInt32(exactly: adler), filtered >= 0
        else { return nil }
        return PNGSegment(deflated: deflated, adler: adler32, filteredSize: filtered)
    }

    func save(_ segment: PNGSegment, as key: CacheKey) {
        var writer = EntryWriter()
        writer.add(Int(segment.adler))
        writer.add(segment.filteredSize)
        writer.add(segment.deflated)
        store.save(Kind.segment.rawValue, key, payload: writer.bytes)
    }
}

/// An entry's payload as it is written: integers (64-bit little-endian), byte runs and texts
/// with their lengths.
private struct EntryWriter {
    var bytes: [UInt8] = []

    mutating func add(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes += $0 }
    }

    mutating func add(_ run: [UInt8]) {
        add(run.count)
        bytes += run
    }

    mutating func add(_ texts: [String]) {
        add(texts.count)
        for text in texts { add(Array(text.utf8)) }
    }

    mutating func add(_ bitmap: Bitmap) {
        add(bitmap.size.width)
        add(bitmap.size.height)
        add(bitmap.alpha == .none ? 0 : bitmap.alpha == .straight ? 1 : 2)
        add(bitmap.pixels)
    }
}

/// Reads what ``EntryWriter`` wrote; every read checks its bounds and gives `nil` past them.
private struct EntryReader {
    let data: [UInt8]
    var offset = 0

    init(_ data: [UInt8]) { self.data = data }

    var isAtEnd: Bool { offset == data.count }

    mutating func integer() -> Int? {
        guard data.count - offset >= 8 else { return nil }
        let value = data.withUnsafeBytes {
            Int64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Int64.self))
        }
        offset += 8
        return Int(value)
    }

    mutating func run() -> [UInt8]? {
        guard let count = integer(), count >= 0, data.count - offset >= count else { return nil }
        defer { offset += count }
        return Array(data[offset..<offset + count])
    }

    mutating func texts() -> [String]? {
        guard let count = integer(), count >= 0, count <= data.count else { return nil }
        var texts: [String] = []
        for _ in 0..<count {
            guard let run = run() else { return nil }
            texts.append(String(decoding: run, as: UTF8.self))
        }
        return texts
    }

    mutating func bitmap() -> Bitmap? {
        guard let width = integer(), let height = integer(), let mode = integer(), width >= 0, height >= 0,
            (0...2).contains(mode), let pixels = run()
        else { return nil }
        let alpha: AlphaMode = mode == 0 ? .none : mode == 1 ? .straight : .premultiplied
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        let count = area.multipliedReportingOverflow(by: alpha.channels)
        guard !overflow, !count.overflow, count.partialValue == pixels.count else { return nil }
        return Bitmap(size: Size(width: width, height: height), alpha: alpha, pixels: pixels)
    }
}
