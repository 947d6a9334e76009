import WallCore

/// How a sample is stored on disk.
public enum SampleEncoding: Sendable, Hashable {
    /// JPEG colour storage.
    public enum JPEGColor: Sendable, Hashable {
        case ycbcr, rgb, gray, cmyk, ycck
    }

    /// PNG colour types.
    public enum PNGColor: Sendable, Hashable {
        case gray, grayAlpha, rgb, rgba, palette
    }

    /// TIFF colour storage.
    public enum TIFFColor: Sendable, Hashable {
        case gray, rgb, rgba, cmyk, palette
    }

    /// A JPEG: colour storage, chroma subsampling ("4:2:0", "4:2:2", "4:4:4"), progressive.
    case jpeg(color: JPEGColor, subsampling: String, progressive: Bool)
    /// A PNG: colour type, bits a sample, palette transparency, Adam7.
    case png(color: PNGColor, bitDepth: Int, transparency: Bool, interlaced: Bool)
    /// HEIF through libheif: AV1 (AVIF) or HEVC (HEIC), alpha, the longest side of an
    /// embedded thumbnail (0: none).
    case heif(av1: Bool, alpha: Bool, thumbnail: Int)
    /// WebP: lossless or lossy, alpha, frames (more than one: an animation whose first frame
    /// is the picture).
    case webp(lossless: Bool, alpha: Bool, frames: Int)
    /// TIFF: colour, bits a sample, compression (libtiff's), tiles, pages (the first is the
    /// picture, later ones its negative).
    case tiff(color: TIFFColor, bitDepth: Int, compression: String, tiled: Bool, pages: Int)
    /// GIF: the 6×6×6 palette, a transparent index, interlacing, frames.
    case gif(transparency: Bool, interlaced: Bool, frames: Int)
    /// JPEG XL made by libjxl's `cjxl`: lossless or lossy, alpha.
    case jxl(lossless: Bool, alpha: Bool)
    /// A video made by `ffmpeg` with FFmpeg's encoder `codec` (`libx264`, `libvpx-vp9`): 1.5 s
    /// of black, then the picture for 2.5 s, at 5 frames a second; an orientation is written as
    /// the display matrix of an MP4 or MOV.
    case video(codec: String)
    /// A still image written by `ffmpeg` with FFmpeg's image encoder `encoder` ("bmp", "targa",
    /// "libopenjpeg") at `pixelFormat`; `linear` turns the picture to linear light first, as
    /// floating-point formats (OpenEXR, PFM) hold it.
    case ffmpegImage(encoder: String, pixelFormat: String, alpha: Bool, linear: Bool)
    /// A Photoshop document holding only its composite picture (no layers), RGB, 8 bits,
    /// uncompressed; written by the generator (FFmpeg has no PSD encoder). With `alpha`, a fourth
    /// channel (the transparency only where a document says so by a negative layer count).
    case psd(alpha: Bool)
    /// A DirectDraw surface of uncompressed BGRA, one level; written by the generator.
    case dds
    /// An X bitmap (C text), black where the picture's luma is under 128; written by the generator.
    case xbm
    /// The picture drawn as vectors (gradient, squares, disc, arrow; no label), as SVG with its
    /// transparent hole and half-transparent strip, or as a one-page PDF on its own page size.
    case vector(pdf: Bool)

    /// `true` when the stored picture keeps only grey levels.
    public var isGray: Bool {
        switch self {
        case .jpeg(let color, _, _): return color == .gray
        case .png(let color, _, _, _): return color == .gray || color == .grayAlpha
        case .tiff(let color, _, _, _, _): return color == .gray
        case .heif, .webp, .gif, .jxl, .video, .psd, .dds, .vector: return false
        case .ffmpegImage(_, let pixelFormat, _, _): return pixelFormat.hasPrefix("gray")
        case .xbm: return true
        }
    }

    /// `true` when the stored picture has transparent parts.
    public var hasAlpha: Bool {
        switch self {
        case .jpeg: return false
        case .png(let color, _, let transparency, _):
            return color == .rgba || color == .grayAlpha || transparency
        case .heif(_, let alpha, _), .webp(_, let alpha, _): return alpha
        case .tiff(let color, _, _, _, _): return color == .rgba
        case .gif(let transparency, _, _): return transparency
        case .jxl(_, let alpha): return alpha
        case .video: return false
        case .ffmpegImage(_, _, let alpha, _), .psd(let alpha): return alpha
        case .dds: return true
        case .vector(let pdf): return !pdf
        case .xbm: return false
        }
    }

    /// `true` when colours are mapped to the 6×6×6 palette (alpha to 0 or 255).
    public var isPaletted: Bool {
        switch self {
        case .png(.palette, _, _, _), .tiff(.palette, _, _, _, _), .gif: return true
        default: return false
        }
    }

