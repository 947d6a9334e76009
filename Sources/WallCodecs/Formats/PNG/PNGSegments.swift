import CPNGShim
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A band of an image's rows, filtered and deflated on its own: one piece of the image's zlib
/// stream. Segments end on a byte boundary (a full flush), so made on any thread, kept, or
/// made on another machine, they join into the same PNG. The first row is filtered without
/// the row above (none or sub), so a segment also decodes on its own.
public struct PNGSegment: Sendable, Hashable {
    /// Raw deflate bytes.
    public var deflated: [UInt8]
    /// Adler-32 of the filtered rows the segment holds.
    public var adler: UInt32
    /// How many filtered bytes (a filter byte and a row, per row) it holds.
    public var filteredSize: Int

    /// The Adler-32 of data whose own is `adler`, followed by this segment's filtered bytes.
    public func adler(after adler: UInt32) -> UInt32 {
        iw_adler32_combine(adler, self.adler, filteredSize)
    }

    /// A segment from its parts (e.g. read back from a cache or a part file).
    public init(deflated: [UInt8], adler: UInt32, filteredSize: Int) {
        self.deflated = deflated
        self.adler = adler
        self.filteredSize = filteredSize
    }

    /// Filters and deflates `count` rows of `width` pixels of `channels` bytes (`stride` bytes
    /// apart); `last` ends the stream.
    public init(
        rows: UnsafeBufferPointer<UInt8>, stride: Int, count: Int, width: Int, channels: Int, filter: PNGFilter,
        compression: PNGCompression, last: Bool
    ) throws(CodecError) {
        let filtered = try PNGSegment.filtered(
            rows: rows, stride: stride, count: count, width: width, channels: channels, filter: filter)
        try self.init(filtered: filtered, compression: compression, last: last)
    }

    /// `count` rows of `width` pixels of `channels` bytes (`stride` bytes apart) filtered as a
    /// segment holds them, a filter byte before each row: the first of the two steps of
    /// ``init(rows:stride:count:width:channels:filter:compression:last:)``, which a caller
    /// may take on its own thread before the rows change and leave the deflate to another.
    public static func filtered(
        rows: UnsafeBufferPointer<UInt8>, stride: Int, count: Int, width: Int, channels: Int, filter: PNGFilter
    ) throws(CodecError) -> [UInt8] {
        var status: Int32 = 1
        let filtered = [UInt8](unsafeUninitializedCapacity: (width * channels + 1) * count) { buffer, written in
            status = iw_png_filter_segment(
                rows.baseAddress, stride, UInt32(count), UInt32(width), Int32(channels), filter.type,
                buffer.baseAddress)
            written = status == 0 ? buffer.count : 0
        }
        guard status == 0 else {
            throw CodecError(.write, path: "PNG segment", reason: "out of memory filtering the rows")
        }
        return filtered
    }

    /// Deflates rows filtered by ``filtered(rows:stride:count:width:channels:filter:)``; `last`
    /// ends the stream.
    public init(filtered: [UInt8], compression: PNGCompression, last: Bool) throws(CodecError) {
        var segment = iw_png_segment()
        let (level, runLength) = compression.zlibSettings
        let capacity = iw_png_segment_bound(filtered.count)
        // Deflated straight into the segment's array, which keeps its room unless the rows
        // compressed to less than half of it.
        var status: Int32 = 1
        var deflated = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, written in
            status = filtered.withUnsafeBufferPointer {
                iw_png_deflate_filtered(
                    $0.baseAddress, $0.count, level, runLength, last ? 1 : 0, buffer.baseAddress, capacity, &segment)
            }
            written = status == 0 ? segment.size : 0
        }
        guard status == 0 else {
            throw CodecError(.write, path: "PNG segment", reason: "zlib could not deflate the rows")
        }
        if deflated.count < capacity / 2 { deflated = deflated.withUnsafeBufferPointer { Array($0) } }
        self.init(deflated: deflated, adler: segment.adler, filteredSize: segment.filtered_size)
    }
}

/// A PNG written as one zlib stream in segments: signature and header chunks, then each
/// ``PNGSegment`` as one IDAT chunk in order (the first carrying the zlib header, the last the
/// combined Adler-32), then IEND. The bytes depend only on the image, the settings and where
/// its segments end, never on which thread or machine made them. Every segment but the last
/// holds the same number of rows, which a private chunk before the image data states (see
/// ``PNGBands``), so that a reader can find and decode one band without the others.
public final class PNGSegmentWriter: @unchecked Sendable {
    private let output: ([UInt8]) throws(CodecError) -> Void
    /// What the PNG is called in errors: its file.
    private let name: String
    /// The image size.
    public let size: Size
    /// `true` for RGBA, `false` for RGB.
    public let hasAlpha: Bool
    private let zlibHeader: [UInt8]
    private var adler: UInt32 = 1
    private var filteredWritten = 0
    private let filteredTotal: Int
    /// Filtered bytes of a whole band.
    private let bandBytes: Int

