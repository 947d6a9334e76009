import WallCore

/// The EXIF fields ImageWall uses.
struct ExifFields: Equatable {
    var orientation: Orientation?
    /// DateTimeOriginal, else DateTime: "YYYY:MM:DD HH:MM:SS".
    var dateTaken: String?
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
        guard tiff.count >= 8 else { return ExifFields() }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return ExifFields()
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            let a = Int(tiff[at]), b = Int(tiff[at + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard let low = u16(littleEndian ? at : at + 2), let high = u16(littleEndian ? at + 2 : at) else {
                return nil
            }
            return high << 16 | low
        }
        /// The entries of the IFD at `offset`: tag → (type, count, offset of the value field).
        func entries(at offset: Int) -> [Int: (type: Int, count: Int, field: Int)] {
            guard let count = u16(offset), count <= 1000 else { return [:] }
            var result: [Int: (Int, Int, Int)] = [:]
            for entry in 0..<count {
                let at = offset + 2 + entry * 12
                guard let tag = u16(at), let type = u16(at + 2), let n = u32(at + 4) else { break }
                if result[tag] == nil { result[tag] = (type, n, at + 8) }
            }
            return result
        }
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
            let start = e.count <= 4 ? e.field : u32(e.field) ?? -1
            guard start >= 0, start + 19 <= tiff.count else { return nil }
            let bytes = tiff[start..<start + 19]
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.hasPrefix("0000") || text.trimmingSpaces().isEmpty ? nil : text
        }
        guard u16(2) == 42, let ifd0 = u32(4) else { return ExifFields() }
        let main = entries(at: ifd0)
        var fields = ExifFields()
        fields.orientation = integer(main[0x0112]).flatMap(Orientation.init(rawValue:))
        if let exifIFD = integer(main[0x8769]) {
            fields.dateTaken = ascii(entries(at: exifIFD)[0x9003])
        }
        if fields.dateTaken == nil { fields.dateTaken = ascii(main[0x0132]) }
        return fields
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String { String(filter { $0 != " " }) }
}
