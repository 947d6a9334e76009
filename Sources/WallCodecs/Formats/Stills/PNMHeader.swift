import WallCore

/// Netpbm's formats: PBM, PGM and PPM (plain "P1"–"P3" or raw "P4"–"P6"), PAM ("P7"), and the
/// floating-point PFM ("PF", "Pf") and PHM ("PH", "Ph"), whose samples are linear light.
enum PNMHeader: StillFormatReader {
    static var format: ImageFormat { .pnm }

    /// A header whose numbers all parse: the magic alone ("P5") is too weak.
    static func sniff(_ head: [UInt8]) -> Bool { (try? parse(head, path: "")) != nil }

    /// Raw samples (plain text takes more).
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int {
        let samples = [ColorModel.gray: 1, .grayAlpha: 2, .rgb: 3, .rgba: 4][header.colorModel] ?? 1
        return header.rawBytesOver16(bits: header.colorModel == .bilevel ? 1 : samples * header.bitDepth)
    }

    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader {
        try parse(file.head, path: path)
    }

    static func parse(_ head: [UInt8], path: String) throws(CodecError) -> StillHeader {
        guard head.count >= 3, head[0] == UInt8(ascii: "P") else { throw corrupt(path, "no P magic") }
        let kind = Character(UnicodeScalar(head[1]))
        var words = HeaderWords(head, at: 2)
        switch kind {
        case "1", "2", "3", "4", "5", "6":
            let bilevel = kind == "1" || kind == "4"
            guard let width = words.number(), let height = words.number(),
                let most = bilevel ? 1 : words.number(), (1...65535).contains(most)
            else { throw corrupt(path, "its header's numbers do not parse") }
            let color = kind == "3" || kind == "6"
            let decoder = bilevel ? "pbm" : color ? "ppm" : "pgm"
            return StillHeader(
                size: Size(width: width, height: height),
                colorModel: bilevel ? .bilevel : color ? .rgb : .gray, bitDepth: bilevel ? 1 : most > 255 ? 16 : 8,
                hasAlpha: false, decoder: decoder)
        case "7":
            var fields: [String: String] = [:]
            while let key = words.word(), key != "ENDHDR" {
                guard fields.count < 16, let value = words.word() else { break }
                fields[key] = value
            }
            guard let width = fields["WIDTH"].flatMap({ Int($0) }), let height = fields["HEIGHT"].flatMap({ Int($0) }),
                let depth = fields["DEPTH"].flatMap({ Int($0) }), let most = fields["MAXVAL"].flatMap({ Int($0) })
            else { throw corrupt(path, "its header lacks WIDTH, HEIGHT, DEPTH or MAXVAL") }
            guard (1...4).contains(depth), (1...65535).contains(most) else {
                throw corrupt(path, "depth \(depth), maximum \(most)")
            }
            let alpha = depth == 2 || depth == 4
            return StillHeader(
                size: Size(width: width, height: height),
                colorModel: depth <= 2 ? (alpha ? .grayAlpha : .gray) : (alpha ? .rgba : .rgb),
                bitDepth: most > 255 ? 16 : 8, hasAlpha: alpha, decoder: "pam")
        case "F", "f", "H", "h":
            guard let width = words.number(), let height = words.number(), let scale = words.word(),
                Double(scale) != nil
            else { throw corrupt(path, "its header's numbers do not parse") }
            let color = kind == "F" || kind == "H"
            let half = kind == "H" || kind == "h"
            return StillHeader(
                size: Size(width: width, height: height), colorModel: color ? .rgb : .gray,
                bitDepth: half ? 16 : 32, hasAlpha: false, decoder: half ? "phm" : "pfm", isLinearLight: true)
        default:
            throw corrupt(path, "P\(kind) is no Netpbm format")
        }
    }
}

/// The words of a Netpbm header: separated by white space, with `#` comments to the line's end.
struct HeaderWords {
    let bytes: [UInt8]
    var at: Int

    init(_ bytes: [UInt8], at: Int) {
        self.bytes = bytes
        self.at = at
    }

    /// The next word, at most 64 bytes; `nil` at the end of the bytes.
    mutating func word() -> String? {
        while at < bytes.count {
            if bytes[at] == UInt8(ascii: "#") {
                while at < bytes.count, bytes[at] != 0x0A, bytes[at] != 0x0D { at += 1 }
            } else if [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains(bytes[at]) {
                at += 1
            } else {
                break
            }
        }
        let start = at
        while at < bytes.count, at - start < 64, ![0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains(bytes[at]) { at += 1 }
        return at > start ? String(decoding: bytes[start..<at], as: UTF8.self) : nil
    }

    /// The next word as a positive whole number.
    mutating func number() -> Int? {
        guard let word = word(), word.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(word),
            value > 0
        else { return nil }
        return value
    }
}
