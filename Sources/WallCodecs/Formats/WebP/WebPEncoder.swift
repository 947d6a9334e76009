import CWebPShim
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Options for writing a WebP file.
public struct WebPEncodeOptions: Sendable {
    /// Lossless instead of lossy.
    public var lossless = false
    /// Quality 0–100 of lossy coding.
    public var quality: Float = 85
    /// An ICC profile (ICCP chunk).
    public var icc: [UInt8]?
    /// EXIF (EXIF chunk), the TIFF structure.
    public var exif: [UInt8]?
    /// Frames of an animation (later frames are the picture inverted); 1 for a still image.
    public var frames = 1

    /// Lossy at quality 85, still, no metadata.
    public init() {}
}

/// Writes WebP files through libwebp (and libwebpmux for animations and metadata chunks).
public enum WebPEncoder {
    /// Writes `bitmap` (RGB or straight RGBA) to `path`, atomically.
    public static func write(_ bitmap: Bitmap, options: WebPEncodeOptions, to path: String) throws(CodecError) {
        let file = try CodecError.reporting { () throws(FileError) in try AtomicFile(destination: path) }
        try write(bitmap, options: options, into: file)
        try CodecError.reporting { () throws(FileError) in try file.commit() }
    }

    /// Writes `bitmap` (RGB or straight RGBA) into `file`, not yet committed.
    public static func write(_ bitmap: Bitmap, options: WebPEncodeOptions, into file: AtomicFile) throws(CodecError) {
        precondition(bitmap.alpha != .premultiplied)
        let path = file.destination
        var message = [CChar](repeating: 0, count: 256)
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let icc = options.icc ?? [], exif = options.exif ?? []
        let status = bitmap.pixels.withUnsafeBufferPointer { pixels in
            icc.withUnsafeBufferPointer { profile in
                exif.withUnsafeBufferPointer { metadata in
                    iw_webp_encode(
                        pixels.baseAddress, Int32(bitmap.size.width), Int32(bitmap.size.height), Int32(bitmap.channels),
                        options.lossless ? 1 : 0, options.quality, profile.baseAddress, icc.count, metadata.baseAddress,
                        exif.count, Int32(options.frames), &output, &size, &message, message.count)
                }
            }
        }
        guard status == 0, let output else { throw CodecError(.write, path: path, reason: message.text) }
        defer { iw_webp_free(output) }
        guard fwrite(output, 1, size, file.handle) == size else {
            throw CodecError(.write, path: path, reason: systemErrorText())
        }
    }
}
