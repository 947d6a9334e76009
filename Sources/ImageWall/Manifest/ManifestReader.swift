import Foundation
import WallCache
import WallCore
import WallJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads a manifest file a megabyte at a time. The tiles, nearly all of a big manifest, are
/// split off the text as it is read and decoded a few thousand at a time on every core, so
/// reading a million tiles needs about the memory of their values, not of the whole text and
/// a tree of it besides.
package enum ManifestReader {
    /// Which tiles of a manifest to keep, chosen from the rest of it (its pages, say): for each
    /// tile, its page and its cell.
    package typealias TileSelection = (Manifest) -> (_ page: Int, _ cell: Manifest.Box) -> Bool

    /// The manifest in the file at `path`, and the hash of the bytes it was read from (as
    /// ``CacheKey/ofFile(atPath:)`` gives it), from one reading of the file. With `selection`,
    /// only the tiles it keeps are read whole (in order, their `index` still their place in the
    /// wall): the first reading takes each tile's page and cell and where its text lies, and
    /// the kept tiles' texts are read again from there — a part of a million-tile wall holds a
    /// few hundred tiles, not a million. The tiles are decoded in batches on `threads` threads
    /// while the text is split.
    package static func read(_ path: String, threads: Int, keeping selection: TileSelection? = nil) throws -> (
        manifest: Manifest, identity: CacheKey
    ) {
        guard let file = fopen(path.systemPath, "rb") else {
            throw ManifestError(path, .unreadable, "cannot read: \(systemErrorText())")
        }
        defer { fclose(file) }
        guard let selection else {
            var splitter = ManifestSplitter<Manifest.Tile>(path: path, threads: threads)
            let identity = try splitter.read(file)
            var manifest = try splitter.finish()
            manifest.tiles = splitter.elements
            try manifest.validate(path: path)
            return (manifest, identity)
        }
        var splitter = ManifestSplitter<TileOutline>(path: path, threads: threads, recordsSpans: true)
        let identity = try splitter.read(file)
        var manifest = try splitter.finish()
        let keep = selection(manifest)
        let chosen = splitter.elements.indices.filter { keep(splitter.elements[$0].page, splitter.elements[$0].cell) }
        manifest.tiles = try tiles(chosen, spans: splitter.spans, of: file, path: path)
        try manifest.validate(path: path)
        return (manifest, identity)
    }

    /// Tiles `chosen` (in order), whose texts lie at `spans` of `file`: runs of tiles next to
    /// each other are read as one piece, a batch of them decoded at a time.
    private static func tiles(_ chosen: [Int], spans: [Range<Int>], of file: UnsafeMutablePointer<FILE>, path: String)
        throws -> [Manifest.Tile]
    {
        var tiles: [Manifest.Tile] = []
        tiles.reserveCapacity(chosen.count)
        var start = 0
        while start < chosen.count {
            let end = min(chosen.count, start + ManifestSplitter<Manifest.Tile>.batchSize)
            var text: [UInt8] = [UInt8(ascii: "[")]
            var run = start
            while run < end {
                var last = run
                while last + 1 < end, chosen[last + 1] == chosen[last] + 1 { last += 1 }
                let bytes = spans[chosen[run]].lowerBound..<spans[chosen[last]].upperBound
                if run > start { text.append(UInt8(ascii: ",")) }
                let at = text.count
                text.append(contentsOf: repeatElement(0, count: bytes.count))
                let read = text.withUnsafeMutableBytes {
                    pread(fileno(file), $0.baseAddress! + at, bytes.count, off_t(bytes.lowerBound))
                }
                guard read == bytes.count else {
                    throw ManifestError(
                        path, .unreadable, "cannot read: " + (read < 0 ? systemErrorText() : "the file changed"))
                }
                run = last + 1
            }
            text.append(UInt8(ascii: "]"))
            let first = start
            tiles += try ManifestSplitter<Manifest.Tile>.decode(text, path: path) { chosen[first + $0] }
            start = end
        }
        return tiles
    }
}

