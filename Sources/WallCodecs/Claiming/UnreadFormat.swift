/// Images ImageWall recognises but does not read, so that such a file is reported with what
/// it is, never silently left out of a sheet: the catalogue asked after every codec.
public struct UnreadFormat: FormatClaimant {
    /// Asked last, when no codec reads the file.
    var priority: ClaimPriority { .catalogue }
    /// Image formats by extension, for those their first bytes do not tell reliably.
    static let byExtension: [String: String] = [
        "svg": "SVG", "svgz": "SVG", "tga": "TGA", "pcx": "PCX", "xcf": "GIMP XCF", "ico": "ICO", "cur": "ICO",
        "jp2": "JPEG 2000", "j2k": "JPEG 2000", "jpx": "JPEG 2000", "psd": "PSD", "psb": "PSD",
        "bmp": "BMP", "exr": "OpenEXR", "hdr": "Radiance HDR", "dds": "DDS", "qoi": "QOI", "ppm": "PNM", "pgm": "PNM",
        "pbm": "PNM", "pnm": "PNM", "pam": "PNM", "jng": "JNG", "mng": "MNG", "apng": "APNG",
    ]

    /// The name of the image format files with extension `ext` (lowercase) usually hold,
    /// among those ImageWall does not read: "BMP", "RAW camera file".
    public static func formatName(forExtension ext: String) -> String? {
        byExtension[ext]
    }

    /// What a file no codec claimed is: an image of another format or a damaged one of ours,
    /// by its first bytes and its name; `nil` when it does not look like an image at all.
    func claim(_ file: FileSignature) -> FileClaim? {
        let start = Array(file.head.prefix(16))
        func starts(_ prefix: [UInt8]) -> Bool { start.starts(with: prefix) }
        func text(_ s: String) -> [UInt8] { Array(s.utf8) }
        let ext = file.fileExtension
        var name: String?
        if starts(text("BM")) && start.count >= 14 {
            name = "BMP"
        } else if starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || starts([0xFF, 0x4F, 0xFF, 0x51]) {
            name = "JPEG 2000"
        } else if starts(text("8BPS")) {
            name = "PSD"
        } else if starts([0x00, 0x00, 0x01, 0x00]) && ext == "ico" {
            name = "ICO"
        } else if starts(text("qoif")) {
            name = "QOI"
        } else if starts([0x76, 0x2F, 0x31, 0x01]) {
            name = "OpenEXR"
        } else if starts(text("#?RADIANCE")) || starts(text("#?RGBE")) {
            name = "Radiance HDR"
        } else if starts(text("DDS ")) {
            name = "DDS"
        } else if starts(text("gimp xcf")) {
            name = "GIMP XCF"
        } else if start.count >= 2, start[0] == 0x50, (0x31...0x37).contains(start[1]),
            ext.map({ Self.byExtension[$0] == "PNM" }) ?? false
        {
            name = "PNM"
        } else if starts([0x89, 0x50, 0x4E, 0x47]) {
            return .unread(.damaged(format: "PNG", what: "damaged signature"))
        } else if starts([0xFF, 0xD8]) {
            return .unread(.damaged(format: "JPEG", what: "damaged start of image"))
        } else if let ext, let known = Self.byExtension[ext] {
            name = known
        } else if Self.isSVG(file.head) {
            name = "SVG"
        }
        return name.map { .unread(.unsupported(format: $0)) }
    }

    private static func isSVG(_ bytes: some Collection<UInt8>) -> Bool {
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self).lowercased()
        return head.contains("<svg")
    }
}
