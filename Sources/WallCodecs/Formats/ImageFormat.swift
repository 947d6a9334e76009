/// The image formats ImageWall reads, told apart by their leading bytes, never the extension:
/// the catalogue. Adding a format means a case here, its codec in ``codec``, and a folder of
/// its own under `Formats/` with an ``ImageCodec``.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    /// JPEG (JFIF, EXIF, Adobe), baseline, extended, progressive or arithmetic-coded.
    case jpeg
    /// PNG, every colour type and bit depth, interlaced or not.
    case png

    /// How this format is read.
    var codec: any ImageCodec {
        switch self {
        case .jpeg: return JPEGCodec()
        case .png: return PNGCodec()
        }
    }

    /// The format of a file starting with `bytes` (up to its first 64 KiB), or `nil` when it
    /// is none ImageWall reads.
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        let head = Array(bytes.prefix(65536))
        for format in allCases {
            if let found = format.codec.sniff(head) { return found }
        }
        return nil
    }

    /// A name for common formats ImageWall does not read, so the error can say what it saw.
    public static func describeUnsupported(_ bytes: some Collection<UInt8>) -> String? {
        let start = Array(bytes.prefix(12))
        func starts(_ prefix: [UInt8]) -> Bool { start.starts(with: prefix) }
        if starts(Array("GIF8".utf8)) { return "GIF" }
        if starts([0x42, 0x4D]) { return "BMP" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if start.count >= 12, starts(Array("RIFF".utf8)), Array(start[8..<12]) == Array("WEBP".utf8) {
            return "WebP"
        }
        if start.count >= 12, Array(start[4..<8]) == Array("ftyp".utf8) { return "HEIF/AVIF" }
        if starts([0xFF, 0x0A]) || starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) {
            return "JPEG XL"
        }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "a damaged PNG signature" }
        if starts([0xFF, 0xD8]) { return "a damaged JPEG start" }
        return nil
    }

    /// File-name extensions that usually hold this format (lowercase, without the dot).
    public var extensions: [String] {
        switch self {
        case .jpeg: return ["jpg", "jpeg", "jpe", "jfif"]
        case .png: return ["png"]
        }
    }
}
