import WallCore

/// Windows and OS/2 bitmaps: the file header ("BM") and the bitmap's own header (OS/2's 12
/// bytes, or Windows' 40 to 124, whose fifth version may embed an ICC profile).
enum BMPHeader: StillFormatReader {
    static var format: ImageFormat { .bmp }

    static func sniff(_ head: [UInt8]) -> Bool {
        let b = HeaderBytes(head, littleEndian: true)
        guard b.matches("BM", at: 0), let size = b.u32(14) else { return false }
        return size == 12 || size == 16 || (40...124).contains(size)
    }

    /// Uncompressed rows of 4-byte multiples; RLE, at most 255 pixels in 2 bytes.
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int {
        let b = HeaderBytes(head, littleEndian: true)
        let bits = (b.u32(14) == 12 ? b.u16(24) : b.u16(28)) ?? 24
        let compressed = b.u32(14) != 12 && [1, 2].contains(b.u32(30) ?? 0)
        return compressed ? header.compressedBytes(perByte: 128) : header.rawBytesOver16(bits: bits, alignment: 4)
    }

    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader {
        let b = HeaderBytes(file.head, littleEndian: true)
        guard let headerSize = b.u32(14) else { throw corrupt(path, "the file ends inside its header") }
        let width: Int, height: Int, bits: Int, compression: Int
        if headerSize == 12 {
            guard let w = b.u16(18), let h = b.u16(20), let depth = b.u16(24) else {
                throw corrupt(path, "the file ends inside its header")
            }
            (width, height, bits, compression) = (w, h, depth, 0)
        } else {
            guard let w = b.i32(18), let h = b.i32(22), let depth = b.u16(28), let method = b.u32(30) else {
                throw corrupt(path, "the file ends inside its header")
            }
            (width, height, bits, compression) = (w, abs(h), depth, method)
        }
        guard width > 0, height > 0 else { throw corrupt(path, "the picture is \(width)x\(height) pixels") }
        // A bitmap holding a JPEG or PNG file says 0 bits a pixel: it is named for what it holds.
        if compression == 4 || compression == 5 {
            throw unsupported(
                path, "holding a \(compression == 4 ? "JPEG" : "PNG") picture (compression \(compression))")
        }
        guard [1, 2, 4, 8, 16, 24, 32].contains(bits) else { throw corrupt(path, "\(bits) bits a pixel") }
        // A fifth-version header's profile: "MBED" as its colour space, the profile's offset from
        // the header's start and its size.
        var icc: Range<Int>?
        if headerSize >= 124, b.u32(70) == 0x4D42_4544, let offset = b.u32(14 + 112), let count = b.u32(14 + 116),
            count > 0, 14 + offset + count <= file.fileSize
        {
            icc = (14 + offset)..<(14 + offset + count)
        }
        let alpha = bits == 32 || (bits == 16 && headerSize >= 56 && (b.u32(14 + 52) ?? 0) != 0)
        return StillHeader(
            size: Size(width: width, height: height),
            colorModel: bits <= 8 ? .palette : (alpha ? .rgba : .rgb), bitDepth: bits <= 8 ? bits : 8,
            hasAlpha: alpha, decoder: "bmp", iccProfile: icc)
    }
}
