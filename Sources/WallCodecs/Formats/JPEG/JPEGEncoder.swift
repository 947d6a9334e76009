import CJPEGShim
import WallCore

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
        let components = options.storage.components
        precondition(samples.count == size.width * size.height * components)
        let file = try AtomicFile(destination: path, durable: durable)
        var message = [CChar](repeating: 0, count: 256)
        let app1 = options.app1 ?? []
        let icc = options.icc ?? []
        let status = app1.withUnsafeBufferPointer { app1Bytes in
            icc.withUnsafeBufferPointer { iccBytes in
                samples.withUnsafeBufferPointer { pixels in
                    var c = iw_jpeg_encode_options()
                    c.width = UInt32(size.width)
                    c.height = UInt32(size.height)
                    c.components = Int32(components)
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
                    return iw_jpeg_encode(
                        file.handle, &c, pixels.baseAddress!, size.width * components, &message, 256)
                }
            }
        }
        guard status == 0 else {
            throw CodecError(
                .write, path: path,
                reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        try file.commit()
    }
}
