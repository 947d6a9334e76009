import WallCore

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
