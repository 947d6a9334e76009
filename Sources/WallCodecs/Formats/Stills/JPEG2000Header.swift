import WallCore

/// JPEG 2000, as a JP2 file (boxes: the signature, `ftyp`, the `jp2h` header with `ihdr` and
/// `colr`, which may hold an ICC profile) or a bare codestream (its SIZ marker), decoded by
/// OpenJPEG through FFmpeg, at a reduced resolution level when the tile is small.
enum JPEG2000Header: StillFormatReader {
    static var format: ImageFormat { .jpeg2000 }
    static var decodesReduced: Bool { true }

    static let jp2Signature: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
    static let codestreamStart: [UInt8] = [0xFF, 0x4F, 0xFF, 0x51]

    static func sniff(_ head: [UInt8]) -> Bool { head.starts(with: jp2Signature) || head.starts(with: codestreamStart) }

    /// Wavelet coding of empty code blocks costs a few bits each: a picture of one flat colour
    /// keeps tens of thousands of pixels in a byte.
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int { header.compressedBytes(perByte: 65536) }

    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader {
        if file.head.starts(with: codestreamStart) { return try codestream(file.head, at: 0, path: path) }
        // The boxes of a JP2 file, up to the codestream ("jp2c"), whose SIZ gives the true size.
        var at = 0
        var icc: Range<Int>?
        var opacity = false
        for _ in 0..<64 {
            let box = HeaderBytes(try file.read(at: at, count: 16, path: path), littleEndian: false)
            guard let short = box.u32(0), let type = box.u32(4) else { break }
            var length = short, content = at + 8
            if short == 1, let high = box.u32(8), let low = box.u32(12) {
                (length, content) = (high << 32 | low, at + 16)
            } else if short == 0 {
                length = file.fileSize - at
            }
            guard length >= content - at else { throw corrupt(path, "a box's length is shorter than its header") }
            switch type {
            case fourCC("jp2h"):
                // The header's boxes: a colour specification with an ICC profile, channel definitions.
                var inner = content
                while inner + 8 <= at + length {
                    let child = HeaderBytes(try file.read(at: inner, count: 12, path: path), littleEndian: false)
                    guard let size = child.u32(0), size >= 8, let kind = child.u32(4) else { break }
                    if kind == fourCC("colr"), child.u8(8) == 2 || child.u8(8) == 3, size > 11 {
                        icc = (inner + 11)..<(inner + size)
                    }
                    if kind == fourCC("cdef") { opacity = try hasOpacity(file, at: inner + 8, path: path) }
                    inner += size
                }
            case fourCC("jp2c"):
                var found = try codestream(try file.read(at: content, count: 4096, path: path), at: 0, path: path)
                found.iccProfile = icc
                found.hasAlpha = found.hasAlpha || opacity
                return found
            default: break
            }
            guard length > 0 else { break }
            at += length
        }
        throw corrupt(path, "no codestream found among its boxes")
    }

    /// A box type's number: "jp2c".
    static func fourCC(_ text: String) -> Int { text.utf8.reduce(0) { $0 << 8 | Int($1) } }

    /// Whether a `cdef` box names a channel as opacity.
    static func hasOpacity(_ file: FileReader, at: Int, path: String) throws(CodecError) -> Bool {
        let b = HeaderBytes(try file.read(at: at, count: 2 + 6 * 16, path: path), littleEndian: false)
        guard let count = b.u16(0) else { return false }
        return (0..<min(count, 16)).contains { b.u16(2 + 6 * $0 + 2) == 1 || b.u16(2 + 6 * $0 + 2) == 2 }
    }

    /// The size and components of a codestream's SIZ marker.
    static func codestream(_ bytes: [UInt8], at start: Int, path: String) throws(CodecError) -> StillHeader {
        let b = HeaderBytes(bytes, littleEndian: false)
        guard b.u16(start) == 0xFF4F, b.u16(start + 2) == 0xFF51 else { throw corrupt(path, "no SIZ marker") }
        let siz = start + 4
        guard let right = b.u32(siz + 4), let bottom = b.u32(siz + 8), let left = b.u32(siz + 12),
            let top = b.u32(siz + 16), let components = b.u16(siz + 36), let depth = b.u8(siz + 38)
        else { throw corrupt(path, "the file ends inside its SIZ marker") }
        guard right > left, bottom > top else { throw corrupt(path, "its image area is empty") }
        guard (1...16384).contains(components) else { throw corrupt(path, "\(components) components") }
        let alpha = components == 2 || components >= 4
        let gray = components <= 2
        return StillHeader(
            size: Size(width: right - left, height: bottom - top),
            colorModel: gray ? (alpha ? .grayAlpha : .gray) : (alpha ? .rgba : .rgb), bitDepth: (depth & 0x7F) + 1,
            hasAlpha: alpha, decoder: "libopenjpeg")
    }
}

/// JPEG-LS: a JPEG file whose frame is coded by LOCO-I (marker SOF55), which libjpeg-turbo does
/// not read; claimed ahead of JPEG by its frame marker.
enum JPEGLSHeader: StillFormatReader {
    static var format: ImageFormat { .jpegls }
    static var priority: ClaimPriority { .specialised }

    static func sniff(_ head: [UInt8]) -> Bool { frame(head)?.marker == 0xF7 }

    /// The first frame marker among the segments in `head` and where its body starts.
    static func frame(_ head: [UInt8]) -> (marker: Int, at: Int)? {
        guard head.starts(with: [0xFF, 0xD8]) else { return nil }
        let b = HeaderBytes(head, littleEndian: false)
        var at = 2
        while at + 4 <= head.count {
            guard head[at] == 0xFF else { return nil }
            let marker = Int(head[at + 1])
            if marker == 0xFF {
                at += 1
                continue
            }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) || marker == 0xF7 {
                return (marker, at + 4)
            }
            guard let length = b.u16(at + 2), length >= 2 else { return nil }
            at += 2 + length
        }
        return nil
    }

    /// Run mode keeps long runs of one value in a few bits.
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int { header.compressedBytes(perByte: 4096) }

    /// A whole file ends with the end-of-image marker.
    static func cutShort(_ file: ArraySlice<UInt8>) -> String? {
        file.suffix(2).elementsEqual([0xFF, 0xD9]) ? nil : "cut short: no end-of-image marker"
    }

    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader {
        guard let (_, at) = frame(file.head) else { throw corrupt(path, "no SOF55 frame header") }
        let b = HeaderBytes(file.head, littleEndian: false)
        guard let precision = b.u8(at), let height = b.u16(at + 1), let width = b.u16(at + 3),
            let components = b.u8(at + 5)
        else { throw corrupt(path, "the file ends inside its frame header") }
        guard height > 0 else { throw unsupported(path, "with its height in a later marker") }
        guard components == 1 || components == 3 else { throw unsupported(path, "with \(components) components") }
        return StillHeader(
            size: Size(width: width, height: height), colorModel: components == 1 ? .gray : .rgb,
            bitDepth: precision, hasAlpha: false, decoder: "jpegls")
    }
}
