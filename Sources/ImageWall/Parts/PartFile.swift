import Foundation
import WallCache
import WallCodecs
import WallCompositor
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A part file: a sheet's compressed rows for one ``SheetPart``, and what they belong to.
///
/// Layout: the 8 bytes `IWPART1\n`; a header (its length, 4 bytes big-endian; ``PartHeader`` as
/// JSON; an XXH3 checksum of the JSON, 8 bytes); one record per segment (`S`, the page, the
/// segment's Adler-32, filtered size and deflated length, the deflated bytes, a checksum of the
/// record); for a Deep Zoom part, one record per top-level tile it made (`T`, the page, column,
/// row, length, the tile file's bytes, a checksum); and an end record (`E`, the number of records,
/// a checksum). Every number is big-endian, as in a PNG.
enum PartFile {
    static let magic = Array("IWPART1\n".utf8)
    /// A header larger than this is not one ImageWall wrote (it lists only page sizes).
    static let headerLimit = 16 << 20

    /// The most filtered bytes a segment of `page` can hold (one band), and the most deflated
    /// bytes those can take (deflate's stored blocks add 5 bytes in 65,535, plus the flush):
    /// a damaged length never asks for more memory than a band.
    static func limits(_ page: PartHeader.Page) -> (filtered: UInt64, deflated: UInt64) {
        let filtered = UInt64(SheetRenderer.defaultBandHeight) * UInt64(page.width * (page.alpha ? 4 : 3) + 1)
        return (filtered, filtered + filtered / 8192 + 1024)
    }
}

/// What a part file says about itself: the manifest and part it was rendered from, the whole
/// sheet's pages, and the rows it holds.
public struct PartHeader: Codable, Sendable, Equatable {
    /// One page of the sheet.
    public struct Page: Codable, Sendable, Equatable {
        /// The page's size in pixels.
        public var width, height: Int
        /// `true` for RGBA (a transparent background), `false` for RGB.
        public var alpha: Bool
    }

    /// XXH3-128 of the manifest file's bytes, in hexadecimal.
    public var manifest: String
    /// The part's number, from 1.
    public var part: Int
    /// How many parts the sheet was split into.
    public var parts: Int
    /// The PNG's Software text (the ImageWall that rendered it).
    public var software: String
    /// XXH3-128 of the settings that shape the pixels (those recorded in the manifest or, for a
    /// layout's manifest, given to each worker), in hexadecimal: parts must agree.
    public var settings: String
    /// The compression the segments were made with.
    public var compression: PNGCompression
    /// Every page of the sheet.
    public var pages: [Page]
    /// For a part rendered for a Deep Zoom pyramid: the format of the top-level tiles it holds
    /// (the tile rows its rows hold whole); `nil` for a part of a PNG.
    public var deepZoom: DeepZoomTileFormat?
    /// The rows this part holds, in order.
    public var rows: [PageRows]
}

/// Writes a part file: the header, then each page's segments as the encoder hands them on.
final class PartWriter: @unchecked Sendable {
    private let file: AtomicFile
    private var segments = 0
    /// Each record's checksum chained onto the header's, for the end record.
    private var chain: UInt64 = 0

    init(file: AtomicFile, header: PartHeader) throws(CodecError) {
        self.file = file
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let json = try? Array(encoder.encode(header)) else {
            throw CodecError(.write, path: file.destination, reason: "the part's header could not be encoded")
        }
        chain = PartChecksum.of(json)
        try write(PartFile.magic + BigEndian.bytes(UInt32(json.count)) + json + BigEndian.bytes(chain))
    }

    /// A sink for page `page`'s segments.
    func sink(page: Int) -> any SegmentSink { PageSink(writer: self, page: page) }

    private final class PageSink: SegmentSink, @unchecked Sendable {
        let writer: PartWriter
        let page: Int
        init(writer: PartWriter, page: Int) {
            self.writer = writer
            self.page = page
        }
        func append(_ segment: PNGSegment) throws(CodecError) { try writer.append(segment, page: page) }
    }

