import CPNGShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A PNG that ``PNGSegmentWriter`` wrote: one IDAT chunk a band, every band of the height its
/// `iwBD` chunk states (the last the rest), each deflated and filtered on its own. Two such
/// sheets of one size hold the same rows in a band wherever that band's compressed bytes are
/// the same, and any band decodes without the others: a comparison inflates only the bands
/// that differ.
///
/// The `iwBD` chunk (ancillary, private, unsafe to copy, so that a program rewriting the image
/// data drops it) holds the band height as a 4-byte big-endian number.
public struct PNGBands: Sendable {
    /// The private chunk that states the band height.
    public static let chunkType = "iwBD"

    /// Where the PNG came from, for errors.
    public let path: String
    /// The image size.
    public let size: Size
    /// `true` for RGBA, `false` for RGB.
    public let hasAlpha: Bool
    /// Rows in every band but the last.
    public let bandHeight: Int
    private let bytes: [UInt8]
    /// Each band's raw deflate bytes in `bytes` (the zlib header and the Adler-32 left out).
    private let segments: [Range<Int>]
    /// Each band's IDAT chunk in `bytes`, from its type to its CRC.
    private let chunks: [Range<Int>]

    /// Reads the PNG at `path`; `nil` when it is not one written in bands (any other PNG, or
    /// one whose chunks are damaged: such files are for a full decoder to read and report).
    /// The image data's CRCs are checked as bands are decoded (see ``decode(band:into:)``).
    public init?(path: String) {
        guard let bytes = PNGBands.read(path) else { return nil }
        self.init(bytes: bytes, path: path)
    }

    /// The PNG in `bytes`, named `path` in errors; `nil` when not written in bands.
    public init?(bytes: [UInt8], path: String) {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count > 8, Array(bytes[0..<8]) == signature else { return nil }
        var at = 8
        var header: [UInt8]?
        var bandHeight: Int?
        var idat: [Range<Int>] = []
        var ended = false
        while at + 12 <= bytes.count, !ended {
            let length = Int(PNGBands.uint32(bytes, at))
            let type = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
            let data = at + 8..<at + 8 + length
            guard length <= 0x7FFF_FFFF, data.upperBound + 4 <= bytes.count else { return nil }
            guard type == "IDAT" || PNGBands.crcHolds(bytes, at + 4..<data.upperBound + 4) else { return nil }
            // The image data must be one run of chunks; nothing but IEND may follow it.
            guard idat.isEmpty || type == "IDAT" || type == "IEND" else { return nil }
            switch type {
            case "IHDR": header = Array(bytes[data])
            case PNGBands.chunkType where length == 4: bandHeight = Int(PNGBands.uint32(bytes, data.lowerBound))
            case "IDAT": idat.append(data)
            case "IEND": ended = true
            default: break
            }
            at = data.upperBound + 4
        }
        guard ended, let header, header.count == 13, let bandHeight, bandHeight > 0,
            header[8] == 8, header[9] == 2 || header[9] == 6, header[10...12].allSatisfy({ $0 == 0 })
        else { return nil }
        let size = Size(width: Int(PNGBands.uint32(header, 0)), height: Int(PNGBands.uint32(header, 4)))
        // A band is decoded whole: one of more than 256 MB is no sheet's (a full decode says what it is).
        let band = (size.width * (header[9] == 6 ? 4 : 3)).multipliedReportingOverflow(by: min(bandHeight, size.height))
        guard size.width > 0, size.height > 0, !band.overflow, band.partialValue <= 1 << 28,
            idat.count == (size.height + bandHeight - 1) / bandHeight,
            idat[0].count >= 2, idat[idat.count - 1].count >= 4 + (idat.count == 1 ? 2 : 0),
            (Int(bytes[idat[0].lowerBound]) << 8 | Int(bytes[idat[0].lowerBound + 1])) % 31 == 0,
            bytes[idat[0].lowerBound] & 0x0F == 8, bytes[idat[0].lowerBound + 1] & 0x20 == 0
        else { return nil }
        var segments = idat
        segments[0] = segments[0].dropFirst(2)
        segments[segments.count - 1] = segments[segments.count - 1].dropLast(4)
        self.path = path
        self.size = size
        self.hasAlpha = header[9] == 6
        self.bandHeight = bandHeight
        self.bytes = bytes
        self.segments = segments
        chunks = idat.map { $0.lowerBound - 4..<$0.upperBound + 4 }
    }

