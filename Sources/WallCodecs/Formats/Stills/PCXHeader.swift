import WallCore

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
