import CGIFShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// GIF through giflib: the first image of a still or animated file drawn on the logical
/// screen (where it does not cover the screen, or where its colour is the transparent one,
/// the screen is transparent), interlaced or not. Nothing after the first image is read; a
/// non-interlaced image is box-averaged row by row as it arrives.
struct GIFCodec: ImageCodec {
    /// The most pixels one byte of LZW data can stand for: a code (at least 3 bits) stands for
    /// a string of at most 4,096 pixels. A file claiming more than its size allows is a bomb.
    static let maxPixelsPerByte = 11_000

    /// Told apart by a signature of its own.
    var priority: ClaimPriority { .signature }

    func sniff(_ head: [UInt8]) -> ImageFormat? {
        head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) ? .gif : nil
    }

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        var header = iw_gif_info()
        var message = [CChar](repeating: 0, count: 256)
        guard let gif = iw_gif_open(path.systemPath, &header, &message, message.count) else {
            throw CodecError(.probe, path: path, reason: "corrupt GIF: " + message.text)
        }
        iw_gif_close(gif)
        let screen = GIFCodec.screen(header)
        guard screen.width > 0, screen.height > 0, header.width > 0, header.height > 0 else {
            throw CodecError(.probe, path: path, reason: "corrupt GIF: its first image has no size")
        }
        let area = Int(header.width) * Int(header.height)
        guard area <= file.fileSize * GIFCodec.maxPixelsPerByte else {
            throw CodecError(
                .probe, path: path,
                reason:
                    "corrupt GIF: a \(header.width)x\(header.height) image cannot fit in \(file.fileSize) bytes (a decompression bomb)"
            )
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
        guard let gif = iw_gif_open(path.systemPath, &header, &message, message.count) else {
            throw CodecError(.decode, path: path, reason: "corrupt GIF: " + message.text)
        }
        defer { iw_gif_close(gif) }
        guard GIFCodec.screen(header) == info.storedSize else {
            throw CodecError(.decode, path: path, reason: "header changed since it was probed")
        }
        let image = Frame(header: header, gif: gif, channels: info.hasAlpha ? 4 : 3)
        var decoded: (bitmap: Bitmap, rows: Int, failure: String?)
        if header.interlaced != 0 {
            decoded = image.drawInterlaced(on: info.storedSize)
        } else {
            let shrink =
                target.map { BoxShrinkStream.factors(stored: info.storedSize, target: $0, margin: decoder.margin) } ?? (
                    x: 1, y: 1
                )
            decoded = image.drawRows(on: info.storedSize, shrink: shrink)
        }
        var warnings: [String] = []
        if let failure = decoded.failure {
            guard decoded.rows > 0 else { throw CodecError(.decode, path: path, reason: "corrupt GIF: " + failure) }
            warnings.append("\(failure) (decoded \(decoded.rows) of \(header.height) rows)")
        }
        return DecodedImage(bitmap: decoded.bitmap, warnings: warnings)
    }

    /// The canvas, or for a plain image its box-averaged rows.
    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String {
        let shrink =
            target.map { BoxShrinkStream.factors(stored: info.storedSize, target: $0, margin: decoder.margin) } ?? (
                x: 1, y: 1
            )
        return "box \(shrink.x)x\(shrink.y)"
    }

    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        let channels = info.hasAlpha ? 4 : 3
        let size = info.storedSize
        guard !info.isProgressive, let target else { return (size.width * size.height * channels, 0) }
        let shrink = BoxShrinkStream.factors(stored: size, target: target, margin: decoder.margin)
        let kept = BoxShrinkStream.shrunk(size, by: shrink)
        return (kept.width * kept.height * channels, 0)
    }

    /// GIF carries no colour profile ImageWall reads: its colours are sRGB.
    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? { nil }

    /// The first image of an open file, drawn row by row onto the canvas.
    struct Frame {
        let gif: OpaquePointer
        let left: Int, top: Int, width: Int, height: Int
        let transparent: Int
        let channels: Int
        /// RGB triples; a table the image lacks is read as a grey ramp, so the picture still shows.
        let palette: [UInt8]
        let entries: Int

        init(header: iw_gif_info, gif: OpaquePointer, channels: Int) {
            self.gif = gif
            (left, top, width, height) = (Int(header.left), Int(header.top), Int(header.width), Int(header.height))
            transparent = Int(header.transparent)
            self.channels = channels
            var palette = [UInt8](repeating: 0, count: 3 * 256)
            if header.colors > 0 {
                iw_gif_palette(gif, &palette)
            } else {
                for i in 0..<256 {
                    (palette[3 * i], palette[3 * i + 1], palette[3 * i + 2]) = (UInt8(i), UInt8(i), UInt8(i))
                }
            }
            self.palette = palette
            entries = header.colors > 0 ? Int(header.colors) : 256
        }

        /// Reads the next row of colour indices; the reason when it cannot.
        func read(_ indices: inout [UInt8]) -> String? {
            var message = [CChar](repeating: 0, count: 256)
            return iw_gif_read_row(gif, &indices, &message, message.count) == 0 ? nil : message.text
        }

        /// Draws a row of `indices` into a canvas row `canvasWidth` wide.
        func draw(_ indices: [UInt8], into row: UnsafeMutablePointer<UInt8>, canvasWidth: Int) {
            for x in 0..<width {
                let cx = left + x
                let index = Int(indices[x])
                guard cx >= 0, cx < canvasWidth, index != transparent else { continue }
                let at = cx * channels
                if index < entries {
                    row[at] = palette[3 * index]
                    row[at + 1] = palette[3 * index + 1]
                    row[at + 2] = palette[3 * index + 2]
                }
                if channels == 4 { row[at + 3] = 255 }
            }
        }

        /// A plain image, canvas row by canvas row into a box average; rows after damage are
        /// mid-grey where the image would have been.
        func drawRows(on canvas: Size, shrink: (x: Int, y: Int)) -> (bitmap: Bitmap, rows: Int, failure: String?) {
            var stream = BoxShrinkStream(sourceSize: canvas, channels: channels, factorX: shrink.x, factorY: shrink.y)
            var indices = [UInt8](repeating: 0, count: width)
            var line = [UInt8](repeating: 0, count: canvas.width * channels)
            var done = 0
            var failure: String?
            line.withUnsafeMutableBufferPointer { row in
                for cy in 0..<canvas.height {
                    row.update(repeating: 0)
                    let y = cy - top
                    if y >= 0, y < height {
                        if failure == nil { failure = read(&indices) }
                        if failure == nil {
                            done += 1
                            draw(indices, into: row.baseAddress!, canvasWidth: canvas.width)
                        } else {
                            for x in max(0, left)..<min(canvas.width, left + width) {
                                for c in 0..<3 { row[x * channels + c] = 128 }
                                if channels == 4 { row[x * channels + 3] = 255 }
                            }
                        }
                    }
                    stream.add(row: UnsafePointer(row.baseAddress!))
                }
            }
            stream.finish()
            return (stream.result, done, failure)
        }

        /// An interlaced image, drawn whole as its passes arrive; rows of passes that never came
        /// repeat the nearest row above that did, as a viewer shows a partly loaded picture.
        func drawInterlaced(on canvas: Size) -> (bitmap: Bitmap, rows: Int, failure: String?) {
            var bitmap = Bitmap(size: canvas, alpha: channels == 4 ? .straight : .none)
            // Every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
            let order = [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in
                Array(stride(from: start, to: height, by: step))
            }
            var arrived = [Bool](repeating: false, count: height)
            var indices = [UInt8](repeating: 0, count: width)
            var done = 0
            var failure: String?
            let rowBytes = bitmap.rowBytes
            bitmap.pixels.withUnsafeMutableBufferPointer { out in
                for y in order {
                    if let problem = read(&indices) {
                        failure = problem
                        break
                    }
                    arrived[y] = true
                    done += 1
                    let cy = top + y
                    if cy >= 0, cy < canvas.height {
                        draw(indices, into: out.baseAddress! + cy * rowBytes, canvasWidth: canvas.width)
                    }
                }
                guard failure != nil else { return }
                var source: Int?
                for (y, came) in arrived.enumerated() {
                    let cy = top + y
                    guard cy >= 0, cy < canvas.height else { continue }
                    if came {
                        source = cy
                    } else if let source {
                        (out.baseAddress! + cy * rowBytes).update(
                            from: out.baseAddress! + source * rowBytes, count: rowBytes)
                    }
                }
            }
            return (bitmap, done, failure)
        }
    }
}
