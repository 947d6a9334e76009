import WallCore

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
