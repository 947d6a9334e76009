import WallCore

/// The EXIF fields ImageWall uses.
struct ExifFields: Equatable {
    var orientation: Orientation?
    /// DateTimeOriginal, else DateTime: "YYYY:MM:DD HH:MM:SS".
    var dateTaken: String?
    /// The identifier Apple's maker note gives both files of a Live Photo (its tag 0x11).
    var contentIdentifier: String?
    /// Body, lens and exposure; `nil` when none is recorded.
    var camera: CameraInfo?
    /// The software that made the file (Software, 0x0131).
    var software: String?
    /// Where the JPEG thumbnail of IFD1 lies in the TIFF block, when there is one.
    var thumbnail: Range<Int>?
}

/// Reads EXIF: a TIFF structure, either byte order, every offset checked. JPEG's APP1 and
/// some WebP files put "Exif\0\0" before it; PNG's eXIf and HEIF's Exif item hold the TIFF
/// structure itself.
enum ExifReader {
    /// The fields of a JPEG APP1 payload ("Exif\0\0" + TIFF).
    static func fields(inAPP1 payload: ArraySlice<UInt8>) -> ExifFields {
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
        guard payload.starts(with: exifHeader) else { return ExifFields() }
        return fields(inTIFF: Array(payload.dropFirst(6)))
    }

    /// The fields of EXIF data with or without the "Exif\0\0" prefix.
    static func fields(in data: [UInt8]) -> ExifFields {
        data.starts(with: Array("Exif".utf8)) ? fields(inAPP1: data[...]) : fields(inTIFF: data)
    }

    /// The fields of a TIFF-structured EXIF block.
    static func fields(inTIFF tiff: [UInt8]) -> ExifFields {
        guard tiff.count >= 8, let ordered = HeaderBytes(tiff: tiff, orderAt: 0) else { return ExifFields() }
        let u16 = ordered.u16, u32 = ordered.u32
        func entries(at offset: Int) -> [Int: HeaderBytes.IFDEntry] { ordered.entries(at: offset, most: 1000) }
        func integer(_ e: (type: Int, count: Int, field: Int)?) -> Int? {
            guard let e else { return nil }
            switch e.type {
            case 3: return u16(e.field)  // SHORT, as the standard says
            case 4: return u32(e.field)  // LONG, as some writers use
            default: return nil
            }
        }
        func ascii(_ e: (type: Int, count: Int, field: Int)?) -> String? {
            guard let e, e.type == 2, e.count >= 19, e.count <= 64 else { return nil }
            guard let start = ordered.byteStart(of: e), start + 19 <= tiff.count else { return nil }
            let bytes = tiff[start..<start + 19]
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.hasPrefix("0000") || text.trimmingSpaces().isEmpty ? nil : text
        }
        // Free text (names): printable ASCII or UTF-8, up to the first NUL, spaces trimmed.
        func text(_ e: (type: Int, count: Int, field: Int)?) -> String? {
            guard let e, e.type == 2 || e.type == 129, (1...256).contains(e.count) else { return nil }
            guard let start = ordered.byteStart(of: e), start + e.count <= tiff.count else { return nil }
            let bytes = tiff[start..<start + e.count].prefix { $0 != 0 }
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { return nil }
            return String(decoding: bytes, as: UTF8.self).trimmedOfSpaces
        }
        // An unsigned RATIONAL with a non-zero denominator.
        func fraction(_ e: (type: Int, count: Int, field: Int)?) -> CameraInfo.Fraction? {
            guard let e, e.type == 5, e.count >= 1, let at = u32(e.field), let n = u32(at), let d = u32(at + 4), d > 0
            else { return nil }
            return CameraInfo.Fraction(n, d)
        }
        guard u16(2) == 42, let ifd0 = u32(4) else { return ExifFields() }
        let main = entries(at: ifd0)
        var fields = ExifFields()
        fields.orientation = integer(main[0x0112]).flatMap(Orientation.init(rawValue:))
        fields.software = text(main[0x0131])
        var camera = CameraInfo()
        camera.make = text(main[0x010F])
        camera.model = text(main[0x0110])
        camera.rating = integer(main[0x4746]).flatMap { (0...5).contains($0) ? $0 : nil }
        if let exifIFD = integer(main[0x8769]) {
            let exif = entries(at: exifIFD)
            fields.dateTaken = ascii(exif[0x9003])
            camera.exposureTime = fraction(exif[0x829A]).flatMap { $0.numerator > 0 ? $0 : nil }
            camera.fNumber = fraction(exif[0x829D]).map(\.value).flatMap { $0 > 0 ? $0 : nil }
            camera.iso = integer(exif[0x8827]).flatMap { $0 > 0 ? $0 : nil }
            camera.focalLength = fraction(exif[0x920A]).map(\.value).flatMap { $0 > 0 ? $0 : nil }
            camera.lens = text(exif[0xA434])
            camera.timeOffset = (text(exif[0x9011]) ?? text(exif[0x9010])).flatMap(ExifReader.offset)
            if let note = exif[0x927C], note.type == 7, note.count > 16, let start = u32(note.field),
                start >= 0, start + note.count <= tiff.count
            {
                fields.contentIdentifier = appleContentIdentifier(tiff[start..<start + note.count])
            }
        }
        if fields.dateTaken == nil { fields.dateTaken = ascii(main[0x0132]) }
        fields.camera = camera.isEmpty ? nil : camera
        // IFD1, after IFD0's entries, describes the thumbnail: a JPEG (compression 6) at an
        // offset, of a length, inside the block.
        if let count = u16(ifd0), let ifd1 = u32(ifd0 + 2 + count * 12), ifd1 > 0 {
            let thumbnail = entries(at: ifd1)
            if integer(thumbnail[0x0103]) ?? 6 == 6, let start = integer(thumbnail[0x0201]),
                let length = integer(thumbnail[0x0202]), start > 0, length >= 125, start + length <= tiff.count
            {
                fields.thumbnail = start..<start + length
            }
        }
        return fields
    }

