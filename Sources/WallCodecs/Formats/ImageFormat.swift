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
    /// Windows and OS/2 bitmaps, through FFmpeg.
    case bmp
    /// Truevision TGA, through FFmpeg.
    case tga
    /// Photoshop documents (their composite picture), through FFmpeg.
    case psd
    /// OpenEXR, scene-linear light shown as sRGB, through FFmpeg.
    case exr
    /// DirectDraw surfaces (their first level), through FFmpeg.
    case dds
    /// The Quite OK Image format, through FFmpeg.
    case qoi
    /// PC Paintbrush, through FFmpeg.
    case pcx
    /// Silicon Graphics images, through FFmpeg.
    case sgi
    /// Netpbm's PBM, PGM, PPM, PAM and the floating-point PFM and PHM, through FFmpeg.
    case pnm
    /// X bitmaps, through FFmpeg.
    case xbm
    /// X Window dumps, through FFmpeg.
    case xwd
    /// FITS, the astronomers' format (its data range stretched), through FFmpeg.
    case fits
    /// JPEG 2000 (JP2 files and bare codestreams), through OpenJPEG in FFmpeg.
    case jpeg2000
    /// JPEG-LS, through FFmpeg.
    case jpegls
    /// SVG (and gzipped SVGZ), drawn at the tile's size by librsvg and cairo.
    case svg
    /// PDF and Illustrator files (their first page), drawn at the tile's size by poppler and cairo.
    case pdf
    /// Radiance HDR (RGBE), its light shown as sRGB, through OpenCV's imgcodecs.
    case radiance

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
        case .bmp: return StillCodec<BMPHeader>()
        case .tga: return StillCodec<TGAHeader>()
        case .psd: return StillCodec<PSDHeader>()
        case .exr: return EXRCodec()
        case .dds: return StillCodec<DDSHeader>()
        case .qoi: return StillCodec<QOIHeader>()
        case .pcx: return StillCodec<PCXHeader>()
        case .sgi: return StillCodec<SGIHeader>()
        case .pnm: return StillCodec<PNMHeader>()
        case .xbm: return StillCodec<XBMHeader>()
        case .xwd: return StillCodec<XWDHeader>()
        case .fits: return StillCodec<FITSHeader>()
        case .jpeg2000: return StillCodec<JPEG2000Header>()
        case .jpegls: return StillCodec<JPEGLSHeader>()
        case .svg, .pdf: return VectorCodec()
        case .radiance: return RadianceCodec()
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
        case .bmp: return "BMP"
        case .tga: return "TGA"
        case .psd: return "PSD"
        case .exr: return "OpenEXR"
        case .dds: return "DDS"
        case .qoi: return "QOI"
        case .pcx: return "PCX"
        case .sgi: return "SGI"
        case .pnm: return "PNM"
        case .xbm: return "XBM"
        case .xwd: return "XWD"
        case .fits: return "FITS"
        case .jpeg2000: return "JPEG 2000"
        case .jpegls: return "JPEG-LS"
        case .svg: return "SVG"
        case .pdf: return "PDF"
        case .radiance: return "Radiance HDR"
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
        case .bmp: return ["bmp"]
        case .tga: return ["tga", "icb", "vda", "vst", "tpic"]
        case .psd: return ["psd"]
        case .exr: return ["exr"]
        case .dds: return ["dds"]
        case .qoi: return ["qoi"]
        case .pcx: return ["pcx"]
        case .sgi: return ["sgi", "rgb", "rgba", "bw"]
        case .pnm: return ["pbm", "pgm", "ppm", "pnm", "pam", "pfm", "phm"]
        case .xbm: return ["xbm"]
        case .xwd: return ["xwd"]
        case .fits: return ["fits", "fit", "fts"]
        case .jpeg2000: return ["jp2", "j2k", "j2c", "jpc", "jpf", "jpx"]
        case .jpegls: return ["jls"]
        case .svg: return ["svg", "svgz"]
        case .pdf: return ["pdf", "ai"]
        case .radiance: return ["hdr", "rgbe"]
        }
    }

    /// "JPEG, PNG, …, TIFF and GIF": every format ImageWall reads, for messages.
    public static var names: String {
        let names = allCases.map(\.name)
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    /// Every codec, once each (HEIF and AVIF share one, as SVG and PDF do).
    static let codecs: [any ImageCodec] =
        [
            RAWCodec(), JPEGCodec(), PNGCodec(), WebPCodec(), GIFCodec(), JXLCodec(), VideoCodec(), TIFFCodec(),
            HEIFCodec(), VectorCodec(), RadianceCodec(),
        ] + ImageFormat.stills.map(\.codec)

    /// The formats FFmpeg's image decoders read, each through a ``StillCodec``.
    static let stills: [ImageFormat] = [
        .jpegls, .bmp, .psd, .exr, .dds, .qoi, .sgi, .xwd, .fits, .jpeg2000, .pnm, .xbm, .tga, .pcx,
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
