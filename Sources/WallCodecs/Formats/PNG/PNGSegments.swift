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
        var segment = iw_png_segment()
        let (level, runLength) = compression.zlibSettings
        let status = iw_png_deflate_segment(
            rows.baseAddress, stride, UInt32(count), UInt32(width), Int32(channels), filter.type, level, runLength,
            last ? 1 : 0, &segment)
        guard status == 0, let data = segment.data else {
            throw CodecError(.write, path: "PNG segment", reason: "zlib could not deflate the rows")
        }
        defer { iw_png_segment_free(&segment) }
        self.init(
            deflated: Array(UnsafeBufferPointer(start: data, count: segment.size)), adler: segment.adler,
            filteredSize: segment.filtered_size)
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

    /// Appends the next segment; the one that completes the image also ends the stream.
    public func append(_ segment: PNGSegment) throws(CodecError) {
        var data = filteredWritten == 0 ? zlibHeader : []
        data += segment.deflated
        adler = segment.adler(after: adler)
        filteredWritten += segment.filteredSize
        guard filteredWritten <= filteredTotal else {
            throw CodecError(.write, path: name, reason: "more rows than the image has")
        }
        guard segment.filteredSize == bandBytes || filteredWritten == filteredTotal else {
            throw CodecError(.write, path: name, reason: "a band that is not the last is not a whole band")
        }
        if filteredWritten == filteredTotal { data += PNGSegmentWriter.bigEndian(adler) }
        try chunk("IDAT", data)
    }

    /// Ends the PNG after the last segment.
    public func finish() throws(CodecError) {
        guard filteredWritten == filteredTotal else {
            throw CodecError(.write, path: name, reason: "the image ended with rows missing")
        }
        try chunk("IEND", [])
    }

    private func chunk(_ type: String, _ data: [UInt8]) throws(CodecError) {
        let typeBytes = Array(type.utf8)
        var crc = typeBytes.withUnsafeBufferPointer { iw_crc32(0, $0.baseAddress, $0.count) }
        crc = data.withUnsafeBufferPointer { iw_crc32(crc, $0.baseAddress, $0.count) }
        try write(PNGSegmentWriter.bigEndian(UInt32(data.count)) + typeBytes)
        try write(data)
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
