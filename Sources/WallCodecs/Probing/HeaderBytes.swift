/// Bounds-checked reading of a header's numbers in a byte order: `nil` past the bytes at hand.
/// The headers of the formats read through FFmpeg, and EXIF's TIFF structure (see
/// ``init(tiff:orderAt:)``), are read through it.
struct HeaderBytes {
    let bytes: [UInt8]
    let littleEndian: Bool

    init(_ bytes: [UInt8], littleEndian: Bool) {
        self.bytes = bytes
        self.littleEndian = littleEndian
    }

    func u8(_ at: Int) -> Int? { at >= 0 && at < bytes.count ? Int(bytes[at]) : nil }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        let a = Int(bytes[at]), b = Int(bytes[at + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(_ at: Int) -> Int? {
        guard let first = u16(at), let second = u16(at + 2) else { return nil }
        return littleEndian ? first | second << 16 : first << 16 | second
    }

    /// A signed 32-bit number.
    func i32(_ at: Int) -> Int? { u32(at).map { Int(Int32(truncatingIfNeeded: $0)) } }

    /// Whether the bytes at `at` are `text`'s.
    func matches(_ text: String, at: Int) -> Bool {
        let expected = Array(text.utf8)
        return at >= 0 && at + expected.count <= bytes.count && Array(bytes[at..<at + expected.count]) == expected
    }
}
