import CWebPShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// WebP through libwebp: lossy and lossless, alpha, the ICC profile and the EXIF orientation
/// of extended files, and an animation's first frame (composed on its canvas by libwebpdemux).
/// A still image is shrunk on load by libwebp's own rescaler.
struct WebPCodec: ImageCodec {
    /// Told apart by a signature of its own.
    var priority: ClaimPriority { .signature }

    func sniff(_ head: [UInt8]) -> ImageFormat? {
        head.count >= 12 && head.starts(with: Array("RIFF".utf8)) && Array(head[8..<12]) == Array("WEBP".utf8)
            ? .webp : nil
    }

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        var features = iw_webp_features()
        let status = file.head.withUnsafeBufferPointer { iw_webp_features_of($0.baseAddress, $0.count, &features) }
        guard status == 0 else {
            throw CodecError(
                .probe, path: path,
                reason: status == 2
                    ? "truncated WebP: the file ends inside the header" : "corrupt WebP: its header cannot be read")
        }
        let chunks = try WebPCodec.chunks(file, path: path)
        let exif = chunks.exif.map { ExifReader.fields(in: $0) }
        let lossless = features.format == 2
        var info = ImageInfo(
            format: .webp, storedSize: Size(width: Int(features.width), height: Int(features.height)),
            orientation: exif?.orientation ?? .up,
            colorModel: lossless ? (features.has_alpha != 0 ? .rgba : .rgb) : .ycbcr, bitDepth: 8,
            hasAlpha: features.has_alpha != 0, isProgressive: false, hasICCProfile: chunks.hasICC,
            dateTaken: exif?.dateTaken)
        info.camera = exif?.camera
        info.software = exif?.software
        return info
    }

    /// Walks the RIFF chunk headers (without reading the image data between them) for the
    /// ICC profile and the EXIF block, which an extended file may put after the image.
    static func chunks(_ file: FileReader, path: String) throws(CodecError) -> (hasICC: Bool, exif: [UInt8]?) {
        var offset = 12
        var hasICC = false
        var exif: [UInt8]?
        for _ in 0..<64 {
            let header = try file.read(at: offset, count: 8, path: path)
            guard header.count == 8 else { break }
            let fourcc = String(decoding: header[0..<4], as: UTF8.self)
            let size = Int(header[4]) | Int(header[5]) << 8 | Int(header[6]) << 16 | Int(header[7]) << 24
            if fourcc == "ICCP" { hasICC = true }
            if fourcc == "EXIF", exif == nil, size <= 1 << 20 {
                exif = try file.read(at: offset + 8, count: size, path: path)
            }
            offset += 8 + size + (size & 1)
            if offset >= file.fileSize { break }
        }
        return (hasICC, exif)
    }

    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage {
        let data = try readAll(file, path: path)
        var features = iw_webp_features()
        guard data.withUnsafeBufferPointer({ iw_webp_features_of($0.baseAddress, $0.count, &features) }) == 0,
            Size(width: Int(features.width), height: Int(features.height)) == info.storedSize
        else { throw CodecError(.decode, path: path, reason: "header changed since it was probed") }
        var message = [CChar](repeating: 0, count: 256)
        var warnings: [String] = []
        var bitmap: Bitmap
        if features.has_animation != 0 {
            bitmap = Bitmap(size: info.storedSize, alpha: .straight)
            let status = data.withUnsafeBufferPointer { input in
                bitmap.pixels.withUnsafeMutableBufferPointer { out in
                    iw_webp_first_frame(
                        input.baseAddress, input.count, out.baseAddress, info.storedSize.width * 4, &message,
                        message.count)
                }
            }
            guard status == 0 else { throw CodecError(.decode, path: path, reason: message.text) }
            if !info.hasAlpha { bitmap = WebPCodec.opaque(bitmap) }
        } else {
            let size =
                target.map { WebPCodec.decodeSize(stored: info.storedSize, target: $0, margin: decoder.margin) }
                ?? info.storedSize
            bitmap = Bitmap(size: size, alpha: info.hasAlpha ? .straight : .none)
            let channels = bitmap.channels, rowBytes = bitmap.rowBytes
            var rows: Int32 = 0
            let status = data.withUnsafeBufferPointer { input in
                bitmap.pixels.withUnsafeMutableBufferPointer { out in
                    iw_webp_decode(
                        input.baseAddress, input.count, Int32(size.width), Int32(size.height), Int32(channels),
                        out.baseAddress,
                        rowBytes, &rows, &message, message.count)
                }
            }
            guard status != 1 else { throw CodecError(.decode, path: path, reason: message.text) }
            if status == 2 {
                bitmap.fillMissingRows(from: Int(rows))
                warnings.append("\(message.text) (decoded \(rows) of \(size.height) rows)")
            }
        }
        var decoded = DecodedImage(bitmap: bitmap, warnings: warnings)
        if decoder.convertsToSRGB, info.hasICCProfile, let profile = WebPCodec.profile(in: data) {
            decoded.convert(from: profile)
        }
        return decoded
    }

    /// An animation's frame without the alpha channel a file without alpha does not use.
    static func opaque(_ rgba: Bitmap) -> Bitmap {
        let count = rgba.size.width * rgba.size.height
        var rgb = Bitmap(size: rgba.size, alpha: .none)
        rgba.pixels.withUnsafeBufferPointer { source in
            rgb.pixels.withUnsafeMutableBufferPointer { target in
                for i in 0..<count {
                    target[3 * i] = source[4 * i]; target[3 * i + 1] = source[4 * i + 1];
                    target[3 * i + 2] = source[4 * i + 2]
                }
            }
        }
        return rgb
    }

    /// The size a still image is decoded at: each side shrunk to `margin` times the target's,
    /// never enlarged.
    static func decodeSize(stored: Size, target: Size, margin: Int) -> Size {
        Size(
            width: max(1, min(stored.width, margin * target.width)),
            height: max(1, min(stored.height, margin * target.height)))
    }

    /// The decoded pixels, and besides them the file in memory and, for lossless or animated
    /// files, libwebp's full-size ARGB buffer.
    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String {
        let size =
            target.map { WebPCodec.decodeSize(stored: info.storedSize, target: $0, margin: decoder.margin) }
            ?? info.storedSize
        return "size \(size.width)x\(size.height)"
    }

    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        let full = info.storedSize.width * info.storedSize.height
        let size =
            target.map { WebPCodec.decodeSize(stored: info.storedSize, target: $0, margin: decoder.margin) }
            ?? info.storedSize
        let pixels = size.width * size.height * (info.hasAlpha ? 4 : 3)
        return (pixels, info.colorModel == .ycbcr ? full / 2 : 5 * full)
    }

    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? {
        guard info.hasICCProfile, let data = try? readAll(file, path: path) else { return nil }
        return WebPCodec.profile(in: data)
    }

    /// The ICCP chunk of a whole file.
    static func profile(in data: [UInt8]) -> ColorProfile? {
        data.withUnsafeBufferPointer { input -> ColorProfile? in
            var chunk: UnsafePointer<UInt8>?
            var size = 0
            guard iw_webp_chunk(input.baseAddress, input.count, "ICCP", &chunk, &size) == 0, let chunk else {
                return nil
            }
            return ColorProfile(data: Array(UnsafeBufferPointer(start: chunk, count: size)))
        }
    }

    /// The whole file: libwebp decodes from memory.
    private func readAll(_ file: UnsafeMutablePointer<FILE>, path: String) throws(CodecError) -> [UInt8] {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if got == 0 { break }
            data += chunk[0..<got]
        }
        if ferror(file) != 0 { throw CodecError(.decode, path: path, reason: systemErrorText()) }
        return data
    }
}
