import WallCore

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
