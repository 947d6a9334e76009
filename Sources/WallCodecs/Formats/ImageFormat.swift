/// The image formats ImageWall reads, told apart by their leading bytes (and their names only
/// where the bytes cannot tell): the catalogue. Adding a format means a case here, its codec in
/// ``codec`` and ``codecs``, its name and extensions, and a folder of its own under `Formats/`
/// with an ``ImageCodec`` at its ``ClaimPriority``.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    /// JPEG (JFIF, EXIF, Adobe), baseline, extended, progressive or arithmetic-coded.
    case jpeg
    /// PNG, every colour type and bit depth, interlaced or not.
    case png
    /// HEIF, e.g. HEIC photos from phones (HEVC), read through libheif.
    case heif
    /// AVIF (AV1 in HEIF), read through libheif.
    case avif
    /// WebP, lossy or lossless, still or animated.
    case webp
    /// TIFF and BigTIFF.
    case tiff
    /// GIF, still or animated.
    case gif
    /// JPEG XL, lossy or lossless, through libjxl.
    case jxl
    /// RAW camera files (NEF, CR2, DNG, ARW, …), drawn from their embedded JPEG previews through
    /// LibRaw.
    case raw
    /// Videos (MP4, MOV, MKV, WebM, AVI, …), drawn as a poster frame through FFmpeg's libraries.
    case video

    /// How this format is read.
    var codec: any ImageCodec {
        switch self {
        case .jpeg: return JPEGCodec()
        case .png: return PNGCodec()
        case .heif, .avif: return HEIFCodec()
        case .webp: return WebPCodec()
        case .tiff: return TIFFCodec()
        case .gif: return GIFCodec()
        case .raw: return RAWCodec()
        case .jxl: return JXLCodec()
        case .video: return VideoCodec()
        }
    }

    /// The format's usual name.
    public var name: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .heif: return "HEIF"
        case .avif: return "AVIF"
        case .webp: return "WebP"
        case .tiff: return "TIFF"
        case .gif: return "GIF"
        case .raw: return "RAW"
        case .jxl: return "JPEG XL"
        case .video: return "video"
        }
    }

    /// File-name extensions that usually hold this format (lowercase, without the dot).
    public var extensions: [String] {
        switch self {
        case .jpeg: return ["jpg", "jpeg", "jpe", "jfif"]
        case .png: return ["png"]
        case .heif: return ["heic", "heif", "hif"]
        case .avif: return ["avif"]
        case .webp: return ["webp"]
        case .tiff: return ["tif", "tiff"]
        case .gif: return ["gif"]
        case .raw:
            return [
                "3fr", "arw", "cr2", "cr3", "crw", "dcr", "dng", "erf", "gpr", "iiq", "k25", "kdc", "mef", "mos", "mrw",
                "nef", "nrw", "orf", "pef", "raf", "raw", "rw2", "rwl", "sr2", "srf", "srw", "x3f",
            ]
        case .jxl: return ["jxl"]
        case .video:
            return [
                "mp4", "m4v", "mov", "qt", "mkv", "webm", "avi", "3gp", "3g2", "mts", "m2ts", "ts", "mpg", "mpeg",
                "wmv", "asf", "flv", "ogv", "mxf", "dv", "vob",
            ]
        }
    }

    /// "JPEG, PNG, …, TIFF and GIF": every format ImageWall reads, for messages.
    public static var names: String {
        let names = allCases.map(\.name)
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    /// Every codec, once each (HEIF and AVIF share one).
    static let codecs: [any ImageCodec] = [
        RAWCodec(), JPEGCodec(), PNGCodec(), WebPCodec(), GIFCodec(), JXLCodec(), VideoCodec(), TIFFCodec(),
        HEIFCodec(),
    ]

    /// The format of a file starting with `bytes` (up to its first 64 KiB) by its bytes alone,
    /// or `nil` when it is none ImageWall reads. ``FileClaim/identify(_:)`` also asks the name.
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        let head = Array(bytes.prefix(65536))
        for case let codec as any ImageCodec in FileClaim.claimants {
            if let found = codec.sniff(head) { return found }
        }
        return nil
    }
}
