import CPNGShim
import WallCore
import WallFiles

/// Options for writing a whole PNG in any colour type and bit depth.
public struct PNGEncodeOptions: Sendable {
    /// PNG colour types.
    public enum ColorType: Int32, Sendable {
        case gray = 0, rgb = 2, palette = 3, grayAlpha = 4, rgba = 6

        /// Samples a pixel.
        public var samples: Int {
            switch self {
            case .gray, .palette: return 1
            case .grayAlpha: return 2
            case .rgb: return 3
            case .rgba: return 4
            }
        }
    }

    /// The colour type written.
    public var colorType: ColorType
    /// Bits a sample: 1, 2, 4, 8 or 16 as the colour type allows.
    public var bitDepth: Int = 8
    /// Adam7 interlacing.
    public var interlaced = false
    /// How the data is deflated: libpng's own default (the sample generator and general PNG
    /// writing; the sheet's settings are the renderer's, see `RenderSettings`).
    public var compression: PNGCompression = PNGEncodeOptions.defaultCompression
    /// The rows' filter: libpng's adaptive choice by default.
    public var filter: PNGFilter = PNGEncodeOptions.defaultFilter
    /// Palette entries, RGB, for `.palette`.
    public var palette: [(UInt8, UInt8, UInt8)] = []
    /// Alpha of the first palette entries (tRNS), for `.palette`.
    public var paletteAlpha: [UInt8] = []
    /// An ICC profile embedded as iCCP.
    public var icc: [UInt8]?
    /// EXIF (the TIFF structure) embedded as eXIf, before the image data.
    public var exif: [UInt8]?

    /// Options for `colorType`, 8 bits, not interlaced.
    public init(colorType: ColorType) { self.colorType = colorType }

    /// libpng's own default deflate: level 6.
    public static let defaultCompression = PNGCompression.deflate(level: 6)
    /// libpng's own default filter: adaptive.
    public static let defaultFilter = PNGFilter.adaptive
}

/// Writes whole PNG images from samples already packed as PNG stores them.
public enum PNGEncoder {
    /// Writes `rows` (each `rowBytes` long; 16-bit samples big-endian, sub-byte samples packed
    /// from the high bits) to `path`, atomically (flushed to the disk first when `durable`).
    public static func write(
        rows: [UInt8], rowBytes: Int, size: Size, options: PNGEncodeOptions, to path: String, durable: Bool = true
    ) throws(CodecError) {
        precondition(rows.count == rowBytes * size.height)
        let file = try CodecError.reporting { () throws(FileError) in
            try AtomicFile(destination: path, durable: durable)
        }
        guard let encoder = iw_png_encoder_create(file.handle) else {
            throw CodecError(.write, path: path, reason: "out of memory")
        }
        defer { iw_png_encoder_destroy(encoder) }
        let palette = options.palette.flatMap { [$0.0, $0.1, $0.2] }
        let icc = options.icc ?? []
        let status = palette.withUnsafeBufferPointer { paletteBytes in
            icc.withUnsafeBufferPointer { iccBytes in
                options.paletteAlpha.withUnsafeBufferPointer { alphaBytes in
                    (options.exif ?? []).withUnsafeBufferPointer { exifBytes in
                        var c = iw_png_encode_options()
                        c.width = UInt32(size.width)
                        c.height = UInt32(size.height)
                        c.color_type = options.colorType.rawValue
                        c.bit_depth = Int32(options.bitDepth)
                        c.interlaced = options.interlaced ? 1 : 0
                        (c.compression_level, c.run_length) = options.compression.zlibSettings
                        c.filters = options.filter.type
                        c.palette = paletteBytes.baseAddress
                        c.palette_count = Int32(options.palette.count)
                        c.trns = alphaBytes.baseAddress
                        c.trns_count = Int32(options.paletteAlpha.count)
                        c.icc = options.icc == nil ? nil : iccBytes.baseAddress
                        c.icc_size = icc.count
                        c.exif = options.exif == nil ? nil : exifBytes.baseAddress
                        c.exif_size = options.exif?.count ?? 0
                        guard iw_png_write_header(encoder, &c) == 0 else { return Int32(1) }
                        return rows.withUnsafeBufferPointer { iw_png_write_image(encoder, $0.baseAddress!, rowBytes) }
                    }
                }
            }
        }
        guard status == 0, iw_png_write_end(encoder) == 0 else {
            throw CodecError(.write, path: path, reason: String(cString: iw_png_encoder_message(encoder)))
        }
        try CodecError.reporting { () throws(FileError) in try file.commit() }
    }

    /// Writes an 8-bit RGB or RGBA bitmap (straight alpha) to `path`, atomically (flushed to the
    /// disk first when `durable`).
    public static func write(
        _ bitmap: Bitmap, to path: String, compression: PNGCompression = PNGEncodeOptions.defaultCompression,
        filter: PNGFilter = PNGEncodeOptions.defaultFilter,
        durable: Bool = true
    ) throws(CodecError) {
        precondition(bitmap.alpha != .premultiplied, "PNG stores straight alpha")
        var options = PNGEncodeOptions(colorType: bitmap.alpha == .none ? .rgb : .rgba)
        options.compression = compression
        options.filter = filter
        try write(
            rows: bitmap.pixels, rowBytes: bitmap.rowBytes, size: bitmap.size, options: options, to: path,
            durable: durable)
    }
}