    private func append(_ segment: PNGSegment, page: Int) throws(CodecError) {
        let fields =
            BigEndian.bytes(UInt32(page)) + BigEndian.bytes(segment.adler)
            + BigEndian.bytes(UInt64(segment.filteredSize)) + BigEndian.bytes(UInt64(segment.deflated.count))
        let checksum = PartChecksum.of(fields, segment.deflated)
        try write([UInt8(ascii: "S")] + fields)
        try write(segment.deflated)
        try write(BigEndian.bytes(checksum))
        segments += 1
        chain = PartChecksum.chain(chain, checksum)
    }

    /// Adds top-level Deep Zoom tile (`column`, `row`) of page `page`: its file's bytes.
    func append(tile bytes: [UInt8], page: Int, column: Int, row: Int) throws(CodecError) {
        let fields =
            BigEndian.bytes(UInt32(page)) + BigEndian.bytes(UInt32(column)) + BigEndian.bytes(UInt32(row))
            + BigEndian.bytes(UInt64(bytes.count))
        let checksum = PartChecksum.of(fields, bytes)
        try write([UInt8(ascii: "T")] + fields)
        try write(bytes)
        try write(BigEndian.bytes(checksum))
        segments += 1
        chain = PartChecksum.chain(chain, checksum)
    }

    /// Ends the part with its end record.
    func finish() throws(CodecError) {
        try write([UInt8(ascii: "E")] + BigEndian.bytes(UInt64(segments)) + BigEndian.bytes(chain))
    }

    private func write(_ bytes: [UInt8]) throws(CodecError) {
        guard !bytes.isEmpty else { return }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file.handle) }
        guard written == bytes.count else {
            throw CodecError(.write, path: file.destination, reason: systemErrorText())
        }
    }
}

/// Reads a part file record by record, checking each; any flaw is a ``PartError`` naming the file.
final class PartReader {
    let path: String
    let header: PartHeader
    private let handle: UnsafeMutablePointer<FILE>
    private var segments = 0
    /// Each record's checksum chained onto the header's, for the end record.
    private var chain: UInt64 = 0
    private(set) var ended = false

    /// Opens `path` and reads its header.
    init(path: String) throws(PartError) {
        self.path = path
        guard let handle = fopen(path, "rb") else { throw PartError(path, systemErrorText()) }
        self.handle = handle
        do throws(PartError) {
            let magic = try PartReader.read(handle, PartFile.magic.count, path)
            guard magic == PartFile.magic else { throw PartError(path, "not an ImageWall part file") }
            let length = Int(try PartReader.number(handle, 4, path))
            guard length <= PartFile.headerLimit else { throw PartError(path, "not an ImageWall part file") }
            let json = try PartReader.read(handle, length, path)
            chain = PartChecksum.of(json)
            guard try PartReader.number(handle, 8, path) == chain else {
                throw PartError(path, "damaged: its header's checksum does not match")
            }
            guard let header = try? JSONDecoder().decode(PartHeader.self, from: Data(json)) else {
                throw PartError(path, "its header is not one ImageWall writes")
            }
            self.header = header
        } catch {
            fclose(handle)
            throw error
        }
    }

    deinit { fclose(handle) }

    /// A record of a part file.
    enum Record {
        /// Compressed rows of page `page`.
        case segment(page: Int, PNGSegment)
        /// A top-level Deep Zoom tile's file.
        case tile(page: Int, column: Int, row: Int, bytes: [UInt8])
    }

