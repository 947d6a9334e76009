#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import CPNGShim
import WallCore

/// libpng's progressive reader through the shim: every colour type and depth expanded to 8-bit
/// RGB or RGBA, rows kept as they arrive so a damaged or truncated file shows what it holds.
enum PNGDecoding {
    static let chunkSize = 65536

    /// Decodes the image (or, with `headerOnly`, just reads up to its profile), returning
    /// its embedded ICC profile alongside.
    static func decode(file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, headerOnly: Bool = false)
        throws(DecodeError) -> (image: DecodedImage, profile: ColorProfile?)
    {
        let limit = UInt32(0x7FFF_FFFF)
        guard let decoder = iw_png_decoder_create(limit, limit) else {
            throw DecodeError(path: path, reason: "out of memory")
        }
        defer { iw_png_decoder_destroy(decoder) }
        var fatal: String?
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        /// Reads the next chunk and pushes it; `false` at the end of the file or on an error.
        func feedNext() -> Bool {
            let got = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, chunkSize, file) }
            if got == 0 { return false }
            guard chunk.withUnsafeBytes({ iw_png_feed(decoder, $0.baseAddress, got) }) == 0 else {
                fatal = String(cString: iw_png_decoder_message(decoder))
                return false
            }
            return true
        }
        while iw_png_header_ready(decoder) == 0 && feedNext() {}
        guard iw_png_header_ready(decoder) != 0 else {
            throw DecodeError(path: path, reason: fatal ?? "the file ends before the image data")
        }
        var header = iw_png_header()
        iw_png_get_header(decoder, &header)
        var profileSize = 0
        let profile = iw_png_icc_profile(decoder, &profileSize).map {
            ColorProfile(data: Array(UnsafeBufferPointer(start: $0, count: profileSize)))
        }
        if headerOnly {
            return (DecodedImage(bitmap: Bitmap(size: Size(width: 0, height: 0), alpha: .none), warnings: []), profile)
        }
        var bitmap = try destination(for: header, info: info, path: path)
        let stride = bitmap.rowBytes
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            // Every row libpng delivers is written while this buffer is pinned.
            iw_png_set_destination(decoder, pixels.baseAddress, stride)
            if iw_png_feed(decoder, nil, 0) != 0 {  // the bytes held back at the header
                fatal = String(cString: iw_png_decoder_message(decoder))
            } else {
                while iw_png_finished(decoder) == 0 && feedNext() {}
            }
            iw_png_set_destination(decoder, nil, 0)
        }
        let height = Int(header.height)
        var warnings: [String] = []
        if iw_png_finished(decoder) == 0 {
            let problem = fatal ?? "the file ends before the image data does"
            if header.interlaced != 0 {
                let passes = Int(iw_png_passes_done(decoder))
                guard passes > 0 else { throw DecodeError(path: path, reason: problem) }
                fillAdam7(&bitmap, completedPasses: passes)
                warnings.append("\(problem) (decoded \(passes) of 7 interlace passes)")
            } else {
                let rows = Int(iw_png_rows_done(decoder))
                guard rows > 0 else { throw DecodeError(path: path, reason: problem) }
                ImageDecoder.fillMissingRows(of: &bitmap, from: rows)
                warnings.append("\(problem) (decoded \(rows) of \(height) rows)")
            }
        }
        let warningCount = iw_png_decoder_warning_count(decoder)
        if warningCount > 0 {
            let first = String(cString: iw_png_decoder_first_warning(decoder))
            warnings.append(warningCount == 1 ? first : "\(first) (and \(warningCount - 1) more warnings)")
        }
        return (DecodedImage(bitmap: bitmap, warnings: warnings), profile)
    }

    private static func destination(for header: iw_png_header, info: ImageInfo, path: String)
        throws(DecodeError) -> Bitmap
    {
        let size = Size(width: Int(header.width), height: Int(header.height))
        guard size == info.storedSize else {
            throw DecodeError(path: path, reason: "header changed since it was probed")
        }
        let channels = Int(header.channels)
        guard channels == 3 || channels == 4, ImageDecoder.byteCount(size, channels: channels) != nil
        else { throw DecodeError(path: path, reason: "unsupported output of \(channels) channels") }
        return Bitmap(size: size, alpha: channels == 4 ? .straight : .none)
    }

    /// Fills the pixels of Adam7 passes that never arrived from the nearest pixel of the
    /// completed passes, as a progressive viewer shows a partly loaded image.
    static func fillAdam7(_ bitmap: inout Bitmap, completedPasses: Int) {
        // After n complete passes, each block of this size has its top-left pixel decoded.
        let blocks = [(8, 8), (4, 8), (4, 4), (2, 4), (2, 2), (1, 2), (1, 1)]
        let (blockWidth, blockHeight) = blocks[min(completedPasses, 7) - 1]
        let channels = bitmap.channels
        let width = bitmap.size.width
        bitmap.pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<bitmap.size.height {
                let sourceY = y - y % blockHeight
                for x in 0..<width where x % blockWidth != 0 || y != sourceY {
                    let from = (sourceY * width + x - x % blockWidth) * channels
                    let to = (y * width + x) * channels
                    for c in 0..<channels { p[to + c] = p[from + c] }
                }
            }
        }
    }
}