    /// An EXIF time offset ("+01:00", "-05:30"), or `nil` for anything else.
    static func offset(_ text: String) -> String? {
        let b = Array(text.utf8)
        guard b.count == 6, b[0] == 0x2B || b[0] == 0x2D, b[3] == 0x3A,
            [b[1], b[2], b[4], b[5]].allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        return text
    }
}

extension ExifReader {
    /// The content identifier in an Apple maker note ("Apple iOS\0", a version, a byte order,
    /// then an IFD whose offsets count from the note's start): tag 0x11, a short ASCII text.
    static func appleContentIdentifier(_ note: ArraySlice<UInt8>) -> String? {
        let bytes = Array(note)
        guard bytes.starts(with: Array("Apple iOS\0".utf8)), bytes.count >= 16,
            let ordered = HeaderBytes(tiff: bytes, orderAt: 12),
            let entry = ordered.entries(at: 14, most: 200)[0x11], entry.type == 2, (2...80).contains(entry.count)
        else { return nil }
        guard let start = ordered.byteStart(of: entry), start + entry.count <= bytes.count else { return nil }
        let text = bytes[start..<start + entry.count].prefix { $0 != 0 }
        guard !text.isEmpty, text.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Bytes laid out as TIFF lays them out (EXIF, a maker note): numbers in the byte order its
/// marker names ("II" little-endian, "MM" big-endian), and IFDs; every read checked against
/// the end.
extension HeaderBytes {
    /// An IFD entry: its type, its count, and where its value field is.
    typealias IFDEntry = (type: Int, count: Int, field: Int)

    /// `bytes` in the order its two-byte TIFF marker at `at` names; `nil` for another marker.
    init?(tiff bytes: [UInt8], orderAt at: Int) {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        switch (bytes[at], bytes[at + 1]) {
        case (0x49, 0x49): self.init(bytes, littleEndian: true)
        case (0x4D, 0x4D): self.init(bytes, littleEndian: false)
        default: return nil
        }
    }

    /// Where the bytes of a one-byte-a-value entry (ASCII, BYTE, UNDEFINED) start: in its value
    /// field when four or fewer, else at the offset that field holds.
    func byteStart(of entry: IFDEntry) -> Int? {
        entry.count <= 4 ? entry.field : u32(entry.field)
    }

    /// The entries of the IFD at `offset` (none when it claims more than `most`): tag → entry,
    /// the first of a tag kept; read up to the first entry that lies past the end.
    func entries(at offset: Int, most: Int) -> [Int: IFDEntry] {
        guard let count = u16(offset), count <= most else { return [:] }
        var result: [Int: IFDEntry] = [:]
        for entry in 0..<count {
            let at = offset + 2 + entry * 12
            guard let tag = u16(at), let type = u16(at + 2), let n = u32(at + 4) else { break }
            if result[tag] == nil { result[tag] = (type, n, at + 8) }
        }
        return result
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String { String(filter { $0 != " " }) }

    /// The text without the spaces around it; `nil` when nothing else is left.
    var trimmedOfSpaces: String? {
        let trimmed = drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }
}