/// A batch of tiles' text decoded on a thread of its own.
private final class DecodingBatch<Element: ManifestElement>: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    /// Set once, before `finished` is signalled.
    private var result: Result<[Element], ManifestError>?

    /// Starts decoding `text`, a JSON array of tiles, the first of them tile `firstTile`.
    init(_ text: [UInt8], firstTile: Int, path: String) {
        DispatchQueue.global().async { [self] in
            result = Result { () throws(ManifestError) in
                try ManifestSplitter<Element>.decode(text, path: path) { firstTile + $0 }
            }
            finished.signal()
        }
    }

    /// The decoded tiles, once decoded.
    func tiles() throws -> [Element] {
        finished.wait()
        return try result!.get()
    }
}

/// What a manifest's tiles are decoded as: whole, or the part of them a selection needs.
private protocol ManifestElement: Decodable, Sendable {
    /// The elements of `text`, a JSON array of tiles (see ``scannedOrParsed(_:reader:reading:)``).
    static func elements(of text: [UInt8], reader: JSONReader) throws -> [Self]
}

/// The elements of `text`, a JSON array of tiles, each read by a `Reading`. The bulk of a
/// million-tile manifest is in the form a render writes, and read by a ``JSONScanner`` straight
/// from the text; a batch that strays from it is parsed by `reader` (simdjson), each tile then
/// read directly when it can be, else through `init(from:)`, which says what is wrong.
private func scannedOrParsed<Reading: MemberReading>(_ text: [UInt8], reader: JSONReader, reading: Reading.Type)
    throws -> [Reading.Value] where Reading.Value: Decodable
{
    if let scanned = text.withUnsafeBytes({ JSONScanner.read(Reading.self, inArray: $0) }) { return scanned }
    return try reader.decodeElements(Reading.Value.self, from: text) { $0.read(Reading.self) }
}

extension Manifest.Tile: ManifestElement {
    fileprivate static func elements(of text: [UInt8], reader: JSONReader) throws -> [Manifest.Tile] {
        try scannedOrParsed(text, reader: reader, reading: Reading.self)
    }
}

/// What a selection of tiles is made from: a tile's page and cell (a part of a million-tile
/// wall begins drawing sooner for reading only these).
private struct TileOutline: ManifestElement {
    var page: Int
    var cell: Manifest.Box

    static func elements(of text: [UInt8], reader: JSONReader) throws -> [TileOutline] {
        try scannedOrParsed(text, reader: reader, reading: Reading.self)
    }

    /// A tile's page and cell, each once, whole numbers (a cell as a render writes one); the
    /// tile's other members are passed over.
    struct Reading: MemberReading {
        private var page: Int?, cell: Manifest.Box?

        init() {}

        mutating func take<Member: JSONMemberValue>(_ key: UnsafeRawBufferPointer, _ value: Member) -> Bool {
            guard key.count == 4 else { return true }  // neither, as most are
            if key.holds("page") {
                guard page == nil, let number = value.integer else { return false }
                page = number
            } else if key.holds("cell") {
                guard cell == nil, let box = Manifest.Box(value) else { return false }
                cell = box
            }
            return true
        }

        func finish() -> TileOutline? {
            guard let page, let cell else { return nil }
            return TileOutline(page: page, cell: cell)
        }
    }
}

/// The text of a manifest split as it streams past (see ``JSONArraySplitter``): the tiles go in
/// batches to other threads while the text is read (see ``scannedOrParsed(_:reader:reading:)``),
/// everything else is decoded at the end. Each tile is decoded as an `Element`: a whole tile, or
/// the part of it needed.
private struct ManifestSplitter<Element: ManifestElement> {
    let path: String
    var text: JSONArraySplitter
    /// The tiles decoded so far.
    var elements: [Element] = []
    /// Batches being decoded on other threads while the text is split, oldest first.
    var decoding: [DecodingBatch<Element>] = []
    var batches = 0
    let threads: Int
    /// The manifest file's size in bytes.
    private var fileSize = 0

    static var batchSize: Int { 4096 }

    init(path: String, threads: Int, recordsSpans: Bool = false) {
        (self.path, self.threads) = (path, max(1, threads))
        text = JSONArraySplitter(key: "tiles", batchSize: Self.batchSize, recordsSpans: recordsSpans)
    }

    /// Where each tile's text lies in the file, when it records them.
    var spans: [Range<Int>] { text.spans }

