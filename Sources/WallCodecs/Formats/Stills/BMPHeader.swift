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

/// Truevision TGA: no signature, so a file is taken as TGA by its name and a header whose
/// fields all hold values the format allows.
enum TGAHeader: StillFormatReader {
    static var format: ImageFormat { .tga }

    static func sniff(_ head: [UInt8]) -> Bool { false }

    static func plausible(_ head: [UInt8]) -> Bool {
        let b = HeaderBytes(head, littleEndian: true)
        guard let mapType = b.u8(1), let type = b.u8(2), let depth = b.u8(16), let width = b.u16(12),
            let height = b.u16(14)
        else { return false }
        return mapType <= 1 && [1, 2, 3, 9, 10, 11].contains(type) && [8, 15, 16, 24, 32].contains(depth)
            && width > 0 && height > 0
    }

    /// Raw pixels; RLE, at most 128 pixels in 2 bytes.
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int {
        let type = head.count > 2 ? Int(head[2]) : 0
        return type >= 9
            ? header.compressedBytes(perByte: 64) : header.rawBytesOver16(bits: head.count > 16 ? Int(head[16]) : 8)
    }

    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader {
        guard plausible(file.head) else { throw corrupt(path, "its header holds values TGA does not allow") }
        let b = HeaderBytes(file.head, littleEndian: true)
        let type = b.u8(2)!, depth = b.u8(16)!, mapEntry = b.u8(7) ?? 0
        let mapped = type == 1 || type == 9
        let gray = type == 3 || type == 11
        // Grey of 16 bits is a grey byte and an alpha byte, as Pillow reads it ("LA").
        let grayAlpha = gray && depth == 16
        guard !gray || depth == 8 || grayAlpha else {
            throw corrupt(path, "its grey pixels are of \(depth) bits, where TGA's are of 8, or 16 with alpha")
        }
        let alpha = depth == 32 || (mapped && mapEntry == 32) || grayAlpha
        var header = StillHeader(
            size: Size(width: b.u16(12)!, height: b.u16(14)!),
            colorModel: mapped ? .palette : gray ? .gray : (alpha ? .rgba : .rgb), bitDepth: min(depth, 8),
            hasAlpha: alpha, decoder: "targa")
        // FFmpeg's `targa` takes every 16-bit picture as RGB555, keeping the pixels' two bytes.
        if grayAlpha { header.samplesAs = "ya8" }
        return header
    }
}

/// ZSoft PC Paintbrush: its one signature byte is too weak alone, so a file is PCX by its name
/// and a plausible header.
enum PCXHeader: StillFormatReader {
    static var format: ImageFormat { .pcx }

    static func sniff(_ head: [UInt8]) -> Bool { false }

    static func plausible(_ head: [UInt8]) -> Bool {
        let b = HeaderBytes(head, littleEndian: true)
        guard b.u8(0) == 0x0A, let version = b.u8(1), let encoding = b.u8(2), let bits = b.u8(3) else { return false }
        return [0, 2, 3, 4, 5].contains(version) && encoding <= 1 && [1, 2, 4, 8].contains(bits)
    }

    /// RLE: at most 63 bytes of a plane in 2.
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int { header.compressedBytes(perByte: 64) }

    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader {
        let b = HeaderBytes(file.head, littleEndian: true)
        guard plausible(file.head), let left = b.u16(4), let top = b.u16(6), let right = b.u16(8),
            let bottom = b.u16(10), let planes = b.u8(65)
        else { throw corrupt(path, "the file ends inside its header") }
        guard right >= left, bottom >= top else { throw corrupt(path, "its window is empty") }
        let bits = b.u8(3)!
        return StillHeader(
            size: Size(width: right - left + 1, height: bottom - top + 1),
            colorModel: planes >= 3 ? .rgb : .palette, bitDepth: bits, hasAlpha: false, decoder: "pcx")
    }
}

/// SGI (Silicon Graphics) images: the magic 474, then storage, bytes a sample and sizes.
enum SGIHeader: StillFormatReader {
    static var format: ImageFormat { .sgi }

    static func sniff(_ head: [UInt8]) -> Bool {
        let b = HeaderBytes(head, littleEndian: false)
        guard b.u16(0) == 474, let storage = b.u8(2), let bytes = b.u8(3), let dimension = b.u16(4) else {
            return false
        }
        return storage <= 1 && (1...2).contains(bytes) && (1...3).contains(dimension)
    }

