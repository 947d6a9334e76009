import CGIFShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// GIF through giflib: the first image of a still or animated file drawn on the logical
/// screen (where it does not cover the screen, or where its colour is the transparent one,
/// the screen is transparent), interlaced or not. Nothing after the first image is read.
struct GIFCodec: ImageCodec {
    func sniff(_ head: [UInt8]) -> ImageFormat? {
        head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) ? .gif : nil
    }

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        var header = iw_gif_info()
        var message = [CChar](repeating: 0, count: 256)
        guard let gif = iw_gif_open(path, &header, &message, message.count) else {
            throw CodecError(.probe, path: path, reason: "corrupt GIF: " + String(cString: message))
        }
        iw_gif_close(gif)
        let screen = GIFCodec.screen(header)
        guard screen.width > 0, screen.height > 0 else {
            throw CodecError(.probe, path: path, reason: "corrupt GIF: its first image has no size")
        }
        let covers =
            header.left <= 0 && header.top <= 0 && Int(header.width) >= screen.width
            && Int(header.height) >= screen.height
        return ImageInfo(
            format: .gif, storedSize: screen, colorModel: .palette, bitDepth: 8,
            hasAlpha: header.transparent >= 0 || !covers, isProgressive: header.interlaced != 0)
    }

    /// The canvas the first image is drawn on: the logical screen, grown to hold the image
    /// where it reaches past it (some writers leave the screen size at 0).
    static func screen(_ header: iw_gif_info) -> Size {
        Size(
            width: max(Int(header.screen_width), Int(header.left) + Int(header.width)),
            height: max(Int(header.screen_height), Int(header.top) + Int(header.height)))
    }

    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage {
        var header = iw_gif_info()
        var message = [CChar](repeating: 0, count: 256)
        guard let gif = iw_gif_open(path, &header, &message, message.count) else {
            throw CodecError(.decode, path: path, reason: "corrupt GIF: " + String(cString: message))
        }
        defer { iw_gif_close(gif) }
        guard GIFCodec.screen(header) == info.storedSize else {
            throw CodecError(.decode, path: path, reason: "header changed since it was probed")
        }
        // A table the image lacks is read as a grey ramp, so that the picture still shows.
        var palette = [UInt8](repeating: 0, count: 3 * 256)
        let colors = Int(header.colors)
        if colors > 0 {
            iw_gif_palette(gif, &palette)
        } else {
            for i in 0..<256 {
                (palette[3 * i], palette[3 * i + 1], palette[3 * i + 2]) = (UInt8(i), UInt8(i), UInt8(i))
            }
        }
        let entries = colors > 0 ? colors : 256
        let transparent = Int(header.transparent)
        let canvas = info.storedSize
        var bitmap = Bitmap(size: canvas, alpha: info.hasAlpha ? .straight : .none)
        let (left, top, width, height) = (Int(header.left), Int(header.top), Int(header.width), Int(header.height))
        let channels = bitmap.channels
        var row = [UInt8](repeating: 0, count: width)
        // Rows come in pass order when interlaced: every 8th from 0, every 8th from 4, every
        // 4th from 2, every 2nd from 1.
        let order: [Int] =
            header.interlaced != 0
            ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: height, by: step))
            }
            : Array(0..<height)
        var decodedRows: [Bool] = header.interlaced != 0 ? [Bool](repeating: false, count: height) : []
        var done = 0
        var failure: String?
        bitmap.pixels.withUnsafeMutableBufferPointer { out in
            for y in order {
                guard iw_gif_read_row(gif, &row, &message, message.count) == 0 else {
                    failure = String(cString: message)
                    break
                }
                if !decodedRows.isEmpty { decodedRows[y] = true }
                done += 1
                let cy = top + y
                guard cy >= 0, cy < canvas.height else { continue }
                for x in 0..<width {
                    let cx = left + x
                    guard cx >= 0, cx < canvas.width else { continue }
                    let index = Int(row[x])
                    let at = (cy * canvas.width + cx) * channels
                    if index == transparent {
                        continue  // stays transparent
                    }
                    if index < entries {
                        out[at] = palette[3 * index]
                        out[at + 1] = palette[3 * index + 1]
                        out[at + 2] = palette[3 * index + 2]
                    }
                    if channels == 4 { out[at + 3] = 255 }
                }
            }
        }
        var warnings: [String] = []
        if let failure {
            guard done > 0 else { throw CodecError(.decode, path: path, reason: "corrupt GIF: " + failure) }
            warnings.append("\(failure) (decoded \(done) of \(height) rows)")
            let interlaced = !decodedRows.isEmpty
            GIFCodec.fillMissing(
                &bitmap, rows: interlaced ? decodedRows : Array(repeating: true, count: done), top: top, height: height,
                repeatingRows: interlaced)
        }
        return DecodedImage(bitmap: bitmap, warnings: warnings)
    }

    /// Rows of the image that never arrived: below a cut-off plain image, mid-grey as in other
    /// formats; between the passes of an interlaced one, the nearest row above that arrived.
    static func fillMissing(_ bitmap: inout Bitmap, rows decoded: [Bool], top: Int, height: Int, repeatingRows: Bool) {
        let width = bitmap.size.width, channels = bitmap.channels
        bitmap.pixels.withUnsafeMutableBufferPointer { p in
            var source: Int?
            for y in 0..<height {
                let cy = top + y
                guard cy >= 0, cy < bitmap.size.height else { continue }
                if y < decoded.count && decoded[y] {
                    if repeatingRows { source = cy }
                    continue
                }
                for x in 0..<width {
                    let at = (cy * width + x) * channels
                    if let source {
                        for c in 0..<channels { p[at + c] = p[(source * width + x) * channels + c] }
                    } else {
                        p[at] = 128; p[at + 1] = 128; p[at + 2] = 128
                        if channels == 4 { p[at + 3] = 255 }
                    }
                }
            }
        }
    }

    /// The canvas.
    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        (info.storedSize.width * info.storedSize.height * (info.hasAlpha ? 4 : 3), 0)
    }

    /// GIF carries no colour profile ImageWall reads: its colours are sRGB.
    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? { nil }
}