    /// Feeds the whole of `file` through, a megabyte at a time; returns the hash of its bytes.
    mutating func read(_ file: UnsafeMutablePointer<FILE>) throws -> CacheKey {
        var status = stat()
        fileSize = fstat(fileno(file), &status) == 0 ? Int(status.st_size) : 0
        var hasher = KeyHasher()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count > 0 {
                try chunk.withUnsafeBufferPointer {
                    let piece = UnsafeBufferPointer(rebasing: $0[..<count])
                    hasher.add(UnsafeRawBufferPointer(piece))
                    do {
                        try text.feed(piece)
                    } catch let problem as JSONArraySplitter.Problem {
                        throw ManifestError(path, .notAManifest, "not an ImageWall manifest: " + Self.describe(problem))
                    }
                    try decode(text.takeBatches())
                }
            }
            if count < chunk.count {
                if ferror(file) != 0 { throw ManifestError(path, .unreadable, "cannot read: \(systemErrorText())") }
                break
            }
        }
        return hasher.finish()
    }

    /// Sends `texts` to be decoded on other threads while splitting goes on, and takes the
    /// oldest batches' tiles when a batch for each core and as many again are under way (all
    /// of them when `last`), so the text in flight stays a few batches long.
    private mutating func decode(_ texts: [[UInt8]], last: Bool = false) throws {
        if batches == 0, !last, let first = texts.first {
            // The tiles' array made once at about its size, from the first full batch's bytes
            // a tile (a million tiles' array grown by doubling is copied and its pages touched
            // twice over); never more than a tile per 100 bytes of the file, none that short.
            elements.reserveCapacity(fileSize / max(100, first.count / Self.batchSize) + Self.batchSize)
        }
        for batch in texts {
            decoding.append(DecodingBatch(batch, firstTile: batches * Self.batchSize, path: path))
            batches += 1
            try takeDecoded(last: false)
        }
        try takeDecoded(last: last)
    }

    private mutating func takeDecoded(last: Bool) throws {
        while let oldest = decoding.first, last || decoding.count > 2 * threads {
            decoding.removeFirst()
            elements += try oldest.tiles()
        }
    }

    /// What is wrong with the tiles' list, in a few words.
    static func describe(_ problem: JSONArraySplitter.Problem) -> String {
        switch problem {
        case .twoArrays: return "two tile lists"
        case .emptyElement: return "an empty tile in the list"
        case .trailingComma: return "a comma after the last tile"
        case .missingComma: return "tiles without a comma between them"
        case .unbalanced: return "its JSON is cut short or unbalanced"
        }
    }

    /// The manifest without its tiles (``elements`` holds them, decoded).
    mutating func finish() throws -> Manifest {
        do {
            try decode(try text.finish(), last: true)
        } catch let problem as JSONArraySplitter.Problem {
            throw ManifestError(path, .notAManifest, "not an ImageWall manifest: " + Self.describe(problem))
        }
        var manifest: Manifest
        do {
            manifest = try JSONReader().decode(Manifest.self, from: text.rest)
        } catch let error as DecodingError {
            throw ManifestError(path, .notAManifest, "not an ImageWall manifest: " + Self.describe(error, tile: nil))
        }
        return manifest
    }

    /// The tiles of `text`, a JSON array of them whose n-th is tile `tile(n)` of the wall.
    static func decode(_ text: [UInt8], path: String, tile: @escaping (Int) -> Int) throws(ManifestError) -> [Element] {
        do {
            return try Element.elements(of: text, reader: JSONReader())
        } catch let error as DecodingError {
            throw ManifestError(path, .notAManifest, "not an ImageWall manifest: " + describe(error, tile: tile))
        } catch {
            throw ManifestError(path, .notAManifest, "not an ImageWall manifest: \(error)")
        }
    }

    /// A decoding error in a few words: what is wrong and where (`tiles[12].cell`). With
    /// `tile`, the error is in a list of tiles, and `tile` gives the wall index of its n-th.
    static func describe(_ error: DecodingError, tile: ((Int) -> Int)?) -> String {
        func place(_ path: [any CodingKey]) -> String {
            var keys = path
            var text = ""
            if let tile, let first = keys.first, let index = first.intValue {
                text = "tiles[\(tile(index))]"
                keys.removeFirst()
            }
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\"\(key.stringValue)\" missing in \(place(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(place(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            let reason = underlying ?? context.debugDescription
            return context.codingPath.isEmpty ? reason : "\(place(context.codingPath)): \(reason)"
        @unknown default:
            return String(describing: error)
        }
    }
}
