import CTIFFShim
import WallCore

/// One page of a TIFF file to write: samples as TIFF stores them.
public struct TIFFPage: Sendable {
    /// How the samples are to be read.
    public enum Color: Sendable {
        case gray, grayAlpha, rgb, rgba, cmyk
        /// Colour indices into a palette of 16-bit RGB entries (2^bits of them).
        case palette([(UInt16, UInt16, UInt16)])
    }

    /// TIFF compression schemes libtiff writes.
    public enum Compression: Int32, Sendable {
        case none = 1, ccittFax4 = 4, lzw = 5, jpeg = 7, deflate = 8, packBits = 32773
    }

    /// Samples, rows packed; 16-bit samples in the machine's byte order.
    public var samples: [UInt8]
    /// Pixel size.
    public var size: Size
    /// What the samples are.
    public var color: Color
    /// Bits a sample.
    public var bits = 8
    /// Compression.
    public var compression = Compression.none
    /// Tile size, or `nil` for strips.
    public var tile: Size?
    /// The Orientation tag.
    public var orientation: Orientation = .up
    /// An ICC profile.
    public var icc: [UInt8]?

    /// A page of `samples`.
    public init(samples: [UInt8], size: Size, color: Color) {
        self.samples = samples
        self.size = size
        self.color = color
    }
}

/// Writes TIFF files through libtiff.
public enum TIFFEncoder {
    /// Writes `pages` (the first is the image ImageWall shows) to `path`.
    public static func write(_ pages: [TIFFPage], to path: String) throws(CodecError) {
        var message = [CChar](repeating: 0, count: 512)
        let colormaps: [[UInt16]] = pages.map { page in
            guard case .palette(let entries) = page.color else { return [] }
            let count = 1 << page.bits
            let padded = entries + Array(repeating: (0, 0, 0), count: max(0, count - entries.count))
            return padded.map(\.0) + padded.map(\.1) + padded.map(\.2)
        }
        // Keep every buffer alive while libtiff reads them.
        let status = withPages(pages, colormaps, index: 0, built: []) { described in
            iw_tiff_write(path, described, Int32(described.count), &message, message.count)
        }
        guard status == 0 else { throw CodecError(.write, path: path, reason: message.text) }
    }

    private static func withPages(
        _ pages: [TIFFPage], _ colormaps: [[UInt16]], index: Int, built: [iw_tiff_page],
        _ body: ([iw_tiff_page]) -> Int32
    ) -> Int32 {
        guard index < pages.count else { return body(built) }
        let page = pages[index]
        return page.samples.withUnsafeBufferPointer { samples in
            colormaps[index].withUnsafeBufferPointer { colormap in
                (page.icc ?? []).withUnsafeBufferPointer { icc in
                    var d = iw_tiff_page()
                    d.pixels = samples.baseAddress
                    d.width = UInt32(page.size.width)
                    d.height = UInt32(page.size.height)
                    d.bits = Int32(page.bits)
                    switch page.color {
                    case .gray: d.channels = 1
                    case .grayAlpha: d.channels = 2
                    case .rgb: d.channels = 3
                    case .rgba: d.channels = 4
                    case .cmyk: (d.channels, d.cmyk) = (4, 1)
                    case .palette: (d.channels, d.palette) = (1, 1)
                    }
                    d.colormap = colormap.baseAddress
                    d.tiled = page.tile == nil ? 0 : 1
                    d.tile_width = UInt32(page.tile?.width ?? 0)
                    d.tile_height = UInt32(page.tile?.height ?? 0)
                    d.compression = page.compression.rawValue
                    d.orientation = Int32(page.orientation.rawValue)
                    d.icc = page.icc == nil ? nil : icc.baseAddress
                    d.icc_size = UInt32(page.icc?.count ?? 0)
                    return withPages(pages, colormaps, index: index + 1, built: built + [d], body)
                }
            }
        }
    }
}
