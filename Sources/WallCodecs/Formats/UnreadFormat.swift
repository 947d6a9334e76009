/// Images ImageWall recognises but does not read, so that such a file is reported with what
/// it is, never silently left out of a sheet.
public enum UnreadFormat {
    /// RAW camera files. Most are TIFF inside, holding a small preview beside the sensor data,
    /// so they are known by their extension.
    public static let rawExtensions: Set<String> = [
        "3fr", "arw", "cr2", "cr3", "crw", "dcr", "dng", "erf", "iiq", "k25", "kdc", "mef", "mos", "mrw", "nef", "nrw",
        "orf", "pef", "raf", "raw", "rw2", "rwl", "sr2", "srf", "srw", "x3f",
    ]

    /// Image formats by extension, for those their first bytes do not tell reliably.
    static let byExtension: [String: String] = [
        "svg": "SVG", "svgz": "SVG", "tga": "TGA", "pcx": "PCX", "xcf": "GIMP XCF", "ico": "ICO", "cur": "ICO",
        "jxl": "JPEG XL", "jp2": "JPEG 2000", "j2k": "JPEG 2000", "jpx": "JPEG 2000", "psd": "PSD", "psb": "PSD",
        "bmp": "BMP", "exr": "OpenEXR", "hdr": "Radiance HDR", "dds": "DDS", "qoi": "QOI", "ppm": "PNM", "pgm": "PNM",
        "pbm": "PNM", "pnm": "PNM", "pam": "PNM", "jng": "JNG", "mng": "MNG", "apng": "APNG",
    ]

    /// The name of the image format files with extension `ext` (lowercase) usually hold,
    /// among those ImageWall does not read: "BMP", "RAW camera file".
    public static func formatName(forExtension ext: String) -> String? {
        rawExtensions.contains(ext) ? "RAW camera file (\(ext.uppercased()))" : byExtension[ext]
    }

    /// Why a file named `fileName` that starts with `bytes` is not read, when it is an image of
    /// another format or a damaged one of ours: "BMP is not a supported format". `nil` when it
    /// does not look like an image at all.
    public static func reason(forFileStarting bytes: some Collection<UInt8>, named fileName: String) -> String? {
        let start = Array(bytes.prefix(16))
        func starts(_ prefix: [UInt8]) -> Bool { start.starts(with: prefix) }
        func text(_ s: String) -> [UInt8] { Array(s.utf8) }
        let ext = fileName.split(separator: "/").last.flatMap { name in
            name.lastIndex(of: ".").map { String(name[name.index(after: $0)...]).lowercased() }
        }
        if let ext, rawExtensions.contains(ext) {
            return "RAW camera file (\(ext.uppercased())) is not a supported format"
        }
        var name: String?
        if starts(text("BM")) && start.count >= 14 {
            name = "BMP"
        } else if starts([0xFF, 0x0A]) || starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) {
            name = "JPEG XL"
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
            ext.map({ byExtension[$0] == "PNM" }) ?? false
        {
            name = "PNM"
        } else if starts([0x89, 0x50, 0x4E, 0x47]) {
            return "corrupt PNG: damaged signature"
        } else if starts([0xFF, 0xD8]) {
            return "corrupt JPEG: damaged start of image"
        } else if let ext, let known = byExtension[ext] {
            name = known
        } else if isSVG(bytes) {
            name = "SVG"
        }
        return name.map { "\($0) is not a supported format" }
    }

    private static func isSVG(_ bytes: some Collection<UInt8>) -> Bool {
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self).lowercased()
        return head.contains("<svg")
    }
}
