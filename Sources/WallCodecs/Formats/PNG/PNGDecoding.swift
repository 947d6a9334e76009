import CPNGShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// libpng's progressive reader through the shim: every colour type and depth expanded to 8-bit
/// RGB or RGBA, rows kept as they arrive so a damaged or truncated file shows what it holds.
enum PNGDecoding {
    static let chunkSize = 65536

    /// The largest box factor used while decoding: 64 × 64 premultiplied samples fit the
    /// 32-bit sums with room to spare.
    static let maxShrink = 64

    /// Decodes the image (or, with `headerOnly`, just reads up to its profile), returning
    /// its embedded ICC profile alongside. With `shrink` factors above 1, a non-interlaced
    /// image is box-averaged as its rows arrive and never held at full size.
    static func decode(
        file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, headerOnly: Bool = false,
        shrink: (x: Int, y: Int) = (1, 1)
    ) throws(CodecError) -> (image: DecodedImage, profile: ColorProfile?) {
        let limit = UInt32(0x7FFF_FFFF)
        guard let decoder = iw_png_decoder_create(limit, limit) else {
            throw CodecError(.decode, path: path, reason: "out of memory")
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
            throw CodecError(.decode, path: path, reason: fatal ?? "the file ends before the image data")
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
        try checkHeader(header, info: info, path: path)
        if header.interlaced == 0 && (shrink.x > 1 || shrink.y > 1) {
            return (
                try decodeShrinking(
                    decoder: decoder, header: header, path: path,
                    factors: (min(shrink.x, maxShrink), min(shrink.y, maxShrink)),
                    feedNext: feedNext, fatal: { fatal }), profile
            )
        }
        var bitmap = Bitmap(size: info.storedSize, alpha: header.channels == 4 ? .straight : .none)
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
            try refuseCorruptCriticalChunk(problem, path: path)
            if header.interlaced != 0 {
                let passes = Int(iw_png_passes_done(decoder))
                guard passes > 0 else { throw CodecError(.decode, path: path, reason: problem) }
                fillAdam7(&bitmap, completedPasses: passes)
                warnings.append("\(problem) (decoded \(passes) of 7 interlace passes)")
            } else {
                let rows = Int(iw_png_rows_done(decoder))
                guard rows > 0 else { throw CodecError(.decode, path: path, reason: problem) }
                bitmap.fillMissingRows(from: rows)
                warnings.append("\(problem) (decoded \(rows) of \(height) rows)")
            }
        }
        let messages = libraryMessages(decoder)
        return (DecodedImage(bitmap: bitmap, warnings: warnings + messages.warnings, notes: messages.notes), profile)
    }

    /// A checksum error in a critical chunk (IHDR, PLTE, IDAT, IEND) means the image data
    /// itself cannot be trusted: an error, unlike a file cut short or a damaged ancillary chunk
    /// (libpng only warns about those).
    private static func refuseCorruptCriticalChunk(_ problem: String, path: String) throws(CodecError) {
        if problem.contains("CRC error") { throw CodecError(.decode, path: path, reason: "corrupt PNG: \(problem)") }
    }

    /// libpng's messages, parted into warnings and notes (see ``isNote(_:)``).
    private static func libraryMessages(_ decoder: OpaquePointer) -> (warnings: [String], notes: [String]) {
        let kept = (0..<iw_png_decoder_kept_warnings(decoder)).map {
            withoutRepeatedChunk(String(cString: iw_png_decoder_warning(decoder, $0)))
        }
        var warnings = kept.filter { !isNote($0) }
        let count = iw_png_decoder_warning_count(decoder)
        if count > kept.count && kept.count >= 8 {
            warnings.append("more messages from libpng (\(count) in all)")
        }
        return (warnings, kept.filter(isNote))
    }

