/// Writes the smallest EXIF block that names the software that made a file: a little-endian TIFF
/// structure whose first IFD holds the Software tag alone. ``ExifReader`` reads it back.
public enum ExifWriter {
    /// The TIFF structure naming `software` (ASCII; anything else is replaced by "?"), as a
    /// WebP's EXIF chunk holds it; a JPEG's APP1 puts "Exif\0\0" before it (see ``app1(software:)``).
    public static func tiff(software: String) -> [UInt8] {
        let text = software.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? UInt8($0.value) : 0x3F } + [0]
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        // Header (8), entry count (2), one entry (12), next IFD (4): the text follows at 26.
        var block: [UInt8] = [0x49, 0x49] + le16(42) + le32(8)
        block += le16(1) + le16(0x0131) + le16(2) + le32(text.count)
        block += text.count <= 4 ? text + [UInt8](repeating: 0, count: 4 - text.count) : le32(26)
        block += le32(0)
        if text.count > 4 { block += text }
        return block
    }

    /// A JPEG's APP1 payload naming `software`: "Exif\0\0" and ``tiff(software:)``.
    public static func app1(software: String) -> [UInt8] {
        Array("Exif".utf8) + [0, 0] + tiff(software: software)
    }
}
