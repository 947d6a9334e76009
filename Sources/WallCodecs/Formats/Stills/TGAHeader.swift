import WallCore

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
