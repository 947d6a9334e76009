import WallCore

/// Photoshop documents: the 26-byte header (channels, size, depth, colour mode) and, for the
/// ICC profile, the image resources. FFmpeg draws the composite picture a document stores beside
/// its layers.
enum PSDHeader: StillFormatReader {
    static var format: ImageFormat { .psd }

    static func sniff(_ head: [UInt8]) -> Bool {
        let b = HeaderBytes(head, littleEndian: false)
        return b.matches("8BPS", at: 0) && (b.u16(4) == 1 || b.u16(4) == 2)
    }

    /// The image resource holding the ICC profile.
    static let iccResource = 0x040F

    /// PackBits: at most 128 samples of a channel in 2 bytes (raw documents need far more).
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int {
        header.compressedBytes(samples: HeaderBytes(head, littleEndian: false).u16(12) ?? 1, perByte: 64)
    }

    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader {
        let b = HeaderBytes(file.head, littleEndian: false)
        guard let version = b.u16(4), let channels = b.u16(12), let height = b.u32(14), let width = b.u32(18),
            let depth = b.u16(22), let mode = b.u16(24)
        else { throw corrupt(path, "the file ends inside its header") }
        guard version == 1 else { throw unsupported(path, "large document (PSB)") }
        guard (1...56).contains(channels) else { throw corrupt(path, "\(channels) channels") }
        guard [1, 8, 16, 32].contains(depth) else { throw corrupt(path, "\(depth) bits a channel") }
        let transparent = try mergedTransparency(file, path: path)
        let model: ColorModel
        var alpha = false
        switch mode {
        case 0: model = .bilevel
        case 1, 8:
            alpha = channels >= 2 && transparent
            model = alpha ? .grayAlpha : .gray
        case 2: model = .palette
        case 3:
            guard channels >= 3 else { throw corrupt(path, "RGB with \(channels) channels") }
            alpha = channels >= 4 && transparent
            model = alpha ? .rgba : .rgb
        case 4: throw unsupported(path, "in CMYK")
        case 7: throw unsupported(path, "in multichannel mode")
        case 9: throw unsupported(path, "in Lab colour")
        default: throw corrupt(path, "colour mode \(mode)")
        }
        return StillHeader(
            size: Size(width: width, height: height), colorModel: model, bitDepth: depth, hasAlpha: alpha,
            decoder: "psd", iccProfile: try iccProfile(file, path: path))
    }

    /// PackBits' no-op byte (128), which ImageMagick ends every row with and FFmpeg 5.1 takes for
    /// a run of 129 ("Invalid rle char"): dropped from the composite's rows, their byte counts
    /// lowered to match. Rows whose packets do not fill their counts exactly are left to FFmpeg.
    static func mend(_ file: inout [UInt8], length: Int) -> String? {
        func u16(_ at: Int) -> Int { Int(file[at]) << 8 | Int(file[at + 1]) }
        func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
        guard length >= 26, u16(4) == 1 else { return nil }
        var at = 26
        for _ in 0..<3 {  // colour mode data, image resources, layers and masks
            guard at + 4 <= length else { return nil }
            at += 4 + u32(at)
        }
        guard at + 2 <= length, u16(at) == 1 else { return nil }  // 1: PackBits
        let rows = u16(12) * u32(14)
        let table = at + 2
        let data = table + 2 * rows
        guard rows > 0, data <= length else { return nil }
        // First whether any row holds a no-op, every row's packets filling its count.
        var noOps = 0
        var start = data
        for row in 0..<rows {
            let end = start + u16(table + 2 * row)
            guard end <= length else { return nil }
            var packet = start
            while packet < end {
                let head = Int(file[packet])
                if head == 128 { noOps += 1 }
                packet += head == 128 ? 1 : head < 128 ? head + 2 : 2
            }
            guard packet == end else { return nil }
            start = end
        }
        guard noOps > 0 else { return nil }
        var written = data
        start = data
        for row in 0..<rows {
            let end = start + u16(table + 2 * row)
            let rowStart = written
            var packet = start
            while packet < end {
                let head = Int(file[packet])
                let size = head == 128 ? 1 : head < 128 ? head + 2 : 2
                if head != 128 {
                    for offset in 0..<size { file[written + offset] = file[packet + offset] }
                    written += size
                }
                packet += size
            }
            let count = written - rowStart
            (file[table + 2 * row], file[table + 2 * row + 1]) = (UInt8(count >> 8), UInt8(count & 255))
            start = end
        }
        return "PSD: \(noOps) PackBits no-op bytes dropped before decoding (FFmpeg takes them for runs)"
    }

