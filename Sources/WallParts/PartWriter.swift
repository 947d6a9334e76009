import Foundation
import ImageWall
import WallCache
import WallCodecs
import WallCompositor
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes a part file: the header, then each page's segments as the encoder hands them on.
final class PartWriter: @unchecked Sendable {
    private let file: AtomicFile
    private var segments = 0
    /// Each record's checksum chained onto the header's, for the end record.
    private var chain: UInt64 = 0

    init(file: AtomicFile, header: PartHeader) throws(FileError) {
        self.file = file
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let json = try? Array(encoder.encode(header)) else {
            throw FileError(.write, path: file.destination, reason: "the part's header could not be encoded")
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
        func append(_ segment: PNGSegment) throws(FileError) { try writer.append(segment, page: page) }
    }

    private func append(_ segment: PNGSegment, page: Int) throws(FileError) {
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
    func append(tile bytes: [UInt8], page: Int, column: Int, row: Int) throws(FileError) {
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
    func finish() throws(FileError) {
        try write([UInt8(ascii: "E")] + BigEndian.bytes(UInt64(segments)) + BigEndian.bytes(chain))
    }

    private func write(_ bytes: [UInt8]) throws(FileError) {
        guard !bytes.isEmpty else { return }
        try file.write(bytes)
    }
}
