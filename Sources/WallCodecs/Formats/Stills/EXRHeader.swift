import WallCore

/// OpenEXR: the magic, the version's flags and the header's attributes (the display window gives
/// the picture's size, the channel list its alpha). Its samples are scene-linear light, encoded
/// as sRGB with highlights over 1 clipped, as libvips shows them.
enum EXRHeader: StillFormatReader {
    static var format: ImageFormat { .exr }

    static func sniff(_ head: [UInt8]) -> Bool { head.starts(with: [0x76, 0x2F, 0x31, 0x01]) }

    /// A header longer than this is refused as corrupt.
    static let longestHeader = 1 << 20

    /// A scanline file's offset table (after the header) points at every chunk: one past the
    /// file's end means it was cut.
    static func cutShort(_ file: ArraySlice<UInt8>) -> String? { cutShort(Array(file), fileSize: file.count) }

    /// The same from the file's first bytes (its header and offset table, or as much of them as
    /// `bytes` holds) and its size.
    static func cutShort(_ bytes: [UInt8], fileSize: Int) -> String? {
        guard let layout = chunkLayout(bytes) else { return nil }
        let b = HeaderBytes(bytes, littleEndian: true)
        for chunk in 0..<layout.chunks {
            guard let low = b.u32(layout.table + 8 * chunk), let high = b.u32(layout.table + 8 * chunk + 4) else {
                return "cut short in its offset table"
            }
            if high != 0 || low + 8 > fileSize {
                return "cut short: chunk \(chunk + 1) of \(layout.chunks) is missing"
            }
        }
        return nil
    }

    /// Where a single-part scanline file's offset table starts and how many chunks it lists
    /// (the data window's rows over the rows a chunk of its compression holds); `nil` for tiled
    /// files and headers that do not say.
    static func chunkLayout(_ bytes: [UInt8]) -> (table: Int, chunks: Int)? {
        let b = HeaderBytes(bytes, littleEndian: true)
        guard let version = b.u32(4), version & 0x200 == 0 else { return nil }
        var at = 8
        var rows: Int?
        var compression: Int?
        while let name = string(bytes, &at), !name.isEmpty {
            guard string(bytes, &at) != nil, let size = b.u32(at) else { return nil }
            if name == "dataWindow", let y0 = b.i32(at + 8), let y1 = b.i32(at + 16) { rows = y1 - y0 + 1 }
            if name == "compression" { compression = b.u8(at + 4) }
            at += 4 + size
        }
        let perChunk = [0: 1, 1: 1, 2: 1, 3: 16, 4: 32, 5: 16, 6: 32, 7: 32, 8: 32, 9: 256]
        guard let rows, rows > 0, let compression, let lines = perChunk[compression] else { return nil }
        return (at, (rows + lines - 1) / lines)
    }

    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader {
        var bytes = file.head
        if bytes.count < min(file.fileSize, longestHeader), !attributesEnd(in: bytes) {
            bytes = try file.read(at: 0, count: min(file.fileSize, longestHeader), path: path)
        }
        let b = HeaderBytes(bytes, littleEndian: true)
        guard let version = b.u32(4) else { throw corrupt(path, "the file ends inside its header") }
        if version & 0x1000 != 0 { throw unsupported(path, "multi-part file") }
        if version & 0x800 != 0 { throw unsupported(path, "deep-data file") }
        var at = 8
        var window: (Int, Int, Int, Int)?
        var channels: [String] = []
        var half = false
        var compression: Int?
        while true {
            guard let name = string(bytes, &at) else { throw corrupt(path, "the header ends inside an attribute") }
            if name.isEmpty { break }
            guard let type = string(bytes, &at), let size = b.u32(at) else {
                throw corrupt(path, "the header ends inside an attribute")
            }
            let value = at + 4
            guard value + size <= bytes.count else { throw corrupt(path, "the header ends inside \(name)") }
            if name == "displayWindow", type == "box2i", let x0 = b.i32(value), let y0 = b.i32(value + 4),
                let x1 = b.i32(value + 8), let y1 = b.i32(value + 12)
            {
                window = (x0, y0, x1, y1)
            }
            if name == "compression" { compression = b.u8(value) }
            if name == "channels", type == "chlist" {
                var c = value
                while c < value + size, let channel = string(bytes, &c), !channel.isEmpty {
                    channels.append(channel)
                    half = half || b.u32(c) == 1
                    c += 16
                }
            }
            at = value + size
        }
        guard let (x0, y0, x1, y1) = window else { throw corrupt(path, "no display window") }
        guard x1 >= x0, y1 >= y0 else { throw corrupt(path, "its display window is empty") }
        let alpha = channels.contains("A")
        let gray = !channels.contains("R") && channels.contains("Y")
        var header = StillHeader(
            size: Size(width: x1 - x0 + 1, height: y1 - y0 + 1),
            colorModel: gray ? (alpha ? .grayAlpha : .gray) : (alpha ? .rgba : .rgb), bitDepth: half ? 16 : 32,
            hasAlpha: alpha, decoder: "exr", isLinearLight: true)
        let coding = compression.flatMap { $0 < compressions.count ? compressions[$0] : nil } ?? "unknown"
        let kind = channels.contains("RY") || channels.contains("BY") ? "luminance-chroma " : ""
        header.coding = "\(kind)channels \(channels.joined(separator: ", ")), \(coding) compression"
        return header
    }

