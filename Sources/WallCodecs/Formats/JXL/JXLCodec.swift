import CJXLShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// JPEG XL through libjxl: the header's size, orientation, alpha and colour read without
/// decoding; the first frame decoded on the calling thread. libjxl 0.7 cannot decode at a
/// reduced size, so the rows it gives through its callback are box-averaged into the shrunk
/// image as they arrive (as PNG rows are), and the full-size picture is never held as pixels of
/// ours. Lossy (XYB) files are asked of libjxl in sRGB; a lossless file in another colour space
/// is converted through its ICC profile by LittleCMS.
struct JXLCodec: ImageCodec {
    /// Told apart by a signature of its own.
    var priority: ClaimPriority { .signature }

    /// A bare codestream (FF 0A) or the ISO-BMFF container's `JXL ` signature box.
    func sniff(_ head: [UInt8]) -> ImageFormat? {
        if head.starts(with: [0xFF, 0x0A]) { return .jxl }
        let box: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        return head.starts(with: box) ? .jxl : nil
    }

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        var header = iw_jxl_info()
        var message = [CChar](repeating: 0, count: 256)
        var status = file.head.withUnsafeBufferPointer {
            iw_jxl_probe($0.baseAddress, $0.count, &header, &message, message.count)
        }
        if status == 2, file.fileSize > file.head.count {
            // A header longer than the first 64 KiB (a big ICC profile): read up to 4 MiB of it.
            let more = try file.read(at: 0, count: min(file.fileSize, 4 << 20), path: path)
            status = more.withUnsafeBufferPointer {
                iw_jxl_probe($0.baseAddress, $0.count, &header, &message, message.count)
            }
        }
        guard status == 0 else {
            throw CodecError(
                .probe, path: path,
                reason: status == 2 ? "truncated JPEG XL: the file ends inside its header" : message.text)
        }
        guard header.width > 0, header.height > 0 else {
            throw CodecError(.probe, path: path, reason: "corrupt JPEG XL: the image has no size")
        }
        let alpha = header.has_alpha != 0, gray = header.is_gray != 0
        var info = ImageInfo(
            format: .jxl, storedSize: Size(width: Int(header.width), height: Int(header.height)),
            orientation: Orientation(rawValue: Int(header.orientation)) ?? .up,
            colorModel: gray ? (alpha ? .grayAlpha : .gray) : (alpha ? .rgba : .rgb),
            bitDepth: Int(header.bits_per_sample), hasAlpha: alpha, isProgressive: false,
            hasICCProfile: header.is_srgb == 0)
        // libjxl's DCT (lossy files, recompressed JPEGs) runs in floating point through the vector
        // kernels the CPU offers: one level apart on a few pixels from one CPU to another.
        // Lossless (modular) files decode to the same pixels everywhere.
        if header.is_lossy != 0 || header.is_recompressed != 0 { info.inexactDecoder = JXLCodec.decoderName }
        return info
    }

    /// "libjxl 0.7.0": the version loaded (loading it), which decode plans name.
    static let decoderName = "libjxl " + String(cString: iw_jxl_version())

    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage {
        let shrink = JXLCodec.shrink(stored: info.storedSize, target: target, margin: decoder.margin)
        let size = JXLCodec.shrunk(info.storedSize, by: shrink)
        var bitmap = Bitmap(size: size, alpha: info.hasAlpha ? .straight : .none)
        var icc: UnsafeMutablePointer<UInt8>?
        var iccSize = 0
        var message = [CChar](repeating: 0, count: 256)
        let channels = bitmap.channels
        let status = bitmap.pixels.withUnsafeMutableBufferPointer { out in
            iw_jxl_decode(
                file, Int32(shrink), out.baseAddress, UInt32(info.storedSize.width), UInt32(info.storedSize.height),
                Int32(channels), &icc, &iccSize, &message, message.count)
        }
        defer { free(icc) }
        guard status != 1 else { throw CodecError(.decode, path: path, reason: message.text) }
        var decoded = DecodedImage(bitmap: bitmap, warnings: status == 2 ? [message.text] : [])
        if decoder.convertsToSRGB, let icc, iccSize > 0 {
            decoded.convert(from: ColorProfile(data: Array(UnsafeBufferPointer(start: icc, count: iccSize))))
        }
        return decoded
    }

    /// The largest whole shrink that keeps both sides at least `margin` times the target's.
    static func shrink(stored: Size, target: Size?, margin: Int) -> Int {
        guard let target, target.width > 0, target.height > 0 else { return 1 }
        return max(1, min(stored.width / (margin * target.width), stored.height / (margin * target.height)))
    }

    /// `size` shrunk by `factor`, a partial block at the right and bottom counted whole.
    static func shrunk(_ size: Size, by factor: Int) -> Size {
        BoxShrinkStream.shrunk(size, by: (factor, factor))
    }

    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String {
        "shrink \(JXLCodec.shrink(stored: info.storedSize, target: target, margin: decoder.margin))"
            + " by \(JXLCodec.decoderName)"
    }

    /// The shrunk pixels and their sums, and libjxl 0.7's own frame buffers (about 15 bytes a
    /// stored pixel, measured: it has no reduced-size decode) with the file read a megabyte at
    /// a time.
    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        let size = JXLCodec.shrunk(
            info.storedSize, by: JXLCodec.shrink(stored: info.storedSize, target: target, margin: decoder.margin))
        let channels = info.hasAlpha ? 4 : 3
        let pixels = (size.area ?? 0) * channels
        let stored = info.storedSize.area ?? 0
        return (pixels, pixels * 4 + stored * 15 + (1 << 20))
    }

    /// The profile is applied while decoding (lossy files are asked for in sRGB).
    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? { nil }
}
