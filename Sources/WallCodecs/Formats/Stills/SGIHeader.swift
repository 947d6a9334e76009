import WallCore

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
