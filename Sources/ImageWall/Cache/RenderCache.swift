import WallCache
import WallCodecs
import WallCore

/// The cache as a render uses it: decoded images, finished tiles and compressed bands, each
/// found by a key built from the source's content and every setting that shapes the result.
/// Anything unreadable reads as missing; nothing read from it differs from what would be made.
struct RenderCache: Sendable {
    let store: CacheStore
    /// Whether decodes are saved (see ``CacheSettings/keepsDecodes``).
    let keepsDecodes: Bool

    /// Bumped whenever what an entry holds, or how a key is built, changes.
    static let format = 4

    init(_ settings: CacheSettings) {
        store = settings.store
        keepsDecodes = settings.keepsDecodes
    }

    enum Kind: String {
        case decoded, tile, segment, look
    }

    /// The key of what `--stack` reads of a source (`what`: its fingerprint or its sharpness) as
    /// `decoder` reads it: its `content` and how it is looked at.
    static func lookKey(_ what: String, content: CacheKey, decoder: ImageDecoder) -> CacheKey {
        var hasher = KeyHasher()
        hasher.add("look \(what) \(format) \(ImageWallRelease.version) \(CodecLibraries.versions)")
        hasher.add(content)
        hasher.add("sRGB \(decoder.convertsToSRGB) dc \(decoder.stopsProgressiveAtDC) fast \(decoder.fast)")
        return hasher.finish()
    }

    /// A source's fingerprint (``PictureFingerprint``), or `nil` (none kept, or one that could
    /// not be made: kept as such).
    func fingerprint(_ key: CacheKey) -> PictureFingerprint?? {
        guard let parts = store.load(Kind.look.rawValue, key), parts.count == 1 else { return nil }
        let bytes = parts[0]
        if bytes.isEmpty { return .some(nil) }
        guard bytes.count == 8 + 48 else { return nil }
        let hash = bytes[0..<8].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        return PictureFingerprint(hash: hash, colors: Array(bytes[8...]))
    }

    func save(_ fingerprint: PictureFingerprint?, as key: CacheKey) {
        let bytes = fingerprint.map { print in
            (0..<8).map { UInt8(truncatingIfNeeded: print.hash >> (8 * $0)) } + print.colors
        }
        store.save(Kind.look.rawValue, key, parts: [bytes ?? []])
    }

    /// A source's sharpness, when kept.
    func sharpness(_ key: CacheKey) -> Int? {
        guard let parts = store.load(Kind.look.rawValue, key), parts.count == 1 else { return nil }
        var reader = EntryReader(parts[0])
        guard let value = reader.integer(), reader.isAtEnd else { return nil }
        return value
    }

    func save(sharpness: Int, as key: CacheKey) {
        var writer = EntryWriter()
        writer.add(sharpness)
        store.save(Kind.look.rawValue, key, parts: [writer.bytes])
    }

    /// Records a source drawn with the cache: the cache keeps no more than the bytes of its
    /// sources (see ``WallCache/CacheStore/serve(_:bytes:)``).
    func serve(_ content: CacheKey, bytes: Int) {
        store.serve(content, bytes: bytes)
    }

    /// A decode of a source, with its decoder's warnings and notes.
    func decoded(_ key: CacheKey) -> DecodedImage? {
        image(store.load(Kind.decoded.rawValue, key))
    }

    /// Keeps `decoded` when decodes are kept, its pixels as they are: packing them would cost
    /// about what decoding a JPEG shrunk on load costs.
    func save(_ decoded: DecodedImage, as key: CacheKey) {
        guard keepsDecodes else { return }
        store.save(
            Kind.decoded.rawValue, key, parts: parts(decoded.bitmap, warnings: decoded.warnings, notes: decoded.notes),
            compressing: false)
    }

    /// A finished tile (before its cell), with its source's decoder warnings and notes (its
    /// pixels in a `DecodedImage`, though resampled).
    func tile(_ key: CacheKey) -> DecodedImage? {
        image(store.load(Kind.tile.rawValue, key))
    }

    /// Its pixels are written as they are, as a decode's are.
    func save(tile: Bitmap, of decoded: DecodedImage, as key: CacheKey) {
        store.save(
            Kind.tile.rawValue, key, parts: parts(tile, warnings: decoded.warnings, notes: decoded.notes),
            compressing: false)
    }

    /// A band of a sheet, filtered and deflated.
    func segment(_ key: CacheKey) -> PNGSegment? {
        guard let parts = store.load(Kind.segment.rawValue, key), parts.count == 2 else { return nil }
        var reader = EntryReader(parts[0])
        guard let adler = reader.integer(), let filtered = reader.integer(), reader.isAtEnd,
            let adler32 = UInt32(exactly: adler), filtered >= 0
        else { return nil }
        return PNGSegment(deflated: parts[1], adler: adler32, filteredSize: filtered)
    }

    func save(_ segment: PNGSegment, as key: CacheKey) {
        var writer = EntryWriter()
        writer.add(Int(segment.adler))
        writer.add(segment.filteredSize)
        // Deflated already: zstd would not make it smaller.
        store.save(Kind.segment.rawValue, key, parts: [writer.bytes, segment.deflated], compressing: false)
    }

    /// An image's entry: its warnings, notes, size and alpha, then its pixels as a part of
    /// their own, as they are (written from the bitmap's own array and read into the new
    /// bitmap's).
    private func parts(_ bitmap: Bitmap, warnings: [String], notes: [String]) -> [[UInt8]] {
        var writer = EntryWriter()
        writer.add(warnings)
        writer.add(notes)
        writer.add(bitmap.size.width)
        writer.add(bitmap.size.height)
        writer.add(bitmap.alpha == .none ? 0 : bitmap.alpha == .straight ? 1 : 2)
        return [writer.bytes, bitmap.pixels]
    }

    /// The image of an entry ``parts(_:warnings:notes:)`` made, or `nil` when it does not add up.
    private func image(_ parts: [[UInt8]]?) -> DecodedImage? {
        guard let parts, parts.count == 2 else { return nil }
        var reader = EntryReader(parts[0])
        guard let warnings = reader.texts(), let notes = reader.texts(), let width = reader.integer(),
            let height = reader.integer(), let mode = reader.integer(), reader.isAtEnd, width >= 0, height >= 0,
            (0...2).contains(mode)
        else { return nil }
        let alpha: AlphaMode = mode == 0 ? .none : mode == 1 ? .straight : .premultiplied
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        let count = area.multipliedReportingOverflow(by: alpha.channels)
        guard !overflow, !count.overflow, count.partialValue == parts[1].count else { return nil }
        let bitmap = Bitmap(size: Size(width: width, height: height), alpha: alpha, pixels: parts[1])
        return DecodedImage(bitmap: bitmap, warnings: warnings, notes: notes)
    }
}

/// The small part of an entry as it is written: integers (64-bit little-endian) and texts with
/// their lengths.
private struct EntryWriter {
    var bytes: [UInt8] = []

    mutating func add(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes += $0 }
    }

    mutating func add(_ texts: [String]) {
        add(texts.count)
        for text in texts {
            add(text.utf8.count)
            bytes += text.utf8
        }
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
}