    /// libpng's `message` with its chunk's name once: its inflate errors come as
    /// "IDAT: IDAT: ADLER32 checksum mismatch".
    static func withoutRepeatedChunk(_ message: String) -> String {
        let parts = message.split(separator: ": ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == parts[1], parts[0].count == 4 else { return message }
        return parts[1] + ": " + parts[2]
    }

    /// Whether libpng's `message` is a note, changing no pixel drawn: a remark on an ancillary
    /// chunk ImageWall does not draw from (text, time, gamma, chromaticities, sRGB intent,
    /// physical size, …), or libpng recognising a widespread sRGB profile it goes on using.
    /// Damage (a CRC error) and anything about the chunks that shape the pixels (IHDR, PLTE,
    /// IDAT, tRNS, an iCCP profile refused) stays a warning.
    static func isNote(_ message: String) -> Bool {
        let chunk = message.utf8.prefix(4)
        guard chunk.count == 4, chunk.allSatisfy({ $0 >= 65 && $0 <= 90 || $0 >= 97 && $0 <= 122 }),
            message.utf8.dropFirst(4).starts(with: ": ".utf8), !message.contains("CRC")
        else { return false }
        switch String(decoding: chunk, as: UTF8.self) {
        case "iCCP":
            return message.contains("known incorrect sRGB profile")
                || message.contains("Not recognizing known sRGB profile")
        case "tRNS": return false
        default: return chunk.first! >= 97  // lower case first: an ancillary chunk
        }
    }

    /// Decodes into a box-shrinking stream fed row by row from libpng's row callback.
    private static func decodeShrinking(
        decoder: OpaquePointer, header: iw_png_header, path: String, factors: (x: Int, y: Int),
        feedNext: () -> Bool, fatal: () -> String?
    ) throws(CodecError) -> DecodedImage {
        let size = Size(width: Int(header.width), height: Int(header.height))
        let sink = RowSink(
            BoxShrinkStream(sourceSize: size, channels: Int(header.channels), factorX: factors.x, factorY: factors.y))
        let context = Unmanaged.passUnretained(sink).toOpaque()
        var failure: String?
        withExtendedLifetime(sink) {
            iw_png_set_row_sink(
                decoder,
                { context, row, _ in
                    guard let context, let row else { return }
                    Unmanaged<RowSink>.fromOpaque(context).takeUnretainedValue().stream.add(row: row)
                }, context)
            if iw_png_feed(decoder, nil, 0) != 0 {  // the bytes held back at the header
                failure = String(cString: iw_png_decoder_message(decoder))
            } else {
                while iw_png_finished(decoder) == 0 && feedNext() {}
                failure = fatal()
            }
            iw_png_set_row_sink(decoder, nil, nil)
        }
        let rows = sink.stream.rowsConsumed
        var warnings: [String] = []
        if iw_png_finished(decoder) == 0 {
            let problem = failure ?? "the file ends before the image data does"
            try refuseCorruptCriticalChunk(problem, path: path)
            guard rows > 0 else { throw CodecError(.decode, path: path, reason: problem) }
            warnings.append("\(problem) (decoded \(rows) of \(size.height) rows)")
        }
        sink.stream.finish()
        let messages = libraryMessages(decoder)
        return DecodedImage(bitmap: sink.stream.result, warnings: warnings + messages.warnings, notes: messages.notes)
    }

    /// Refuses a header that no longer matches the probe, or output the bitmap cannot hold.
    private static func checkHeader(_ header: iw_png_header, info: ImageInfo, path: String) throws(CodecError) {
        let size = Size(width: Int(header.width), height: Int(header.height))
        guard size == info.storedSize else {
            throw CodecError(.decode, path: path, reason: "header changed since it was probed")
        }
        let channels = Int(header.channels)
        guard channels == 3 || channels == 4, ImageDecoder.byteCount(size, channels: channels) != nil
        else { throw CodecError(.decode, path: path, reason: "unsupported output of \(channels) channels") }
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

/// Holds the shrinking stream libpng's row callback feeds.
private final class RowSink {
    var stream: BoxShrinkStream
    init(_ stream: BoxShrinkStream) { self.stream = stream }
}
