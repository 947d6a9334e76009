import CHEIFShim
import WallCore

/// Options for writing a HEIF or AVIF file.
public struct HEIFEncodeOptions: Sendable {
    /// AV1 (AVIF) instead of HEVC (HEIC).
    public var av1 = false
    /// Quality 0–100.
    public var quality = 80
    /// Lossless coding.
    public var lossless = false
    /// The longest side of an embedded thumbnail; 0 for none.
    public var thumbnail = 0
    /// An orientation written as irot/imir transformations: the pixels are given as stored.
    public var orientation: Orientation = .up
    /// An ICC profile to embed.
    public var icc: [UInt8]?
    /// The encoder's fastest setting (x265's ultrafast preset, libaom's speed 9).
    public var fast = false
    /// nclx colour to record instead of libheif's default: ITU-T H.273 primaries and transfer.
    public var nclx: (primaries: Int, transfer: Int)?

    /// HEVC at quality 80, no thumbnail, upright.
    public init() {}
}

/// Writes HEIF and AVIF files through libheif's encoders (x265 and libaom here).
public enum HEIFEncoder {
    /// Writes `bitmap` to `path`: RGB, or RGBA with straight alpha or premultiplied (recorded so,
    /// as libheif's `prem` reference).
    public static func write(_ bitmap: Bitmap, options: HEIFEncodeOptions, to path: String) throws(CodecError) {
        var message = [CChar](repeating: 0, count: 512)
        let icc = options.icc ?? []
        let status = bitmap.pixels.withUnsafeBufferPointer { pixels in
            icc.withUnsafeBufferPointer { profile in
                var c = iw_heif_encode_options()
                c.av1 = options.av1 ? 1 : 0
                c.quality = Int32(options.quality)
                c.lossless = options.lossless ? 1 : 0
                c.thumbnail = Int32(options.thumbnail)
                c.orientation = Int32(options.orientation.rawValue)
                c.icc = options.icc == nil ? nil : profile.baseAddress
                c.icc_size = icc.count
                c.fast = options.fast ? 1 : 0
                c.nclx_primaries = Int32(options.nclx?.primaries ?? 0)
                c.nclx_transfer = Int32(options.nclx?.transfer ?? 0)
                c.premultiplied = bitmap.alpha == .premultiplied ? 1 : 0
                return iw_heif_encode(
                    path, pixels.baseAddress, Int32(bitmap.size.width), Int32(bitmap.size.height),
                    Int32(bitmap.channels), &c,
                    &message, message.count)
            }
        }
        guard status == 0 else { throw CodecError(.write, path: path, reason: message.text) }
    }
}
