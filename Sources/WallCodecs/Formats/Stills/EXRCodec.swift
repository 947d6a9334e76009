import CEXRShim
import CFFmpegShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// OpenEXR: the header read by ``EXRHeader`` as for the other stills, the pixels by OpenEXR's own
/// library a band of rows at a time (as libvips reads them), so neither the file nor a whole
/// frame of floats is held: each band's light is encoded as sRGB by the table FFmpeg's floats
/// go through and box-shrunk as it arrives. Luminance-chroma files are read through OpenEXR's
/// RGBA interface. Files with 32-bit integer colour channels, and files OpenEXR refuses to open,
/// are read by FFmpeg as before (with its reasons when it refuses them too).
struct EXRCodec: ImageCodec {
    /// The reader of every other still, for what is not OpenEXR's own.
    var still = StillCodec<EXRHeader>()

    /// Rows read at a time; `nil`: about ``BandSink/bandBytes`` of floats (tests ask for other
    /// bands, whose bytes must be the same).
    var bandRows: Int? {
        get { still.bandRows }
        set { still.bandRows = newValue }
    }

    var priority: ClaimPriority { still.priority }

    func sniff(_ head: [UInt8]) -> ImageFormat? { still.sniff(head) }

    func claim(_ file: FileSignature) -> FileClaim? { still.claim(file) }

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo { try still.probe(file, path: path) }

    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage {
        var about = iw_exr_info()
        var message = [CChar](repeating: 0, count: 256)
        let opened = iw_exr_open(path.systemPath, &about, &message, message.count)
        guard let exr = opened, about.integer == 0 else {
            if let opened { iw_exr_close(opened) }
            return try still.decode(file, path: path, info: info, target: target, decoder: decoder)
        }
        defer { iw_exr_close(exr) }
        let size = Size(width: Int(about.width), height: Int(about.height))
        guard size == info.storedSize else {
            throw CodecError(.decode, path: path, reason: "header changed since it was probed")
        }
        let cut = EXRCodec.cutShort(path: path)
        var bands = EXRCodec.Bands(exr: exr, size: size, hasAlpha: info.hasAlpha, rows: bandRows)
        var pass = bands.read(target: target, margin: decoder.margin, codes: false)
        if pass.floats.codes != 0 {
            // 8-bit codes in floats, found only once every sample was seen: read again as codes.
            pass = bands.read(target: target, margin: decoder.margin, codes: true)
        }
        let (notes, floatWarnings) = StillCodec<EXRHeader>.floatRemarks(pass.floats)
        var warnings: [String] = []
        if let cut {
            warnings.append("OpenEXR: \(cut)")
        } else if pass.failedRows > 0 {
            warnings.append(
                "OpenEXR: damaged data met while decoding (\(pass.failedRows) of \(size.height) rows unreadable"
                    + (pass.problem.isEmpty ? "" : ": \(pass.problem)") + ")")
        }
        return DecodedImage(bitmap: pass.bitmap, warnings: warnings + floatWarnings, notes: notes)
    }

    /// Whether the file's offset table says it was cut, from its first bytes only.
    static func cutShort(path: String) -> String? {
        guard let reader = try? FileReader(path: path, headBytes: 65536) else { return nil }
        var head = reader.head
        if head.count < min(reader.fileSize, EXRHeader.longestHeader) {
            head = (try? reader.read(at: 0, count: min(reader.fileSize, EXRHeader.longestHeader), path: path)) ?? head
        }
        if let layout = EXRHeader.chunkLayout(head), layout.table + 8 * layout.chunks > head.count,
            layout.table + 8 * layout.chunks <= reader.fileSize
        {
            head = (try? reader.read(at: 0, count: layout.table + 8 * layout.chunks, path: path)) ?? head
        }
        return EXRHeader.cutShort(head, fileSize: reader.fileSize)
    }

    /// An open file's bands of rows, each read as floats, encoded as 8-bit codes and handed to a
    /// ``BandSink``.
    struct Bands {
        let exr: OpaquePointer
        let size: Size
        let hasAlpha: Bool
        let rows: Int?

        /// What one pass over the file gave.
        struct Pass {
            var bitmap: Bitmap
            var floats: iw_still_floats
            var failedRows: Int
            var problem: String
        }

        /// Rows a band holds: about ``BandSink/bandBytes`` of floats, in the display window and
        /// in OpenEXR's row of the data window.
        var bandHeight: Int {
            if let rows { return max(1, min(size.height, rows)) }
            return Bands.rows(height: size.height, rowBytes: max(size.width * 16, Int(iw_exr_row_bytes(exr))))
        }

        /// Rows of `rowBytes` (a row of RGBA floats) a band holds by default: about four times
        /// ``BandSink/bandBytes`` of floats, at least one, at most the picture's `height`.
        static func rows(height: Int, rowBytes: Int) -> Int {
            max(1, min(height, 4 * BandSink.bandBytes / max(1, rowBytes)))
        }

        mutating func read(target: Size?, margin: Int, codes: Bool) -> Pass {
            var sink = BandSink(size: size, alpha: hasAlpha ? .straight : .none, target: target, margin: margin)
            let height = bandHeight, width = size.width, channels = sink.channels, exr = self.exr
            var light = [Float](repeating: 0, count: height * width * 4)
            var survey = iw_float_survey()
            var failed = 0
            var problem = ""
            var message = [CChar](repeating: 0, count: 256)
            light.withUnsafeMutableBufferPointer { light in
                sink.fill(bandHeight: height) { first, count, band in
                    let lost = Int(
                        iw_exr_band(exr, Int32(first), Int32(count), light.baseAddress, &message, message.count))
                    if lost > 0 {
                        failed += lost
                        if problem.isEmpty { problem = message.text }
                    }
                    let pixels = count * width
                    iw_survey_rgba_floats(light.baseAddress, pixels, &survey)
                    iw_encode_rgba_floats(light.baseAddress, pixels, Int32(channels), codes ? 1 : 0, band)
                    return true
                }
            }
            return Pass(
                bitmap: sink.finish(), floats: iw_float_survey_result(&survey), failedRows: failed, problem: problem)
        }
    }

    /// OpenEXR's version, and the bands and box shrink.
    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String {
        let factors = target.map {
            BoxShrinkStream.factors(stored: info.storedSize, target: $0, margin: decoder.margin)
        }
        return "bands, box \(factors?.x ?? 1)x\(factors?.y ?? 1) by OpenEXR \(String(cString: iw_exr_version()))"
    }

    /// The shrunk (or whole) 8-bit pixels; a band of floats twice (ImageWall's and OpenEXR's
    /// scratch) and the 8-bit band; OpenEXR's chunk buffers (up to 256 rows of 4 floats, coded
    /// and decoded).
    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        let size = info.storedSize, channels = info.hasAlpha ? 4 : 3
        let factors = target.map { BoxShrinkStream.factors(stored: size, target: $0, margin: decoder.margin) }
        let kept = BoxShrinkStream.shrunk(size, by: factors ?? (x: 1, y: 1))
        let rowBytes = size.width * 16
        let bandRows = Bands.rows(height: size.height, rowBytes: rowBytes)
        let chunkRows = min(size.height, 256)
        return (
            (kept.area ?? 0) * channels,
            rowBytes * (2 * bandRows + 2 * chunkRows) + bandRows * size.width * channels
        )
    }

    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? { nil }
}