    /// The layers and masks section, which FFmpeg skips for the composite: left unread, its
    /// length 0.
    static func unread(_ file: FileReader, path: String) -> (range: Range<Int>, standIn: [UInt8])? {
        guard let start = try? sectionStart(after: 1, file, path: path),
            let bytes = try? file.read(at: start, count: 4, path: path),
            let length = HeaderBytes(bytes, littleEndian: false).u32(0), length > 0,
            start + 4 + length <= file.fileSize
        else { return nil }
        return (start..<(start + 4 + length), [0, 0, 0, 0])
    }

    /// Whether the composite's first extra channel is its transparency: Photoshop says so by a
    /// negative layer count; otherwise the extra channels are saved selections, not drawn (as
    /// Photoshop, libvips and ImageMagick show such a document).
    static func mergedTransparency(_ file: FileReader, path: String) throws(CodecError) -> Bool {
        guard let layers = try sectionStart(after: 1, file, path: path) else { return false }
        let b = HeaderBytes(try file.read(at: layers, count: 10, path: path), littleEndian: false)
        guard let length = b.u32(0), length >= 6, let info = b.u32(4), info >= 2, let count = b.u16(8) else {
            return false
        }
        return Int16(truncatingIfNeeded: count) < 0
    }

    /// Where the section after the header's `index`-th length-prefixed section starts (0: the
    /// colour mode data, 1: the image resources), `nil` past the file's end.
    static func sectionStart(after index: Int, _ file: FileReader, path: String) throws(CodecError) -> Int? {
        var at = 26
        for _ in 0...index {
            guard let length = HeaderBytes(try file.read(at: at, count: 4, path: path), littleEndian: false).u32(0)
            else { return nil }
            at += 4 + length
        }
        return at < file.fileSize ? at : nil
    }

    /// Where resource 1039 lies: after the colour mode data, among the "8BIM" resources (each an
    /// id, a padded name, a length and padded data).
    static func iccProfile(_ file: FileReader, path: String) throws(CodecError) -> Range<Int>? {
        let lengths = HeaderBytes(try file.read(at: 26, count: 4, path: path), littleEndian: false)
        guard let modeData = lengths.u32(0) else { return nil }
        let sectionStart = 26 + 4 + modeData
        let sectionLength = HeaderBytes(try file.read(at: sectionStart, count: 4, path: path), littleEndian: false)
        guard let length = sectionLength.u32(0), length > 0 else { return nil }
        var at = sectionStart + 4
        let end = min(sectionStart + 4 + length, file.fileSize)
        while at + 12 <= end {
            let fixed = HeaderBytes(try file.read(at: at, count: 7, path: path), littleEndian: false)
            guard fixed.matches("8BIM", at: 0), let id = fixed.u16(4), let nameLength = fixed.u8(6) else { return nil }
            let nameBytes = (1 + nameLength + 1) & ~1
            let sizeAt = at + 6 + nameBytes
            guard let size = HeaderBytes(try file.read(at: sizeAt, count: 4, path: path), littleEndian: false).u32(0)
            else { return nil }
            let dataAt = sizeAt + 4
            guard dataAt + size <= end else { return nil }
            if id == iccResource { return size > 0 ? dataAt..<(dataAt + size) : nil }
            at = dataAt + (size + 1) & ~1
        }
        return nil
    }
}
