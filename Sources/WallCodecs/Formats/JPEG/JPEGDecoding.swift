import CJPEGShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// libjpeg(-turbo) through the shim: scaled decoding to RGB, CMYK and YCCK converted here.
enum JPEGDecoding {
    /// How far a progressive JPEG decoded at 1/8 is read.
    enum DCOnly: Int32 {
        /// The whole file.
        case never = 0
        /// Until its DC coefficients are complete.
        case complete = 1
        /// Until every component's first DC scan.
        case firstScan = 2
    }

    static func decode(
        file: UnsafeMutablePointer<FILE>, path: String, scaleNumerator: Int, maxScans: Int,
        profile: ColorProfile? = nil,
        dcOnly: DCOnly = .complete
    ) throws(CodecError) -> DecodedImage {
        guard let decoder = iw_jpeg_decoder_create(file, Int32(maxScans)) else {
            throw CodecError(.decode, path: path, reason: "out of memory")
        }
        defer { iw_jpeg_decoder_destroy(decoder) }
        func libraryError() -> CodecError {
            CodecError(.decode, path: path, reason: String(cString: iw_jpeg_message(decoder)))
        }
        var header = iw_jpeg_header()
        guard iw_jpeg_read_header(decoder, &header) == 0 else { throw libraryError() }
        var width: UInt32 = 0, height: UInt32 = 0
        var channels: Int32 = 0
        guard iw_jpeg_start(decoder, UInt32(scaleNumerator), dcOnly.rawValue, &width, &height, &channels) == 0 else {
            throw libraryError()
        }
        let size = Size(width: Int(width), height: Int(height))
        guard channels == 3 || channels == 4,
            ImageDecoder.byteCount(size, channels: Int(channels)) != nil
        else { throw CodecError(.decode, path: path, reason: "unsupported output of \(channels) channels") }

        // CMYK arrives as four channels; the bitmap type holds it until converted below.
        var rowsDone = 0
        var fatal: String?
        let stride = size.width * Int(channels)
        var bitmap = Bitmap(size: size, alpha: channels == 4 ? .straight : .none) { pixels in
            while rowsDone < size.height {
                var got: UInt32 = 0
                let status = iw_jpeg_read_rows(
                    decoder, pixels.baseAddress! + rowsDone * stride, stride,
                    UInt32(min(16, size.height - rowsDone)), &got)
                rowsDone += Int(got)
                if status != 0 {
                    fatal = String(cString: iw_jpeg_message(decoder))
                    break
                }
                if got == 0 { break }
            }
            // Rows that never came are set (and made grey below, after the colour is converted).
            (pixels.baseAddress! + rowsDone * stride).update(repeating: 0, count: pixels.count - rowsDone * stride)
        }
        var warnings: [String] = []
        if let fatal {
            // Keep what arrived; a file that gave nothing is an error.
            guard rowsDone > 0 else { throw CodecError(.decode, path: path, reason: fatal) }
            warnings.append("\(fatal) (decoded \(rowsDone) of \(size.height) rows)")
        } else {
            _ = iw_jpeg_finish(decoder)
        }
        let warningCount = iw_jpeg_warning_count(decoder)
        if warningCount > 0 {
            let first = String(cString: iw_jpeg_first_warning(decoder))
            warnings.append(warningCount == 1 ? first : "\(first) (and \(warningCount - 1) more warnings)")
        }
        let inverted = header.adobe_marker != 0
        switch (channels, profile) {
        case (4, let profile?):
            switch profile.convertCMYK(bitmap, inverted: inverted) {
            case .converted(let rgb): bitmap = rgb
            case .unchanged: bitmap = cmykToRGB(bitmap, inverted: inverted)
            case .ignored(let reason):
                warnings.append(reason)
                bitmap = cmykToRGB(bitmap, inverted: inverted)
            }
        case (4, nil):
            bitmap = cmykToRGB(bitmap, inverted: inverted)
        case (_, let profile?):
            switch profile.convertRGB(bitmap) {
            case .converted(let rgb): bitmap = rgb
            case .unchanged: break
            case .ignored(let reason): warnings.append(reason)
            }
        default:
            break
        }
        bitmap.fillMissingRows(from: rowsDone)
        return DecodedImage(bitmap: bitmap, warnings: warnings)
    }

    /// Converts CMYK samples to RGB. Adobe's files store the inks inverted (0 = full ink),
    /// which is what libjpeg returns for them.
    static func cmykToRGB(_ cmyk: Bitmap, inverted: Bool) -> Bitmap {
        var rgb = Bitmap(size: cmyk.size, alpha: .none)
        let count = cmyk.size.width * cmyk.size.height
        cmyk.pixels.withUnsafeBufferPointer { source in
            rgb.pixels.withUnsafeMutableBufferPointer { target in
                for i in 0..<count {
                    var c = Int(source[4 * i]), m = Int(source[4 * i + 1])
                    var y = Int(source[4 * i + 2]), k = Int(source[4 * i + 3])
                    if !inverted {
                        c = 255 - c
                        m = 255 - m
                        y = 255 - y
                        k = 255 - k
                    }
                    target[3 * i] = UInt8((c * k + 127) / 255)
                    target[3 * i + 1] = UInt8((m * k + 127) / 255)
                    target[3 * i + 2] = UInt8((y * k + 127) / 255)
                }
            }
        }
        return rgb
    }
}
