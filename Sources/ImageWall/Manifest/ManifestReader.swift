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
        guard let file = fopen(path, "rb") else { throw ManifestError(path, "cannot read: \(systemErrorText())") }
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
                    throw ManifestError(path, "cannot read: " + (read < 0 ? systemErrorText() : "the file changed"))
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
private final class DecodingBatch<Element: Decodable & Sendable>: @unchecked Sendable {
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

/// The key of a manifest's tiles.
private let tilesKey = Array("tiles".utf8)

/// What a selection of tiles is made from: a tile's page and cell.
private struct TileOutline: Decodable, Sendable {
    var page: Int
    var cell: Manifest.Box
}

/// The text of a manifest split as it streams past: the tiles' array elements go to a
/// ``JSONReader`` (simdjson) in batches, everything else (with the tiles' array left empty) is kept to be
/// decoded at the end. Only the JSON text's strings and brackets are followed here; parsing is
/// the decoder's. Each tile is decoded as an `Element`: a whole tile, or the part of it needed.
private struct ManifestSplitter<Element: Decodable & Sendable> {
    let path: String
    /// The text without the tiles' elements.
    var rest: [UInt8] = []
    /// Tile elements waiting to be decoded, as a JSON array without its closing bracket.
    var batch: [UInt8] = [UInt8(ascii: "[")]
    var batched = 0
    /// The tiles decoded so far.
    var elements: [Element] = []
    /// Where each tile's text lies in the file, when `recordsSpans`.
    var spans: [Range<Int>] = []
    let recordsSpans: Bool
    /// How many bytes of the file were fed before the present piece.
    var fed = 0
    /// Where the element being read began in the file.
    var elementStart = 0
    /// Batches being decoded on other threads while the text is split, oldest first.
    var decoding: [DecodingBatch<Element>] = []
    var batches = 0
    let threads: Int

    var depth = 0
    var inString = false
    var escaped = false
    /// The last string closed at the top level, while it is short enough to be "tiles".
    var lastString: [UInt8]? = nil
    var keyIsTiles = false
    var inTiles = false
    var sawTiles = false
    /// An element of the tiles' array has begun and not ended.
    var inElement = false
    /// A comma was passed and the next element has not begun.
    var expectingElement = false
    var elementsInList = 0
    /// The element's brackets have closed: only a comma or the list's end may follow.
    var elementClosed = false

    static var batchSize: Int { 4096 }
    static var quote: UInt8 { UInt8(ascii: "\"") }
    static var backslash: UInt8 { UInt8(ascii: "\\") }

    init(path: String, threads: Int, recordsSpans: Bool = false) {
        (self.path, self.threads, self.recordsSpans) = (path, max(1, threads), recordsSpans)
    }

    /// Feeds the whole of `file` through, a megabyte at a time; returns the hash of its bytes.
    mutating func read(_ file: UnsafeMutablePointer<FILE>) throws -> CacheKey {
        var hasher = KeyHasher()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count > 0 {
                try chunk.withUnsafeBufferPointer {
                    let piece = UnsafeBufferPointer(rebasing: $0[..<count])
                    hasher.add(UnsafeRawBufferPointer(piece))
                    try feed(piece)
                }
            }
            if count < chunk.count {
                if ferror(file) != 0 { throw ManifestError(path, "cannot read: \(systemErrorText())") }
                break
            }
        }
        return hasher.finish()
    }