    /// `true` for lossy storage.
    public var isLossy: Bool {
        switch self {
        case .jpeg, .heif, .video: return true
        case .webp(let lossless, _, _): return !lossless
        case .jxl(let lossless, _): return !lossless
        case .tiff(_, _, let compression, _, _): return compression == "jpeg"
        case .ffmpegImage(let encoder, _, _, _): return encoder == "libopenjpeg"
        case .png, .gif, .psd, .dds, .vector, .xbm: return false
        }
    }
}

/// One picture of `SampleImages/`: its file name, displayed size, storage and orientation.
public struct SampleSpec: Sendable, Hashable {
    /// File name inside `SampleImages/`.
    public var fileName: String
    /// The size the picture is shown at (after EXIF orientation).
    public var displayedSize: Size
    /// How the file stores it.
    public var encoding: SampleEncoding
    /// The orientation written: EXIF (JPEG, PNG eXIf, WebP), the Orientation tag (TIFF), or
    /// irot/imir transformations (HEIF); `nil` writes none.
    public var orientation: Orientation?

    /// The label drawn on the picture: the file name without its extension.
    public var label: String {
        fileName.split(separator: ".").dropLast().joined(separator: ".")
    }

    /// The stored pixel size.
    public var storedSize: Size {
        (orientation ?? .up).displayedSize(ofStored: displayedSize)
    }

    /// The orientation a probe reports: as written, except for HEIF, whose transformations
    /// libheif applies (so the probe sees the picture upright).
    public var probedOrientation: Orientation {
        if case .heif = encoding { return .up }
        return orientation ?? .up
    }

    /// The size a probe reports as stored.
    public var probedStoredSize: Size { probedOrientation.displayedSize(ofStored: displayedSize) }
}

