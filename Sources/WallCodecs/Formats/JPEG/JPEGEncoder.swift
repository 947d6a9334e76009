import CJPEGShim
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Options for writing a JPEG.
public struct JPEGEncodeOptions: Sendable {
    /// How colour samples are stored.
    public enum Storage: Sendable {
        /// Grey input (1 component), stored as is.
        case gray
        /// RGB input converted to YCbCr (the usual JPEG).
        case ycbcr
        /// RGB input stored as RGB (Adobe transform 0).
        case rgb
        /// CMYK input (Adobe convention: inverted) stored as CMYK.
        case cmyk
        /// CMYK input stored as YCCK (Adobe transform 2).
        case ycck

        var components: Int {
            switch self {
            case .gray: return 1
            case .ycbcr, .rgb: return 3
            case .cmyk, .ycck: return 4
            }
        }
    }

    /// Chroma subsampling for YCbCr and YCCK.
    public enum Subsampling: Sendable {
        case s444, s422, s420
    }

    /// How colour is stored.
    public var storage: Storage
    /// Quality 1–100.
    public var quality = 90
    /// Progressive (libjpeg's simple progression) instead of baseline.
    public var progressive = false
    /// Chroma subsampling.
    public var subsampling = Subsampling.s420
    /// An APP1 payload (e.g. "Exif\0\0" + TIFF) written after SOI.
    public var app1: [UInt8]?
    /// An ICC profile embedded as APP2 chunks.
    public var icc: [UInt8]?
    /// Huffman tables made for the image (smaller files; libjpeg keeps the whole image's
    /// coefficients for the extra pass), or the standard ones (rows streamed through).
    public var optimizedTables = true

    /// Options for `storage`, quality 90, baseline, 4:2:0.
    public init(storage: Storage) { self.storage = storage }
}

/// Writes JPEG files through libjpeg.
public enum JPEGEncoder {
    /// Writes `samples` (tightly packed, as many channels as the storage's input) to `path`,
    /// atomically (flushed to the disk first when `durable`).
    public static func write(
        samples: [UInt8], size: Size, options: JPEGEncodeOptions, to path: String, durable: Bool = true
    ) throws(CodecError) {
        precondition(samples.count == size.width * size.height * options.storage.components)
        let file = try CodecError.reporting { () throws(FileError) in
            try AtomicFile(destination: path, durable: durable)
        }
        let writer = try JPEGStreamWriter(file: file, size: size, options: options)
        try samples.withUnsafeBufferPointer { rows throws(CodecError) in
            try writer.write(rows: rows, count: size.height)
        }
        try writer.finish()
        try CodecError.reporting { () throws(FileError) in try file.commit() }
    }
}

/// A JPEG written row by row as the rows are made, into an ``AtomicFile``. With
/// ``JPEGEncodeOptions/optimizedTables`` off and baseline coding, libjpeg holds a few rows,
/// never the image.
public final class JPEGStreamWriter {
    private let encoder: OpaquePointer
    private let path: String
    private let rowBytes: Int

    /// Starts the JPEG of `size` in `file` (its header and metadata written).
    public convenience init(file: AtomicFile, size: Size, options: JPEGEncodeOptions) throws(CodecError) {
        try self.init(handle: file.handle, name: file.destination, size: size, options: options)
    }

    /// Starts the JPEG of `size` in the stream `handle`, called `name` in errors.
    public init(handle: UnsafeMutablePointer<FILE>, name: String, size: Size, options: JPEGEncodeOptions)
        throws(CodecError)
    {
        path = name
        rowBytes = size.width * options.storage.components
        var message = [CChar](repeating: 0, count: 256)
        let app1 = options.app1 ?? [], icc = options.icc ?? []
        let started = app1.withUnsafeBufferPointer { app1Bytes in
            icc.withUnsafeBufferPointer { iccBytes in
                var c = iw_jpeg_encode_options()
                c.width = UInt32(size.width)
                c.height = UInt32(size.height)
                c.components = Int32(options.storage.components)
                c.quality = Int32(options.quality)
                c.progressive = options.progressive ? 1 : 0
                switch options.subsampling {
                case .s444: (c.luma_h_sampling, c.luma_v_sampling) = (1, 1)
                case .s422: (c.luma_h_sampling, c.luma_v_sampling) = (2, 1)
                case .s420: (c.luma_h_sampling, c.luma_v_sampling) = (2, 2)
                }
                c.keep_rgb = options.storage == .rgb ? 1 : 0
                c.ycck = options.storage == .ycck ? 1 : 0
                c.app1 = options.app1 == nil ? nil : app1Bytes.baseAddress
                c.app1_size = app1.count
                c.icc = options.icc == nil ? nil : iccBytes.baseAddress
                c.icc_size = icc.count
                c.standard_tables = options.optimizedTables ? 0 : 1
                return iw_jpeg_encoder_start(handle, &c, &message, message.count)
            }
        }
        guard let started else {
            throw CodecError(
                .write, path: path,
                reason: message.text)
        }
        encoder = started
    }

    deinit { iw_jpeg_encoder_destroy(encoder) }

    /// Writes the next `count` rows (tightly packed).
    public func write(rows: UnsafeBufferPointer<UInt8>, count: Int) throws(CodecError) {
        precondition(rows.count >= count * rowBytes)
        guard iw_jpeg_encoder_write_rows(encoder, rows.baseAddress, rowBytes, UInt32(count)) == 0 else {
            throw CodecError(.write, path: path, reason: String(cString: iw_jpeg_encoder_message(encoder)))
        }
    }

    /// Ends the image; every row must have been written.
    public func finish() throws(CodecError) {
        guard iw_jpeg_encoder_finish(encoder) == 0 else {
            throw CodecError(.write, path: path, reason: String(cString: iw_jpeg_encoder_message(encoder)))
        }
    }
}
