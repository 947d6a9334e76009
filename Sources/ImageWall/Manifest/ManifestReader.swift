import Foundation
import WallCache
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A manifest that cannot be read, and why.
public struct ManifestError: WallError, Equatable {
    /// The manifest file.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    init(_ path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var message: String { "\(path): \(reason)" }
}

/// Reads a manifest file a megabyte at a time. The tiles, nearly all of a big manifest, are
/// split off the text as it is read and decoded a few thousand at a time on every core, so
/// reading a million tiles needs about the memory of their values, not of the whole text and
/// Foundation's tree of it besides.
package enum ManifestReader {
    /// The manifest in the file at `path`, and the hash of the bytes it was read from (as
    /// ``CacheKey/ofFile(atPath:)`` gives it), from one reading of the file.
    package static func read(_ path: String) throws -> (manifest: Manifest, identity: CacheKey) {
        guard let file = fopen(path, "rb") else { throw ManifestError(path, "cannot read: \(systemErrorText())") }
        defer { fclose(file) }
        var splitter = ManifestSplitter(path: path)
        var hasher = KeyHasher()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count > 0 {
                try chunk.withUnsafeBufferPointer {
                    let piece = UnsafeBufferPointer(rebasing: $0[..<count])
                    hasher.add(UnsafeRawBufferPointer(piece))
                    try splitter.feed(piece)
                }
            }
            if count < chunk.count {
                if ferror(file) != 0 { throw ManifestError(path, "cannot read: \(systemErrorText())") }
                break
            }
        }
        return (try splitter.finish(), hasher.finish())
    }
}

/// The text of a manifest split as it streams past: the tiles' array elements go to
/// `JSONDecoder` in batches, everything else (with the tiles' array left empty) is kept to be
/// decoded at the end. Only the JSON text's strings and brackets are followed here; parsing is
/// the decoder's.
private struct ManifestSplitter {
    let path: String
    /// The text without the tiles' elements.
    var rest: [UInt8] = []
    /// Tile elements waiting to be decoded, as a JSON array without its closing bracket.
    var batch: [UInt8] = [UInt8(ascii: "[")]
    var batched = 0
    var tiles: [Manifest.Tile] = []
    /// Full batches waiting to be decoded together, each with the index of its first tile.
    var queued: [(text: Data, firstTile: Int)] = []
    let threads = max(1, ProcessInfo.processInfo.activeProcessorCount)

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

    static let batchSize = 4096
    static let tilesKey = Array("tiles".utf8)
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

    init(path: String) { self.path = path }

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
                    if lastString!.count > Self.tilesKey.count { lastString = nil }
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
                    if depth == 1 { keyIsTiles = lastString == Self.tilesKey }
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
                try endElement()
                expectingElement = true
            case UInt8(ascii: "]"):
                guard inElement || !expectingElement else {
                    throw ManifestError(path, "not an ImageWall manifest: a comma after the last tile")
                }
                route(index, to: .rest)
                try endElement()
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
                }
                switch byte {
                case Self.quote: inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                default: break
                }
            }
        }
        flush(upTo: bytes.count)
    }

    /// Counts the element just ended, and decodes the batch when it is full.
    private mutating func endElement() throws {
        guard inElement else { return }
        (inElement, elementClosed) = (false, false)
        elementsInList += 1
        batched += 1
        if batched >= Self.batchSize { try decodeBatch() }
    }

    /// Puts the batch in the queue, and decodes the queue when it has a batch for each core
    /// and as many again.
    private mutating func decodeBatch(last: Bool = false) throws {
        if batched > 0 {
            batch.append(UInt8(ascii: "]"))
            queued.append((Data(batch), firstTile: tiles.count + queued.count * Self.batchSize))
            batch.removeAll(keepingCapacity: true)
            batch.append(UInt8(ascii: "["))
            batched = 0
        }
        guard !queued.isEmpty, last || queued.count >= 2 * threads else { return }
        let (batches, path) = (queued, path)
        queued.removeAll()
        let decoded = try parallelMap(batches.count, threads: threads) { n in
            do {
                return try JSONDecoder().decode([Manifest.Tile].self, from: batches[n].text)
            } catch let error as DecodingError {
                throw ManifestError(
                    path,
                    "not an ImageWall manifest: " + ManifestSplitter.describe(error, firstTile: batches[n].firstTile))
            }
        }
        for part in decoded { tiles += part }
    }

    mutating func finish() throws -> Manifest {
        guard !inString, depth == 0, !inTiles else {
            throw ManifestError(path, "not an ImageWall manifest: its JSON is cut short or unbalanced")
        }
        try decodeBatch(last: true)
        var manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: Data(rest))
        } catch let error as DecodingError {
            throw ManifestError(path, "not an ImageWall manifest: " + ManifestSplitter.describe(error, firstTile: nil))
        }
        manifest.tiles = tiles
        return manifest
    }

    /// A decoding error in a few words: what is wrong and where (`tiles[12].cell`).
    static func describe(_ error: DecodingError, firstTile: Int?) -> String {
        func place(_ path: [any CodingKey]) -> String {
            var keys = path
            var text = ""
            if let firstTile, let first = keys.first, let index = first.intValue {
                text = "tiles[\(firstTile + index)]"
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
