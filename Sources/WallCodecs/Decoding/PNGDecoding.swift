#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import CPNGShim
import WallCore

/// libpng through the shim: every colour type and depth expanded to 8-bit RGB or RGBA.
enum PNGDecoding {
    static func decode(file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo)
        throws(DecodeError) -> DecodedImage
    {
        let limit = UInt32(0x7FFF_FFFF)
        guard let decoder = iw_png_decoder_create(file, limit, limit) else {
            throw DecodeError(path: path, reason: "out of memory")
        }
        defer { iw_png_decoder_destroy(decoder) }
        func libraryError() -> DecodeError {
            DecodeError(path: path, reason: String(cString: iw_png_decoder_message(decoder)))
        }
        var header = iw_png_header()
        guard iw_png_read_header(decoder, &header) == 0 else { throw libraryError() }
        let size = Size(width: Int(header.width), height: Int(header.height))
        guard size == info.storedSize else {
            throw DecodeError(path: path, reason: "header changed since it was probed")
        }
        let channels = Int(header.channels)
        guard channels == 3 || channels == 4, ImageDecoder.byteCount(size, channels: channels) != nil
        else { throw DecodeError(path: path, reason: "unsupported output of \(channels) channels") }

        var bitmap = Bitmap(size: size, alpha: channels == 4 ? .straight : .none)
        let stride = bitmap.rowBytes
        var rowsDone = 0
        var fatal: String?
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            if header.interlaced != 0 {
                // Every pass touches every row, so a failure leaves no row complete.
                if iw_png_read_image(decoder, pixels.baseAddress!, stride) == 0 {
                    rowsDone = size.height
                } else {
                    fatal = String(cString: iw_png_decoder_message(decoder))
                }
                return
            }
            while rowsDone < size.height {
                var got: UInt32 = 0
                let status = iw_png_read_rows(
                    decoder, pixels.baseAddress! + rowsDone * stride, stride,
                    UInt32(min(64, size.height - rowsDone)), &got)
                rowsDone += Int(got)
                if status != 0 {
                    fatal = String(cString: iw_png_decoder_message(decoder))
                    break
                }
            }
        }
        var warnings: [String] = []
        if let fatal {
            guard rowsDone > 0 else { throw DecodeError(path: path, reason: fatal) }
            warnings.append("\(fatal) (decoded \(rowsDone) of \(size.height) rows)")
        } else if iw_png_read_end(decoder) != 0 {
            warnings.append(String(cString: iw_png_decoder_message(decoder)))
        }
        let warningCount = iw_png_decoder_warning_count(decoder)
        if warningCount > 0 {
            let first = String(cString: iw_png_decoder_first_warning(decoder))
            warnings.append(warningCount == 1 ? first : "\(first) (and \(warningCount - 1) more warnings)")
        }
        ImageDecoder.fillMissingRows(of: &bitmap, from: rowsDone)
        return DecodedImage(bitmap: bitmap, warnings: warnings)
    }
}