    private enum Target { case rest, batch, none }

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        var runStart = 0
        var runTarget: Target = inTiles && depth >= 2 ? (inElement ? .batch : .none) : .rest
        /// Moves the bytes from `runStart` up to `end` to where they go.
        func flush(upTo end: Int) {
            if end > runStart {
                switch runTarget {
                case .rest: rest.append(contentsOf: bytes[runStart..<end])
                case .batch: batch.append(contentsOf: bytes[runStart..<end])
                case .none: break
                }
            }
            runStart = end
        }
        func route(_ index: Int, to target: Target) {
            if target != runTarget {
                flush(upTo: index)
                runTarget = target
            }
        }
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == Self.backslash {
                    escaped = true
                    if depth == 1 { lastString = nil }
                } else if byte == Self.quote {
                    inString = false
                } else if depth == 1, lastString != nil {
                    lastString!.append(byte)
                    if lastString!.count > tilesKey.count { lastString = nil }
                }
                continue
            }
            guard inTiles else {
                // Outside the tiles' elements.
                switch byte {
                case Self.quote:
                    inString = true
                    if depth == 1 { lastString = [] }
                case UInt8(ascii: ":"):
                    if depth == 1 { keyIsTiles = lastString == tilesKey }
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    if depth == 1, keyIsTiles, byte == UInt8(ascii: "[") {
                        guard !sawTiles else { throw ManifestError(path, "not an ImageWall manifest: two tile lists") }
                        (inTiles, sawTiles, expectingElement) = (true, true, false)
                        route(index + 1, to: .none)
                    }
                    depth += 1
                    keyIsTiles = false
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    keyIsTiles = false
                case UInt8(ascii: ","):
                    keyIsTiles = false
                default: break
                }
                continue
            }
            // In the tiles' array: an element's own brackets, or the separators between elements.
            if depth > 2 {
                switch byte {
                case Self.quote: inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    elementClosed = depth == 2
                default: break
                }
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                guard inElement else {
                    throw ManifestError(path, "not an ImageWall manifest: an empty tile in the list")
                }
                route(index, to: .none)
                try endElement(at: fed + index)
                expectingElement = true
            case UInt8(ascii: "]"):
                guard inElement || !expectingElement else {
                    throw ManifestError(path, "not an ImageWall manifest: a comma after the last tile")
                }
                route(index, to: .rest)
                try endElement(at: fed + index)
                (inTiles, depth) = (false, 1)
            case 0x20, 0x09, 0x0A, 0x0D:
                break  // goes with the element when inside one, else nowhere
            default:
                if !inElement || elementClosed {
                    guard !elementClosed, elementsInList == 0 || expectingElement else {
                        throw ManifestError(path, "not an ImageWall manifest: tiles without a comma between them")
                    }
                    route(index, to: .batch)
                    if batched > 0 { batch.append(UInt8(ascii: ",")) }
                    (inElement, expectingElement) = (true, false)
                    elementStart = fed + index
                }
                switch byte {
                case Self.quote: inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                default: break
                }
            }
        }
        flush(upTo: bytes.count)
        fed += bytes.count
    }

    /// Counts the element just ended before `end` in the file, and decodes the batch when it
    /// is full.
    private mutating func endElement(at end: Int) throws {
        guard inElement else { return }
        (inElement, elementClosed) = (false, false)
        if recordsSpans { spans.append(elementStart..<end) }
        elementsInList += 1
        batched += 1
        if batched >= Self.batchSize { try decodeBatch() }
    }

    /// Sends the batch to be decoded on another thread while splitting goes on, and takes the
    /// oldest batches' tiles when a batch for each core and as many again are under way (all
    /// of them when `last`), so the text in flight stays a few batches long.
    private mutating func decodeBatch(last: Bool = false) throws {
        if batched > 0 {
            batch.append(UInt8(ascii: "]"))
            decoding.append(DecodingBatch(batch, firstTile: batches * Self.batchSize, path: path))
            batches += 1
            batch.removeAll(keepingCapacity: true)
            batch.append(UInt8(ascii: "["))
            batched = 0
        }
        while let oldest = decoding.first, last || decoding.count > 2 * threads {
            decoding.removeFirst()
            elements += try oldest.tiles()
        }
    }

    /// The manifest without its tiles (``elements`` holds them, decoded).
    mutating func finish() throws -> Manifest {
        guard !inString, depth == 0, !inTiles else {
            throw ManifestError(path, "not an ImageWall manifest: its JSON is cut short or unbalanced")
        }
        try decodeBatch(last: true)
        var manifest: Manifest
        do {
            manifest = try JSONReader().decode(Manifest.self, from: rest)
        } catch let error as DecodingError {
            throw ManifestError(path, "not an ImageWall manifest: " + Self.describe(error, tile: nil))
        }
        return manifest
    }

    /// The tiles of `text`, a JSON array of them whose n-th is tile `tile(n)` of the wall.
    static func decode(_ text: [UInt8], path: String, tile: @escaping (Int) -> Int) throws(ManifestError) -> [Element] {
        do {
            return try JSONReader().decode([Element].self, from: text)
        } catch let error as DecodingError {
            throw ManifestError(path, "not an ImageWall manifest: " + describe(error, tile: tile))
        } catch {
            throw ManifestError(path, "not an ImageWall manifest: \(error)")
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
