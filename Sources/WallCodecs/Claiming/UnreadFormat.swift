/// Images ImageWall recognises but does not read, so that such a file is reported with what
/// it is, never silently left out of a sheet: the catalogue asked after every codec.
public struct UnreadFormat: FormatClaimant {
    /// Asked last, when no codec reads the file.
    var priority: ClaimPriority { .catalogue }
    /// Image formats by extension, for those their first bytes do not tell reliably.
    static let byExtension: [String: String] = [
        "xcf": "GIMP XCF", "ico": "ICO", "cur": "ICO",
        "jng": "JNG", "mng": "MNG", "apng": "APNG", "eps": "EPS/PostScript", "ps": "EPS/PostScript",
    ]

    /// The formats read through FFmpeg, librsvg, poppler and OpenCV, by their extensions: a file
    /// so named that its codec did not claim is not that format inside.
    static let namedExtensions: [String: ImageFormat] = Dictionary(
        (ImageFormat.stills + [.svg, .pdf, .radiance]).flatMap { format in format.extensions.map { ($0, format) } },
        uniquingKeysWith: { first, _ in first })

    /// The signatures of the still formats FFmpeg reads that are distinct enough to say a file
    /// holds one whose header is damaged.
    static let stillSignatures: [(start: [UInt8], format: ImageFormat)] = [
        (Array("BM".utf8), .bmp), ([0xFF, 0x4F, 0xFF, 0x51], .jpeg2000),
        ([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20], .jpeg2000), (Array("8BPS".utf8), .psd),
        (Array("qoif".utf8), .qoi), ([0x76, 0x2F, 0x31, 0x01], .exr), (Array("DDS ".utf8), .dds),
        (Array("SIMPLE  =".utf8), .fits),
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
        if starts([0x00, 0x00, 0x01, 0x00]) && ext == "ico" {
            name = "ICO"
        } else if starts(text("%!PS")) || starts([0xC5, 0xD0, 0xD3, 0xC6]) {
            name = "EPS/PostScript"
        } else if let still = Self.stillSignatures.first(where: { starts($0.start) }) {
            // The signature of a format FFmpeg reads, whose header its codec found wrong.
            return .unread(
                .damaged(format: still.format.name, what: "its header is not one \(still.format.name) allows"))
        } else if starts(text("gimp xcf")) {
            name = "GIMP XCF"
        } else if starts([0x89, 0x50, 0x4E, 0x47]) {
            return .unread(.damaged(format: "PNG", what: "damaged signature"))
        } else if starts([0xFF, 0xD8]) {
            return .unread(.damaged(format: "JPEG", what: "damaged start of image"))
        } else if let ext, let named = Self.namedExtensions[ext] {
            return .unread(.damaged(format: named.name, what: "its first bytes are not those of a \(named.name) file"))
        } else if let ext, let known = Self.byExtension[ext] {
            name = known
        }
        return name.map { .unread(.unsupported(format: $0)) }
    }
}
