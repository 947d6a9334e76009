import WallCore

/// How an image stores colour.
public enum ColorModel: String, Sendable, Codable {
    /// One grey channel.
    case gray
    /// Grey and alpha.
    case grayAlpha = "gray+alpha"
    /// Red, green, blue (PNG truecolour, or JPEG stored as RGB).
    case rgb
    /// Red, green, blue, alpha.
    case rgba
    /// Indexed colours from a palette (PNG, GIF, TIFF).
    case palette
    /// Luma and chroma (JPEG, HEIF, AVIF, lossy WebP, TIFF).
    case ycbcr
    /// CMYK inks (JPEG, TIFF).
    case cmyk
    /// JPEG CMYK with the CMY part stored as YCbCr (Adobe transform 2).
    case ycck
    /// CIE L*a*b* (TIFF).
    case lab
    /// One bit a pixel, black and white (TIFF fax images).
    case bilevel
}

/// What a file's header says about it, read without decoding any pixels.
public struct ImageInfo: Hashable, Sendable, Codable {
    /// The format sniffed from the leading bytes.
    public var format: ImageFormat
    /// The size the pixels are stored at.
    public var storedSize: Size
    /// The orientation ImageWall applies: EXIF (JPEG, PNG eXIf, WebP) or the TIFF tag; 1 when the
    /// file has none, and for HEIF, whose transformations libheif applies itself.
    public var orientation: Orientation
    /// How colour is stored.
    public var colorModel: ColorModel
    /// Bits per sample.
    public var bitDepth: Int
    /// `true` when the image has an alpha channel or PNG transparency (tRNS).
    public var hasAlpha: Bool
    /// `true` for progressive JPEGs, Adam7-interlaced PNGs and interlaced GIFs.
    public var isProgressive: Bool
    /// The JPEG chroma subsampling, e.g. "4:2:0", or `nil` where it does not apply.
    public var chromaSubsampling: String?
    /// `true` when the file describes its colours other than as plain sRGB: an embedded ICC
    /// profile, or a HEIF file's nclx colour with other primaries or tone curve.
    public var hasICCProfile: Bool
    /// When the photo was taken, as EXIF writes it ("2024:05:01 14:03:22"), if recorded.
    public var dateTaken: String?
    /// Body, lens and exposure, when the file records any.
    public var camera: CameraInfo?
    /// Smaller versions of the image the file holds (HEIF thumbnails, TIFF reduced-resolution
    /// levels), in stored pixels, smallest first; `nil` when there are none.
    public var reducedSizes: [Size]?
    /// Where in the file the small JPEG EXIF keeps of the picture lies (its bytes), when it has
    /// one: a camera's 160x120 thumbnail, which `--stack` fingerprints instead of decoding.
    public var embeddedThumbnail: Range<Int>?
    /// Where in the file a RAW file's JPEG preview lies (its bytes), when the file holds it there
    /// just as LibRaw reads it: decoded from there, without LibRaw reading the file again.
    public var embeddedPreview: Range<Int>?
    /// The program that wrote the file, as its header names it (a PNG's Software text, a JPEG's
    /// or WebP's EXIF Software), if it does: how ImageWall knows its own sheets among the inputs.
    public var software: String?
    /// What the pixels are drawn from, for a file that holds several pictures of one image: a
    /// RAW file's `preview 6000x4000 JPEG` or `sensor, half size`, a video's `frame of H.264`.
    public var drawnFrom: String?
    /// The size of a bigger picture of the same image the file also holds, decoded instead when
    /// a tile needs more than the stored one (a RAW file's sensor data, developed at half size,
    /// beside a small preview); stored pixels.
    public var fullerSize: Size?
    /// The size of the image the file records, where what it draws is a smaller picture of it (a
    /// RAW file's image as LibRaw develops it whole, beside the preview drawn); stored pixels,
    /// before ``orientation``. `nil` where the picture drawn is the image.
    public var capturedSize: Size?
    /// A video's length in seconds, when its container says it; `nil` for still images.
    public var duration: Double?
    /// How many pages the file holds, when it holds more than one a render can draw apart (a PDF).
    public var pageCount: Int?
    /// Which of them this is, from 1, when a render draws each page as its own tile
    /// (`--pages all`); `nil` for the first page drawn as the file.
    public var page: Int?
    /// The identifier a phone gives both files of a Live Photo (Apple's content identifier in a
    /// movie's metadata), when recorded.
    public var contentIdentifier: String?
    /// The decoder, with its version, when it does not give the same pixels on every CPU (it
    /// computes in floating point with vector kernels chosen by the CPU: libjxl for lossy and
    /// recompressed JPEG XL files): "libjxl 0.7.0". `nil` for the decoders that are exact.
    public var inexactDecoder: String?

    /// Creates header information.
    public init(
        format: ImageFormat, storedSize: Size, orientation: Orientation = .up,
        colorModel: ColorModel, bitDepth: Int, hasAlpha: Bool, isProgressive: Bool,
        chromaSubsampling: String? = nil, hasICCProfile: Bool = false, dateTaken: String? = nil,
        reducedSizes: [Size]? = nil, software: String? = nil
    ) {
        self.format = format
        self.storedSize = storedSize
        self.orientation = orientation
        self.colorModel = colorModel
        self.bitDepth = bitDepth
        self.hasAlpha = hasAlpha
        self.isProgressive = isProgressive
        self.chromaSubsampling = chromaSubsampling
        self.hasICCProfile = hasICCProfile
        self.dateTaken = dateTaken
        self.reducedSizes = reducedSizes
        self.software = software
    }

    /// The size as displayed, after the orientation is applied.
    public var displayedSize: Size { orientation.displayedSize(ofStored: storedSize) }
}