/// Every sample the generator writes, in file-name order.
public enum SampleCatalog {
    /// Every sample, sorted by file name.
    public static let all: [SampleSpec] = {
        var specs: [SampleSpec] = []
        func jpeg(
            _ name: String, _ w: Int, _ h: Int, _ color: SampleEncoding.JPEGColor = .ycbcr,
            _ subsampling: String = "4:2:0", progressive: Bool = false, orientation: Orientation? = nil
        ) {
            specs.append(
                SampleSpec(
                    fileName: name, displayedSize: Size(width: w, height: h),
                    encoding: .jpeg(color: color, subsampling: subsampling, progressive: progressive),
                    orientation: orientation))
        }
        func png(
            _ name: String, _ w: Int, _ h: Int, _ color: SampleEncoding.PNGColor, depth: Int = 8,
            transparency: Bool = false, interlaced: Bool = false
        ) {
            specs.append(
                SampleSpec(
                    fileName: name, displayedSize: Size(width: w, height: h),
                    encoding: .png(color: color, bitDepth: depth, transparency: transparency, interlaced: interlaced),
                    orientation: nil))
        }
        jpeg("landscape-baseline-420.jpg", 480, 320)
        jpeg("portrait-progressive-420.jpg", 320, 480, progressive: true)
        jpeg("square-baseline-444.jpg", 400, 400, .ycbcr, "4:4:4")
        jpeg("square-baseline-422.jpg", 360, 360, .ycbcr, "4:2:2")
        jpeg("panorama-4x1.jpg", 800, 200)
        jpeg("tall-1x3-progressive-444.jpg", 200, 600, .ycbcr, "4:4:4", progressive: true)
        jpeg("grayscale.jpg", 400, 300, .gray)
        jpeg("rgb-stored.jpg", 360, 270, .rgb, "4:4:4")
        jpeg("cmyk-adobe.jpg", 360, 300, .cmyk, "4:4:4")
        jpeg("ycck-adobe.jpg", 300, 360, .ycck)
        for value in 1...8 {
            let orientation = Orientation(rawValue: value)!
            let progressive = value % 3 == 0
            jpeg(
                "orientation-\(value).jpg", value % 2 == 0 ? 240 : 360, value % 2 == 0 ? 360 : 240,
                progressive: progressive, orientation: orientation)
        }
        png("png-gray.png", 300, 300, .gray)
        png("png-gray-4bit.png", 320, 240, .gray, depth: 4)
        png("png-gray-alpha.png", 300, 360, .grayAlpha)
        png("png-rgb.png", 420, 280, .rgb)
        png("png-rgba.png", 360, 360, .rgba)
        png("png-palette.png", 400, 260, .palette)
        png("png-palette-trns.png", 300, 400, .palette, transparency: true)
        png("png-rgb-16bit.png", 320, 320, .rgb, depth: 16)
        png("png-rgba-16bit.png", 280, 360, .rgba, depth: 16)
        png("png-interlaced.png", 400, 300, .rgb, interlaced: true)
        png("png-interlaced-rgba.png", 300, 300, .rgba, interlaced: true)
        func add(_ name: String, _ w: Int, _ h: Int, _ encoding: SampleEncoding, orientation: Orientation? = nil) {
            specs.append(
                SampleSpec(
                    fileName: name, displayedSize: Size(width: w, height: h), encoding: encoding,
                    orientation: orientation))
        }
        add(
            "png-exif-6.png", 240, 360, .png(color: .rgb, bitDepth: 8, transparency: false, interlaced: false),
            orientation: .right)
        add("heic-thumbnail.heic", 480, 320, .heif(av1: false, alpha: false, thumbnail: 160))
        add("heic-rotated-6.heic", 240, 360, .heif(av1: false, alpha: false, thumbnail: 0), orientation: .right)
        add("avif-alpha.avif", 360, 300, .heif(av1: true, alpha: true, thumbnail: 0))
        add("webp-exif-6.webp", 240, 360, .webp(lossless: false, alpha: false, frames: 1), orientation: .right)
        add("webp-lossless-alpha.webp", 320, 320, .webp(lossless: true, alpha: true, frames: 1))
        add("webp-animated.webp", 300, 200, .webp(lossless: false, alpha: false, frames: 2))
        add(
            "tiff-rgb-16bit-deflate.tif", 320, 240,
            .tiff(color: .rgb, bitDepth: 16, compression: "deflate", tiled: false, pages: 1))
        add("tiff-cmyk-lzw.tif", 300, 300, .tiff(color: .cmyk, bitDepth: 8, compression: "lzw", tiled: false, pages: 1))
        add("tiff-rgba-lzw.tif", 300, 360, .tiff(color: .rgba, bitDepth: 8, compression: "lzw", tiled: false, pages: 1))
        add(
            "tiff-gray-tiled-jpeg.tif", 320, 256,
            .tiff(color: .gray, bitDepth: 8, compression: "jpeg", tiled: true, pages: 1))
        add(
            "tiff-two-pages.tif", 200, 160,
            .tiff(color: .rgb, bitDepth: 8, compression: "packbits", tiled: false, pages: 2))
        add(
            "tiff-palette-orientation-8.tif", 240, 360,
            .tiff(color: .palette, bitDepth: 8, compression: "none", tiled: false, pages: 1),
            orientation: .left)
        add("gif-animated.gif", 320, 240, .gif(transparency: false, interlaced: false, frames: 2))
        add("gif-interlaced-transparent.gif", 300, 300, .gif(transparency: true, interlaced: true, frames: 1))
        add("jxl-lossy.jxl", 420, 300, .jxl(lossless: false, alpha: false))
        add("jxl-lossless-alpha.jxl", 300, 300, .jxl(lossless: true, alpha: true))
        add("video-h264.mp4", 480, 270, .video(codec: "libx264"))
        add("video-vp9.webm", 320, 240, .video(codec: "libvpx-vp9"))
        add("video-rotated-6.mov", 270, 480, .video(codec: "libx264"), orientation: .right)
        func still(_ name: String, _ w: Int, _ h: Int, _ encoder: String, _ format: String, alpha: Bool = false) {
            add(name, w, h, .ffmpegImage(encoder: encoder, pixelFormat: format, alpha: alpha, linear: false))
        }
        still("bmp-rgb.bmp", 360, 240, "bmp", "bgr24")
        still("tga-rgba.tga", 300, 300, "targa", "bgra", alpha: true)
        still("sgi-rgb-16bit.sgi", 320, 240, "sgi", "rgb48be")
        still("pcx-rgb.pcx", 300, 200, "pcx", "rgb24")
        still("qoi-rgba.qoi", 280, 320, "qoi", "rgba", alpha: true)
        still("pnm-rgb.ppm", 320, 240, "ppm", "rgb24")
        still("pnm-gray-16bit.pgm", 240, 320, "pgm", "gray16be")
        still("xwd-rgb.xwd", 300, 240, "xwd", "bgr0")
        still("fits-rgb.fits", 320, 200, "fits", "gbrp")
        still("jpeg2000-rgb.jp2", 480, 320, "libopenjpeg", "rgb24")
        still("jpegls-rgb.jls", 300, 300, "jpegls", "rgb24")
        add(
            "exr-linear-alpha.exr", 320, 320,
            .ffmpegImage(encoder: "exr", pixelFormat: "gbrapf32le", alpha: true, linear: true))
        add(
            "pfm-linear.pfm", 300, 240,
            .ffmpegImage(encoder: "pfm", pixelFormat: "gbrpf32le", alpha: false, linear: true))
        add("psd-rgb.psd", 360, 300, .psd(alpha: false))
        add("dds-bgra.dds", 256, 256, .dds)
        add("svg-alpha.svg", 360, 300, .vector(pdf: false))
        add("xbm-bilevel.xbm", 240, 160, .xbm)
        add("pdf-vector.pdf", 400, 300, .vector(pdf: true))
        return specs.sorted { $0.fileName < $1.fileName }
    }()
}