    /// Raw channels; RLE, at most 127 samples in 2 bytes.
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int {
        let b = HeaderBytes(head, littleEndian: false)
        let bits = 8 * (b.u8(3) ?? 1) * (b.u16(10) ?? 1)
        return b.u8(2) == 1 ? header.compressedBytes(perByte: 64) : header.rawBytesOver16(bits: bits)
    }

    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader {
        let b = HeaderBytes(file.head, littleEndian: false)
        guard let bytes = b.u8(3), let width = b.u16(6), let height = b.u16(8), let channels = b.u16(10) else {
            throw corrupt(path, "the file ends inside its header")
        }
        guard (1...4).contains(channels) else { throw unsupported(path, "with \(channels) channels") }
        let alpha = channels == 2 || channels == 4
        return StillHeader(
            size: Size(width: width, height: height),
            colorModel: channels <= 2 ? (alpha ? .grayAlpha : .gray) : (alpha ? .rgba : .rgb), bitDepth: bytes * 8,
            hasAlpha: alpha, decoder: "sgi")
    }
}

/// The Quite OK Image format: "qoif", sizes, channels.
enum QOIHeader: StillFormatReader {
    static var format: ImageFormat { .qoi }

    static func sniff(_ head: [UInt8]) -> Bool { HeaderBytes(head, littleEndian: false).matches("qoif", at: 0) }

    /// A run: at most 62 pixels in a byte.
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int { header.compressedBytes(perByte: 62) }

    /// A whole file ends with seven zero bytes and a one.
    static func cutShort(_ file: ArraySlice<UInt8>) -> String? {
        file.suffix(8).elementsEqual([0, 0, 0, 0, 0, 0, 0, 1]) ? nil : "cut short: no end marker"
    }

    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader {
        let b = HeaderBytes(file.head, littleEndian: false)
        guard let width = b.u32(4), let height = b.u32(8), let channels = b.u8(12) else {
            throw corrupt(path, "the file ends inside its header")
        }
        guard channels == 3 || channels == 4 else { throw corrupt(path, "\(channels) channels") }
        return StillHeader(
            size: Size(width: width, height: height), colorModel: channels == 4 ? .rgba : .rgb, bitDepth: 8,
            hasAlpha: channels == 4, decoder: "qoi")
    }
}

/// X Window dumps: a big-endian header of at least 100 bytes, version 7.
enum XWDHeader: StillFormatReader {
    static var format: ImageFormat { .xwd }

    static func sniff(_ head: [UInt8]) -> Bool {
        let b = HeaderBytes(head, littleEndian: false)
        guard let size = b.u32(0), b.u32(4) == 7, let layout = b.u32(8), let depth = b.u32(12) else { return false }
        return (100...4096).contains(size) && layout <= 2 && (1...32).contains(depth)
    }

    /// Raw pixels.
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int {
        header.rawBytesOver16(bits: max(8, HeaderBytes(head, littleEndian: false).u32(44) ?? 8))
    }

    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader {
        let b = HeaderBytes(file.head, littleEndian: false)
        guard let depth = b.u32(12), let width = b.u32(16), let height = b.u32(20) else {
            throw corrupt(path, "the file ends inside its header")
        }
        return StillHeader(
            size: Size(width: width, height: height), colorModel: depth <= 8 ? .palette : .rgb,
            bitDepth: min(depth, 8), hasAlpha: false, decoder: "xwd")
    }
}

/// X bitmaps: C source text defining a width, a height and the bits.
enum XBMHeader: StillFormatReader {
    static var format: ImageFormat { .xbm }

    static func sniff(_ head: [UInt8]) -> Bool {
        // Its defines, and the array of bits they size: a C header's other defines are not an X
        // bitmap. (Only text that begins as one is decoded: other files' bytes are not.)
        guard head.starts(with: "#define ".utf8) else { return false }
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        return size(text) != nil && text.contains("_bits[]")
    }

    /// C text: about 5 characters ("0x00,") for 8 pixels.
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int { header.compressedBytes(perByte: 26) }

    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader {
        guard let size = size(String(decoding: file.head.prefix(4096), as: UTF8.self)) else {
            throw corrupt(path, "no width and height defined")
        }
        return StillHeader(size: size, colorModel: .bilevel, bitDepth: 1, hasAlpha: false, decoder: "xbm")
    }

    /// The numbers of `#define …_width N` and `#define …_height N`.
    static func size(_ text: String) -> Size? {
        var width: Int?, height: Int?
        for line in text.split(whereSeparator: \.isNewline).prefix(8) {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count == 3, words[0] == "#define", let value = Int(words[2]), value > 0 else { continue }
            if words[1].hasSuffix("width") { width = value }
            if words[1].hasSuffix("height") { height = value }
        }
        guard let width, let height else { return nil }
        return Size(width: width, height: height)
    }
}
