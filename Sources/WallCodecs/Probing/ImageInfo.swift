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
    /// Indexed colours from a palette (PNG).
    case palette
    /// JPEG luma and chroma.
    case ycbcr
    /// JPEG CMYK.
    case cmyk
    /// JPEG CMYK with the CMY part stored as YCbCr (Adobe transform 2).
    case ycck
}

/// What a file's header says about it, read without decoding any pixels.
public struct ImageInfo: Hashable, Sendable, Codable {
    /// The format sniffed from the leading bytes.
    public var format: ImageFormat
    /// The size the pixels are stored at.
    public var storedSize: Size
    /// The EXIF orientation (1 when the file has none).
    public var orientation: Orientation
    /// How colour is stored.
    public var colorModel: ColorModel
    /// Bits per sample.
    public var bitDepth: Int
    /// `true` when the image has an alpha channel or PNG transparency (tRNS).
    public var hasAlpha: Bool
    /// `true` for progressive JPEGs and Adam7-interlaced PNGs.
    public var isProgressive: Bool
    /// The JPEG chroma subsampling, e.g. "4:2:0", or `nil` where it does not apply.
    public var chromaSubsampling: String?
    /// `true` when the file embeds an ICC colour profile.
    public var hasICCProfile: Bool
    /// When the photo was taken, as EXIF writes it ("2024:05:01 14:03:22"), if recorded.
    public var dateTaken: String?

    /// Creates header information.
    public init(
        format: ImageFormat, storedSize: Size, orientation: Orientation = .up,
        colorModel: ColorModel, bitDepth: Int, hasAlpha: Bool, isProgressive: Bool,
        chromaSubsampling: String? = nil, hasICCProfile: Bool = false, dateTaken: String? = nil
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
    }

    /// The size as displayed, after the EXIF orientation is applied.
    public var displayedSize: Size { orientation.displayedSize(ofStored: storedSize) }
}