    /// Starts the PNG in `file`: signature, IHDR, a tEXt Software chunk when given, and the
    /// bands' height (every segment but the last holds `bandHeight` rows).
    public convenience init(
        file: AtomicFile, size: Size, hasAlpha: Bool, compression: PNGCompression, software: String?,
        bandHeight: Int
    ) throws(CodecError) {
        try self.init(
            name: file.destination, size: size, hasAlpha: hasAlpha, compression: compression, software: software,
            bandHeight: bandHeight
        ) { bytes throws(CodecError) in
            let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file.handle) }
            guard written == bytes.count else {
                throw CodecError(.write, path: file.destination, reason: systemErrorText())
            }
            file.wrote(written)
        }
    }

    /// Starts the PNG, handing its bytes to `output` as they are made (e.g. to a decoder):
    /// signature, IHDR, a tEXt Software chunk when given, and the bands' height (every segment
    /// but the last holds `bandHeight` rows). `name` names it in errors.
    public init(
        name: String, size: Size, hasAlpha: Bool, compression: PNGCompression, software: String?, bandHeight: Int,
        output: @escaping ([UInt8]) throws(CodecError) -> Void
    ) throws(CodecError) {
        self.output = output
        self.name = name
        self.size = size
        self.hasAlpha = hasAlpha
        let rowBytes = size.width * (hasAlpha ? 4 : 3) + 1
        filteredTotal = rowBytes * size.height
        bandBytes = rowBytes * max(1, bandHeight)
        zlibHeader = PNGSegmentWriter.zlibHeader(compression)
        try write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        try chunk("IHDR", PNGSegmentWriter.ihdr(size: size, hasAlpha: hasAlpha))
        if let software { try chunk("tEXt", Array("Software".utf8) + [0] + Array(software.utf8)) }
        try chunk(PNGBands.chunkType, PNGSegmentWriter.bigEndian(UInt32(max(1, bandHeight))))
    }

    /// The IHDR chunk's data: 8-bit RGB or RGBA, not interlaced.
    public static func ihdr(size: Size, hasAlpha: Bool) -> [UInt8] {
        bigEndian(UInt32(size.width)) + bigEndian(UInt32(size.height)) + [8, hasAlpha ? 6 : 2, 0, 0, 0]
    }

    /// The two zlib header bytes for a compression setting (the level only informs readers).
    public static func zlibHeader(_ compression: PNGCompression) -> [UInt8] {
        let level = compression.zlibSettings.level
        return [0x78, level <= 1 ? 0x01 : level <= 5 ? 0x5E : level == 6 ? 0x9C : 0xDA]
    }

    /// Why `segment` cannot come next (it holds more rows than the image has left, or it is not
    /// a whole band and not the last), or `nil` when it can: what ``append(_:)`` refuses before
    /// it writes anything.
    public func problem(appending segment: PNGSegment) -> String? {
        let written = filteredWritten + segment.filteredSize
        if written > filteredTotal { return "more rows than the image has" }
        if segment.filteredSize != bandBytes && written != filteredTotal {
            return "a band that is not the last is not a whole band"
        }
        return nil
    }

    /// Whether every row of the image is in.
    public var isComplete: Bool { filteredWritten == filteredTotal }

    /// Appends the next segment as an IDAT chunk, written in its parts (not copied into one);
    /// the first also carries the zlib header, and the one that completes the image ends the
    /// stream with the Adler-32.
    public func append(_ segment: PNGSegment) throws(CodecError) {
        if let problem = problem(appending: segment) { throw CodecError(.write, path: name, reason: problem) }
        let header = filteredWritten == 0 ? zlibHeader : []
        adler = segment.adler(after: adler)
        filteredWritten += segment.filteredSize
        let trailer = filteredWritten == filteredTotal ? PNGSegmentWriter.bigEndian(adler) : []
        try chunk("IDAT", parts: [header, segment.deflated, trailer])
    }

    /// Ends the PNG after the last segment.
    public func finish() throws(CodecError) {
        guard isComplete else { throw CodecError(.write, path: name, reason: "the image ended with rows missing") }
        try chunk("IEND", [])
    }

    private func chunk(_ type: String, _ data: [UInt8]) throws(CodecError) {
        try chunk(type, parts: [data])
    }

    /// A chunk whose data is `parts` one after another.
    private func chunk(_ type: String, parts: [[UInt8]]) throws(CodecError) {
        let typeBytes = Array(type.utf8)
        var crc = typeBytes.withUnsafeBufferPointer { iw_crc32(0, $0.baseAddress, $0.count) }
        for part in parts { crc = part.withUnsafeBufferPointer { iw_crc32(crc, $0.baseAddress, $0.count) } }
        let length = parts.reduce(0) { $0 + $1.count }
        try write(PNGSegmentWriter.bigEndian(UInt32(length)) + typeBytes)
        for part in parts { try write(part) }
        try write(PNGSegmentWriter.bigEndian(crc))
    }

    private func write(_ bytes: [UInt8]) throws(CodecError) {
        guard !bytes.isEmpty else { return }
        try output(bytes)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 255), UInt8((value >> 8) & 255), UInt8(value & 255)]
    }
}
