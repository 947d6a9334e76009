import WallCore

/// FITS, the astronomers' format: 80-character header cards ("SIMPLE  =  T", "BITPIX", "NAXIS1"…)
/// in blocks of 2,880 bytes. FFmpeg stretches the data's range (its DATAMIN and DATAMAX, else the
/// smallest and largest values) to the sheet's black and white.
enum FITSHeader: StillFormatReader {
    static var format: ImageFormat { .fits }

    static func sniff(_ head: [UInt8]) -> Bool {
        HeaderBytes(head, littleEndian: false).matches("SIMPLE  =", at: 0)
    }

    /// Raw samples, every plane.
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int {
        let planes = header.colorModel == .gray ? 1 : header.hasAlpha ? 4 : 3
        return header.rawBytesOver16(bits: header.bitDepth * planes)
    }

    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader {
        var keys: [String: String] = [:]
        var at = 0
        // At most 36 blocks of cards (1,296 keys) are read for the few needed.
        while at + 80 <= min(file.head.count, 36 * 2880) {
            let card = String(decoding: file.head[at..<at + 80], as: UTF8.self)
            at += 80
            let key = card.prefix(8).trimmingCharacters(in: " ")
            if key == "END" { break }
            guard card.dropFirst(8).hasPrefix("=") else { continue }
            let value = card.dropFirst(10).split(separator: "/").first.map(String.init) ?? ""
            keys[key] = value.trimmingCharacters(in: " ")
        }
        guard keys["SIMPLE"] == "T" else { throw corrupt(path, "SIMPLE is not T") }
        guard let bits = keys["BITPIX"].flatMap({ Int($0) }), [8, 16, 32, 64, -32, -64].contains(bits) else {
            throw corrupt(path, "BITPIX is not 8, 16, 32, 64, -32 or -64")
        }
        guard let axes = keys["NAXIS"].flatMap({ Int($0) }), (2...3).contains(axes) else {
            throw unsupported(path, "data of other than two or three axes")
        }
        guard let width = keys["NAXIS1"].flatMap({ Int($0) }), let height = keys["NAXIS2"].flatMap({ Int($0) }) else {
            throw corrupt(path, "NAXIS1 or NAXIS2 missing")
        }
        let planes = axes == 3 ? keys["NAXIS3"].flatMap { Int($0) } ?? 1 : 1
        guard [1, 3, 4].contains(planes) else { throw unsupported(path, "data of \(planes) planes") }
        return StillHeader(
            size: Size(width: width, height: height),
            colorModel: planes == 1 ? .gray : planes == 4 ? .rgba : .rgb, bitDepth: abs(bits), hasAlpha: planes == 4,
            decoder: "fits", packetStart: 80)
    }

    /// A cube of three or four planes is drawn in colour, as libvips and ImageMagick draw it;
    /// FFmpeg does so only when `CTYPE3 = 'RGB'` says so, so that card is set (in place of one
    /// naming another axis type, or of the `END` card, moved on into the block's padding or
    /// over a comment) where the cube lacks it.
    static func mend(_ file: inout [UInt8], length: Int) -> String? {
        func card(_ at: Int) -> String { String(decoding: file[at..<at + 80], as: UTF8.self) }
        func key(_ at: Int) -> String { String(card(at).prefix(8)).trimmingCharacters(in: " ") }
        func value(_ at: Int) -> String {
            String(card(at).dropFirst(10).split(separator: "/").first ?? "").trimmingCharacters(in: " ")
        }
        var axes = 0
        var planes = 0
        var typeCard: Int?
        var end: Int?
        var spare: Int?  // a comment or blank card before END
        var at = 0
        while at + 80 <= min(length, 36 * 2880) {
            switch key(at) {
            case "NAXIS": axes = Int(value(at)) ?? 0
            case "NAXIS3": planes = Int(value(at)) ?? 0
            case "CTYPE3": typeCard = at
            case "COMMENT", "HISTORY", "": spare = spare ?? at
            case "END": end = at
            default: break
            }
            if end != nil { break }
            at += 80
        }
        guard let end, axes == 3, [3, 4].contains(planes) else { return nil }
        if let typeCard, value(typeCard).hasPrefix("'RGB") { return nil }
        let rgb = Array("CTYPE3  = 'RGB     '".padding(toLength: 80, withPad: " ", startingAt: 0).utf8)
        let place: Int
        if let typeCard {
            place = typeCard
        } else if (end + 80) % 2880 != 0, end + 160 <= length {
            for offset in 0..<80 { file[end + 80 + offset] = file[end + offset] }  // END moves on
            place = end
        } else if let spare {
            place = spare
        } else {
            return nil
        }
        for offset in 0..<80 { file[place + offset] = rgb[offset] }
        return "FITS: its cube of \(planes) planes drawn as colour (CTYPE3 = 'RGB' set for FFmpeg)"
    }
}

extension String {
    /// The text without `character` at either end.
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(self).trimmingCharacters(in: character)
    }
}
