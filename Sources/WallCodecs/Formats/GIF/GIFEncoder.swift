import CGIFShim
import WallCore

/// Writes GIF files through giflib.
public enum GIFEncoder {
    /// Writes `frames` images of `size` colour indices (frames one after the other in
    /// `indices`) with one palette of RGB entries; `transparent` is an index or `nil`.
    public static func write(
        indices: [UInt8], size: Size, frames: Int = 1, palette: [(UInt8, UInt8, UInt8)], transparent: Int? = nil,
        interlaced: Bool = false, to path: String
    ) throws(CodecError) {
        precondition(indices.count == size.width * size.height * frames && palette.count <= 256)
        var message = [CChar](repeating: 0, count: 256)
        let rgb = palette.flatMap { [$0.0, $0.1, $0.2] }
        let status = indices.withUnsafeBufferPointer { pixels in
            rgb.withUnsafeBufferPointer { colors in
                iw_gif_write(
                    path, Int32(size.width), Int32(size.height), colors.baseAddress, Int32(palette.count),
                    pixels.baseAddress,
                    Int32(frames), Int32(transparent ?? -1), interlaced ? 1 : 0, &message, message.count)
            }
        }
        guard status == 0 else { throw CodecError(.write, path: path, reason: message.text) }
    }
}