    /// The compressions by their number in the header.
    static let compressions = ["no", "RLE", "ZIPS", "ZIP", "PIZ", "PXR24", "B44", "B44A", "DWAA", "DWAB"]

    /// A NUL-terminated text at `at`, which moves past it; `nil` when the bytes end first or it
    /// is longer than the format's 255 bytes.
    static func string(_ bytes: [UInt8], _ at: inout Int) -> String? {
        guard let end = bytes[min(at, bytes.count)...].prefix(256).firstIndex(of: 0) else { return nil }
        let text = String(decoding: bytes[at..<end], as: UTF8.self)
        at = end + 1
        return text
    }

    /// Whether the attributes' closing empty name lies within `bytes` (walked roughly: a header
    /// cut at 64 KiB is read further).
    private static func attributesEnd(in bytes: [UInt8]) -> Bool {
        let b = HeaderBytes(bytes, littleEndian: true)
        var at = 8
        while let name = string(bytes, &at) {
            if name.isEmpty { return true }
            guard string(bytes, &at) != nil, let size = b.u32(at) else { return false }
            at += 4 + size
        }
        return false
    }
}

/// DirectDraw surfaces: the 124-byte header's size and pixel format; the first (largest) level
/// of the first surface is drawn, whatever the mipmaps.
enum DDSHeader: StillFormatReader {
    static var format: ImageFormat { .dds }

    static func sniff(_ head: [UInt8]) -> Bool {
        let b = HeaderBytes(head, littleEndian: true)
        return b.matches("DDS ", at: 0) && b.u32(4) == 124
    }

    /// The block codes of one or two channels: "ATI1", "BC4U", "BC4S", "ATI2", "BC5U", "BC5S".
    static let withoutAlpha: Set<Int> = Set(["ATI1", "BC4U", "BC4S", "ATI2", "BC5U", "BC5S"].map(code))

    /// A four-character code as the header holds it, little-endian.
    static func code(_ text: String) -> Int { text.utf8.reversed().reduce(0) { $0 << 8 | Int($1) } }

    /// Block coding: DXT1 keeps 16 pixels in 8 bytes.
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int { header.compressedBytes(perByte: 32) }

    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader {
        let b = HeaderBytes(file.head, littleEndian: true)
        guard let height = b.u32(12), let width = b.u32(16), let flags = b.u32(80), let fourCC = b.u32(84) else {
            throw corrupt(path, "the file ends inside its header")
        }
        let compressed = flags & 0x4 != 0
        let alphaMask = b.u32(104) ?? 0
        // A DX10 header names the coding by its DXGI number: BC4 (79–81) and BC5 (82–84).
        let dxgi = fourCC == DDSHeader.code("DX10") ? b.u32(128) : nil
        let oneOrTwo = DDSHeader.withoutAlpha.contains(fourCC) || (dxgi.map { (79...84).contains($0) } ?? false)
        let twoChannels =
            [DDSHeader.code("ATI2"), DDSHeader.code("BC5U"), DDSHeader.code("BC5S")].contains(fourCC)
            || (dxgi.map { (82...84).contains($0) } ?? false)
        // Block-compressed surfaces carry alpha (DXT1's one bit, DXT2–5, BC7) but for the one- and
        // two-channel codes; uncompressed ones say so with a flag and a mask.
        let alpha = compressed ? !oneOrTwo : (flags & 0x1 != 0 && alphaMask != 0)
        var header = StillHeader(
            size: Size(width: width, height: height), colorModel: alpha ? .rgba : .rgb, bitDepth: 8, hasAlpha: alpha,
            decoder: "dds")
        // Two channels (BC5) are red and green, as Pillow shows them: FFmpeg rebuilds a normal
        // map's blue from them, which the file does not hold.
        header.blueNotHeld = twoChannels
        return header
    }
}
