import WallCore

/// Reads the few EXIF fields ImageWall uses from an APP1 payload ("Exif\0\0" + TIFF).
enum ExifReader {
    /// The orientation in IFD0 (tag 0x0112), or `nil` when absent or malformed.
    static func orientation(inAPP1 payload: ArraySlice<UInt8>) -> Orientation? {
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
        guard payload.starts(with: exifHeader) else { return nil }
        let tiff = Array(payload.dropFirst(6))
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            let a = Int(tiff[at]), b = Int(tiff[at + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard let low = u16(littleEndian ? at : at + 2),
                let high = u16(littleEndian ? at + 2 : at)
            else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT (3) is what the standard says; accept LONG (4) as some writers use.
            guard let type = u16(at + 2) else { return nil }
            let value: Int?
            switch type {
            case 3: value = u16(at + 8)
            case 4: value = u32(at + 8)
            default: value = nil
            }
            return value.flatMap(Orientation.init(rawValue:))
        }
        return nil
    }
}