    /// How many bands the image has.
    public var bandCount: Int { segments.count }

    /// The rows band `band` holds.
    public func rows(ofBand band: Int) -> Range<Int> {
        band * bandHeight..<min(size.height, (band + 1) * bandHeight)
    }

    /// Whether `other` is a sheet of the same shape (size, channels, bands), whose bands
    /// compare one for one.
    public func isComparable(with other: PNGBands) -> Bool {
        size == other.size && hasAlpha == other.hasAlpha && bandHeight == other.bandHeight
    }

    /// Whether band `band`'s chunk, its compressed bytes and CRC, is the same here and in
    /// `other` (then so are its rows: see ``isComparable(with:)``; a damage both share compares
    /// as equal, as their bytes do).
    public func sameBand(_ band: Int, as other: PNGBands) -> Bool {
        let (here, there) = (chunks[band], other.chunks[band])
        return here.count == there.count
            && bytes.withUnsafeBufferPointer { a in
                other.bytes.withUnsafeBufferPointer { b in
                    memcmp(a.baseAddress! + here.lowerBound, b.baseAddress! + there.lowerBound, here.count) == 0
                }
            }
    }

    /// Decodes band `band` into `destination` (its rows, tightly packed): the band written out as a PNG of its own and read by libpng.
    /// A band whose chunk's CRC does not hold, or that does not hold the rows it should, is an
    /// error.
    public func decode(band: Int, into destination: UnsafeMutableBufferPointer<UInt8>) throws(CodecError) {
        guard PNGBands.crcHolds(bytes, chunks[band]) else {
            throw CodecError(.decode, path: path, reason: "band \(band + 1): its chunk's CRC does not hold")
        }
        let height = rows(ofBand: band).count
        let rowBytes = size.width * (hasAlpha ? 4 : 3)
        precondition(destination.count == height * rowBytes)
        var done = 0
        let stream = try PNGRowStream(name: path) { row in
            guard done < height, row.count == rowBytes else {
                throw CodecError(.decode, path: path, reason: "band \(band + 1) holds more rows than it should")
            }
            UnsafeMutableRawBufferPointer(
                rebasing: UnsafeMutableRawBufferPointer(destination)[done * rowBytes..<(done + 1) * rowBytes]
            ).copyMemory(from: UnsafeRawBufferPointer(row))
            done += 1
        }
        let last = band == segments.count - 1
        // Ended by an empty final block where the band ended on a flush; its Adler-32 is not checked.
        let deflated = Array(bytes[segments[band]]) + (last ? [] : [0x03, 0x00])
        do {
            let writer = try PNGSegmentWriter(
                name: path, size: Size(width: size.width, height: height), hasAlpha: hasAlpha,
                compression: .runLength, software: nil, bandHeight: height
            ) { bytes throws(CodecError) in
                do { try stream.feed(bytes) } catch let error as CodecError { throw error } catch {
                    throw CodecError(.decode, path: path, reason: "\(error)")
                }
            }
            try writer.append(PNGSegment(deflated: deflated, adler: 0, filteredSize: height * (rowBytes + 1)))
            try writer.finish()
        }
        guard done == height, stream.isFinished else {
            throw CodecError(.decode, path: path, reason: "band \(band + 1) holds \(done) of its \(height) rows")
        }
    }

    /// Whether a chunk's CRC (its last 4 bytes of `chunk`, after its type and data) holds.
    private static func crcHolds(_ bytes: [UInt8], _ chunk: Range<Int>) -> Bool {
        let crc = bytes.withUnsafeBufferPointer { iw_crc32(0, $0.baseAddress! + chunk.lowerBound, chunk.count - 4) }
        return crc == uint32(bytes, chunk.upperBound - 4)
    }

    private static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    private static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path.systemPath, "rb") else { return nil }
        defer { fclose(file) }
        var status = stat()
        guard fstat(fileno(file), &status) == 0, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = fread(buffer.baseAddress, 1, size, file)
        }
        return bytes.count == size ? bytes : nil
    }
}
