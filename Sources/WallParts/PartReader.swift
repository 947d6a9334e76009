import Foundation
import ImageWall
import WallCache
import WallCodecs
import WallCompositor
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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
        guard let handle = fopen(path.systemPath, "rb") else { throw PartError(path, .unreadable, systemErrorText()) }
        self.handle = handle
        do throws(PartError) {
            let magic = try PartReader.read(handle, PartFile.magic.count, path)
            guard magic == PartFile.magic else { throw PartError(path, .notAPart, "not an ImageWall part file") }
            let length = Int(try PartReader.number(handle, 4, path))
            guard length <= PartFile.headerLimit else { throw PartError(path, .notAPart, "not an ImageWall part file") }
            let json = try PartReader.read(handle, length, path)
            chain = PartChecksum.of(json)
            guard try PartReader.number(handle, 8, path) == chain else {
                throw PartError(path, .damaged, "damaged: its header's checksum does not match")
            }
            guard let header = try? JSONDecoder().decode(PartHeader.self, from: Data(json)) else {
                throw PartError(path, .notAPart, "its header is not one ImageWall writes")
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
                throw PartError(
                    path, .damaged, "damaged: segment \(segments + 1) names page \(page + 1), which the sheet lacks")
            }
            let limits = PartFile.limits(header.pages[page])
            guard length <= limits.deflated, filtered <= limits.filtered else {
                throw PartError(
                    path, .damaged, "damaged: segment \(segments + 1) claims more bytes than a band can hold")
            }
            let deflated = try PartReader.read(handle, Int(length), path)
            let checksum = try PartReader.number(handle, 8, path)
            guard checksum == PartChecksum.of(fields, deflated) else {
                throw PartError(path, .damaged, "damaged: segment \(segments + 1)'s checksum does not match")
            }
            segments += 1
            chain = PartChecksum.chain(chain, checksum)
            return .segment(page: page, PNGSegment(deflated: deflated, adler: adler, filteredSize: Int(filtered)))
        case UInt8(ascii: "T"):
            let fields = try PartReader.read(handle, 20, path)
            let page = Int(BigEndian.number(fields[0..<4])), column = Int(BigEndian.number(fields[4..<8]))
            let row = Int(BigEndian.number(fields[8..<12])), length = BigEndian.number(fields[12..<20])
            guard header.deepZoom != nil, header.pages.indices.contains(page) else {
                throw PartError(path, .damaged, "damaged: a Deep Zoom tile in a part that holds none")
            }
            // A tile of 256 × 256 pixels of 4 bytes, compressed, cannot pass this.
            guard length <= 1 << 20 else {
                throw PartError(path, .damaged, "damaged: tile \(column)_\(row) claims \(length) bytes")
            }
            let bytes = try PartReader.read(handle, Int(length), path)
            guard try PartReader.number(handle, 8, path) == PartChecksum.of(fields, bytes) else {
                throw PartError(path, .damaged, "damaged: tile \(column)_\(row)'s checksum does not match")
            }
            segments += 1
            chain = PartChecksum.chain(chain, PartChecksum.of(fields, bytes))
            return .tile(page: page, column: column, row: row, bytes: bytes)
        case UInt8(ascii: "E"):
            let count = try PartReader.number(handle, 8, path)
            let checksum = try PartReader.number(handle, 8, path)
            guard count == UInt64(segments), checksum == chain else {
                throw PartError(path, .damaged, "damaged: its end record does not match its \(segments) segments")
            }
            guard fgetc(handle) == EOF else { throw PartError(path, .damaged, "damaged: bytes follow its end record") }
            ended = true
            return nil
        default:
            throw PartError(path, .damaged, "damaged: unexpected data after segment \(segments)")
        }
    }

    private static func read(_ handle: UnsafeMutablePointer<FILE>, _ count: Int, _ path: String) throws(PartError)
        -> [UInt8]
    {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, handle) }
        guard got == count else {
            if ferror(handle) != 0 { throw PartError(path, .unreadable, systemErrorText()) }
            throw PartError(
                path, .truncated, "truncated: the file ends inside the part (a render still writing it, or cut short)")
        }
        return bytes
    }

    private static func number(_ handle: UnsafeMutablePointer<FILE>, _ count: Int, _ path: String) throws(PartError)
        -> UInt64
    {
        BigEndian.number(try read(handle, count, path)[...])
    }
}