    /// The next record, or `nil` after the end record.
    func next() throws(PartError) -> Record? {
        guard !ended else { return nil }
        let tag = try PartReader.read(handle, 1, path)[0]
        switch tag {
        case UInt8(ascii: "S"):
            let fields = try PartReader.read(handle, 24, path)
            let page = Int(BigEndian.number(fields[0..<4]))
            let adler = UInt32(BigEndian.number(fields[4..<8]))
            let filtered = BigEndian.number(fields[8..<16]), length = BigEndian.number(fields[16..<24])
            guard header.pages.indices.contains(page) else {
                throw PartError(path, "damaged: segment \(segments + 1) names page \(page + 1), which the sheet lacks")
            }
            let limits = PartFile.limits(header.pages[page])
            guard length <= limits.deflated, filtered <= limits.filtered else {
                throw PartError(path, "damaged: segment \(segments + 1) claims more bytes than a band can hold")
            }
            let deflated = try PartReader.read(handle, Int(length), path)
            let checksum = try PartReader.number(handle, 8, path)
            guard checksum == PartChecksum.of(fields, deflated) else {
                throw PartError(path, "damaged: segment \(segments + 1)'s checksum does not match")
            }
            segments += 1
            chain = PartChecksum.chain(chain, checksum)
            return .segment(page: page, PNGSegment(deflated: deflated, adler: adler, filteredSize: Int(filtered)))
        case UInt8(ascii: "T"):
            let fields = try PartReader.read(handle, 20, path)
            let page = Int(BigEndian.number(fields[0..<4])), column = Int(BigEndian.number(fields[4..<8]))
            let row = Int(BigEndian.number(fields[8..<12])), length = BigEndian.number(fields[12..<20])
            guard header.deepZoom != nil, header.pages.indices.contains(page) else {
                throw PartError(path, "damaged: a Deep Zoom tile in a part that holds none")
            }
            // A tile of 256 × 256 pixels of 4 bytes, compressed, cannot pass this.
            guard length <= 1 << 20 else {
                throw PartError(path, "damaged: tile \(column)_\(row) claims \(length) bytes")
            }
            let bytes = try PartReader.read(handle, Int(length), path)
            guard try PartReader.number(handle, 8, path) == PartChecksum.of(fields, bytes) else {
                throw PartError(path, "damaged: tile \(column)_\(row)'s checksum does not match")
            }
            segments += 1
            chain = PartChecksum.chain(chain, PartChecksum.of(fields, bytes))
            return .tile(page: page, column: column, row: row, bytes: bytes)
        case UInt8(ascii: "E"):
            let count = try PartReader.number(handle, 8, path)
            let checksum = try PartReader.number(handle, 8, path)
            guard count == UInt64(segments), checksum == chain else {
                throw PartError(path, "damaged: its end record does not match its \(segments) segments")
            }
            guard fgetc(handle) == EOF else { throw PartError(path, "damaged: bytes follow its end record") }
            ended = true
            return nil
        default:
            throw PartError(path, "damaged: unexpected data after segment \(segments)")
        }
    }

    private static func read(_ handle: UnsafeMutablePointer<FILE>, _ count: Int, _ path: String) throws(PartError)
        -> [UInt8]
    {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, handle) }
        guard got == count else {
            if ferror(handle) != 0 { throw PartError(path, systemErrorText()) }
            throw PartError(path, "truncated: the file ends inside the part (a render still writing it, or cut short)")
        }
        return bytes
    }

    private static func number(_ handle: UnsafeMutablePointer<FILE>, _ count: Int, _ path: String) throws(PartError)
        -> UInt64
    {
        BigEndian.number(try read(handle, count, path)[...])
    }
}

/// A part file that cannot be used, and why.
public struct PartError: WallError, Equatable {
    /// The part file.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    init(_ path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `PATH: REASON`, as the command prints it.
    public var message: String { "\(path): \(reason)" }
}

/// The checksum of a part file's header and records: the low half of XXH3-128.
enum PartChecksum {
    static func of(_ parts: [UInt8]...) -> UInt64 {
        var hasher = KeyHasher()
        for part in parts { part.withUnsafeBytes { hasher.add($0) } }
        return hasher.finish().low
    }

    /// `checksum` chained onto the checksums before it.
    static func chain(_ before: UInt64, _ checksum: UInt64) -> UInt64 {
        of(BigEndian.bytes(before), BigEndian.bytes(checksum))
    }
}

/// Big-endian numbers, as PNGs and part files store them.
enum BigEndian {
    static func bytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<T.bitWidth / 8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    static func number(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
