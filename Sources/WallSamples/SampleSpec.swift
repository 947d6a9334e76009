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

    /// A JPEG: colour storage, chroma subsampling ("4:2:0", "4:2:2", "4:4:4"), progressive.
    case jpeg(color: JPEGColor, subsampling: String, progressive: Bool)
    /// A PNG: colour type, bits a sample, palette transparency, Adam7.
    case png(color: PNGColor, bitDepth: Int, transparency: Bool, interlaced: Bool)

    /// `true` when the stored picture keeps only grey levels.
    public var isGray: Bool {
        switch self {
        case .jpeg(let color, _, _): return color == .gray
        case .png(let color, _, _, _): return color == .gray || color == .grayAlpha
        }
    }

    /// `true` when the stored picture has transparent parts.
    public var hasAlpha: Bool {
        switch self {
        case .jpeg: return false
        case .png(let color, _, let transparency, _):
            return color == .rgba || color == .grayAlpha || transparency
        }
    }

    /// `true` for lossy storage.
    public var isLossy: Bool {
        if case .jpeg = self { return true }
        return false
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
    /// The EXIF orientation written (JPEG only); `nil` writes no EXIF block.
    public var orientation: Orientation?

    /// The label drawn on the picture: the file name without its extension.
    public var label: String {
        fileName.split(separator: ".").dropLast().joined(separator: ".")
    }

    /// The stored pixel size.
    public var storedSize: Size {
        (orientation ?? .up).displayedSize(ofStored: displayedSize)
    }
}

/// Every sample the generator writes, in file-name order.
public enum SampleCatalog {
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
        return specs.sorted { $0.fileName < $1.fileName }
    }()
}
