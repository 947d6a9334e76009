import CFFmpegShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Still images FFmpeg's image decoders read (BMP, TGA, PSD, OpenEXR, DDS, QOI, PCX, SGI, PNM,
/// XBM, XWD, FITS, JPEG-LS, JPEG 2000): the header read by the format's ``StillFormatReader``
/// without decoding; the whole file decoded as one picture on the calling thread (JPEG 2000 at
/// a reduced resolution level where the tile is small), converted to 8-bit RGB(A) the same way
/// on every CPU, and box-shrunk as PNG rows are. FFmpeg's libraries load on the first such file,
/// as for videos.
struct StillCodec<Reader: StillFormatReader>: ImageCodec {
    /// Rows converted at a time; `nil`: about ``BandSink/bandBytes`` of them (tests ask for
    /// other bands, whose bytes must be the same).
    var bandRows: Int?

    var priority: ClaimPriority { Reader.priority }

    func sniff(_ head: [UInt8]) -> ImageFormat? { Reader.sniff(head) ? Reader.format : nil }

    /// By the bytes, or by the format's extension and a plausible header.
    func claim(_ file: FileSignature) -> FileClaim? {
        if Reader.sniff(file.head) { return .image(Reader.format) }
        guard let ext = file.fileExtension, Reader.format.extensions.contains(ext), Reader.plausible(file.head)
        else { return nil }
        return .image(Reader.format)
    }

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        let header = try Reader.header(file, path: path)
        guard header.size.width > 0, header.size.height > 0 else {
            throw Reader.corrupt(path, "the picture has no size")
        }
        let least = Reader.leastBytes(header, head: file.head)
        guard file.fileSize >= least else {
            throw Reader.corrupt(
                path,
                "its \(file.fileSize) bytes cannot hold the \(header.size.width)x\(header.size.height) pixels its "
                    + "header claims (at least \(least) bytes in its coding): cut short, or made to exhaust memory")
        }
        return ImageInfo(
            format: Reader.format, storedSize: header.size, colorModel: header.colorModel, bitDepth: header.bitDepth,
            hasAlpha: header.hasAlpha, isProgressive: false, hasICCProfile: header.iccProfile != nil)
    }

    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage {
        var bytes = try StillCodec.wholeFile(file, path: path)
        let mended = Reader.mend(&bytes, length: bytes.count - StillCodec.padding)
        let header: StillHeader
        do {
            header = try Reader.header(FileReader(bytes: bytes), path: path)
        } catch {
            throw CodecError(.decode, path: path, reason: error.reason)
        }
        guard header.size == info.storedSize else {
            throw CodecError(.decode, path: path, reason: "header changed since it was probed")
        }
        // What needs the file's bytes after FFmpeg is taken first, so they can go as soon as it has
        // decoded them.
        let fileLength = bytes.count - StillCodec.padding
        let cut = Reader.cutShort(bytes[0..<fileLength])
        var profile: ColorProfile?
        if decoder.convertsToSRGB, let range = header.iccProfile, range.upperBound <= fileLength {
            profile = ColorProfile(data: Array(bytes[range]))
        }
        let reduction = StillCodec.reduction(stored: info.storedSize, target: target, margin: decoder.margin)
        var about = iw_still_info()
        var message = [CChar](repeating: 0, count: 256)
        let still = bytes.withUnsafeBufferPointer { data in
            iw_still_decode(
                data.baseAddress! + header.packetStart, data.count - StillCodec.padding - header.packetStart,
                header.decoder,
                Int64(StillCodec.pixelAllowance(info.storedSize)), Int32(reduction), &about, &message, message.count)
        }
        bytes = []
        guard let still else {
            throw CodecError(.decode, path: path, reason: StillCodec.refusal(message.text, header: header))
        }
        defer { iw_still_close(still) }
        let decodedSize = Size(width: Int(about.width), height: Int(about.height))
        let expected = Size(
            width: StillCodec.halved(info.storedSize.width, reduction),
            height: StillCodec.halved(info.storedSize.height, reduction))
        guard decodedSize == expected || (reduction > 0 && decodedSize.area ?? 0 <= expected.area ?? 0) else {
            throw CodecError(
                .decode, path: path,
                reason: "\(Reader.format.name): the picture decoded is \(decodedSize.width)x\(decodedSize.height), "
                    + "not the \(expected.width)x\(expected.height) its header says")
        }
        var rows = BandSink(
            size: decodedSize, alpha: info.hasAlpha ? .straight : .none, target: target, margin: decoder.margin)
        let channels = rows.channels
        let converting = iw_still_convert_start(
            still, Int32(channels), header.isLinearLight ? 1 : 0, header.samplesAs, &message, message.count)
        guard converting == 0 else {
            throw CodecError(.decode, path: path, reason: "\(Reader.format.name): \(message.text)")
        }
        let bandHeight = Int(iw_still_band_height(still, Int32(clamping: bandRows ?? rows.bandHeight)))
        var failed = false
        rows.fill(bandHeight: bandHeight) { first, count, band in
            guard iw_still_convert_rows(still, Int32(first), Int32(count), band, &message, message.count) == 0 else {
                failed = true
                return false
            }
            if header.blueNotHeld {
                for at in stride(from: 2, to: count * decodedSize.width * channels, by: channels) { band[at] = 0 }
            }
            return true
        }
        guard !failed else {
            throw CodecError(.decode, path: path, reason: "\(Reader.format.name): \(message.text)")
        }
        var floatNotes: [String] = [], floatWarnings: [String] = []
        if about.is_float != 0 {
            (floatNotes, floatWarnings) = StillCodec.floatRemarks(iw_still_float_samples(still))
        }
        var warnings: [String] = []
        if let cut {
            warnings.append("\(Reader.format.name): \(cut)")
        } else if about.damaged != 0 {
            let problem = cText(about.problem)
            warnings.append(
                "\(Reader.format.name): damaged data met while decoding" + (problem.isEmpty ? "" : " (\(problem))"))
        }
        var decoded = DecodedImage(bitmap: rows.finish(), warnings: warnings + floatWarnings, notes: floatNotes)
        if let mended { decoded.notes.append(mended) }
        if let profile { decoded.convert(from: profile) }
        return decoded
    }

    /// What a floating-point picture's samples held, said: 8-bit codes drawn as codes (a note), or
    /// light mostly past white, clipped (a warning).
    static func floatRemarks(_ floats: iw_still_floats) -> (notes: [String], warnings: [String]) {
        if floats.codes != 0 {
            return (
                [
                    "\(Reader.format.name): its samples are 8-bit codes (0 to 255) in floating point, drawn as those codes"
                ],
                []
            )
        }
        if floats.clipped >= StillCodec.mostlyClipped {
            return (
                [],
                [
                    "HDR colour: \(Int((floats.clipped * 100).rounded())) % of its samples are past white (up to "
                        + "\(floats.largest)), clipped at 1.0"
                ]
            )
        }
        return ([], [])
    }

    /// The pixels FFmpeg may allocate for a picture of `size`: its own, with the rows padded as
    /// its decoders align them (it checks the aligned size against the limit).
    static func pixelAllowance(_ size: Size) -> Int {
        StillHeader.count(Double(size.width + 128) * Double(size.height + 128))
    }

    /// Why FFmpeg refused the picture: its own words, but for a coding it does not read yet
    /// ("Not yet implemented in FFmpeg, patches welcome"), which the header's reader names.
    static func refusal(_ message: String, header: StillHeader) -> String {
        guard message.contains("patches welcome") else { return "\(Reader.format.name): \(message)" }
        return "\(Reader.format.name): FFmpeg's \(header.decoder) decoder does not read "
            + (header.coding.map { "this coding yet (\($0))" } ?? "this kind of \(Reader.format.name) yet")
    }

    /// The share of a floating-point picture's samples past white from which its clipping is
    /// said: a picture mostly white that was not meant to be (light on another scale).
    static var mostlyClipped: Double { 0.5 }

    /// The zero bytes after a file's own that FFmpeg's decoders may read past its end.
    static var padding: Int { 64 }

    /// Files bigger than this are refused (FFmpeg takes a picture's bytes as one packet, whose
    /// size is a 32-bit number).
    static var largestFile: Int { 1 << 30 }

    /// The file's bytes, followed by ``padding`` zero bytes; a part FFmpeg skips
    /// (``StillFormatReader/unread(_:path:)``) left out, its stand-in in its place.
    static func wholeFile(_ file: UnsafeMutablePointer<FILE>, path: String) throws(CodecError) -> [UInt8] {
        var status = stat()
        guard fstat(fileno(file), &status) == 0 else {
            throw CodecError(.decode, path: path, reason: systemErrorText())
        }
        let size = Int(status.st_size)
        guard size <= largestFile else {
            throw CodecError(
                .decode, path: path, reason: "\(Reader.format.name): the file is over \(largestFile >> 20) MiB")
        }
        let unread = (try? FileReader(path: path, headBytes: 4096)).flatMap { reader in
            reader.fileSize == size ? Reader.unread(reader, path: path) : nil
        }
        // The parts read: all of it, or what comes before and after the part left out.
        let parts = unread.map { [0..<$0.range.lowerBound, $0.range.upperBound..<size] } ?? [0..<size]
        let standIn = unread?.standIn ?? []
        let kept = parts.reduce(standIn.count) { $0 + $1.count }
        var bytes = [UInt8](repeating: 0, count: kept + padding)
        var at = 0
        for (index, part) in parts.enumerated() {
            if index == 1 {
                for (offset, byte) in standIn.enumerated() { bytes[at + offset] = byte }
                at += standIn.count
            }
            let read = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard fseeko(file, off_t(part.lowerBound), SEEK_SET) == 0 else { return -1 }
                return fread(buffer.baseAddress! + at, 1, part.count, file)
            }
            guard read == part.count else {
                throw CodecError(
                    .decode, path: path, reason: "the file could not be read whole (\(max(0, read)) of \(size) bytes)")
            }
            at += part.count
        }
        return bytes
    }

    /// How many times the decoder halves the picture: as often as both sides stay at least
    /// `margin` times the target's, where the decoder can (JPEG 2000), at most 5 times.
    static func reduction(stored: Size, target: Size?, margin: Int) -> Int {
        guard Reader.decodesReduced, let target, target.width > 0, target.height > 0 else { return 0 }
        var halvings = 0
        while halvings < 5,
            halved(stored.width, halvings + 1) >= margin * target.width,
            halved(stored.height, halvings + 1) >= margin * target.height
        {
            halvings += 1
        }
        return halvings
    }

    /// `side` halved `times` times, a partial pixel counted whole.
    static func halved(_ side: Int, _ times: Int) -> Int { (side + (1 << times) - 1) >> times }

    /// The reduction and the box shrink, and the FFmpeg loaded (its decoders' versions).
    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String {
        let reduction = StillCodec.reduction(stored: info.storedSize, target: target, margin: decoder.margin)
        let reduced = Size(
            width: StillCodec.halved(info.storedSize.width, reduction),
            height: StillCodec.halved(info.storedSize.height, reduction))
        let factors = target.map { BoxShrinkStream.factors(stored: reduced, target: $0, margin: decoder.margin) }
        return
            "reduced \(reduction), box \(factors?.x ?? 1)x\(factors?.y ?? 1) by \(String(cString: iw_ffmpeg_versions()))"
    }

    /// The shrunk pixels (or the whole 8-bit picture, when it is not shrunk); FFmpeg's frame (up
    /// to 16 bytes a pixel, for floating-point RGBA) beside the file's bytes while it decodes,
    /// then beside a band of 8-bit rows: no full-size 8-bit copy is made before the shrink.
    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        let reduction = StillCodec.reduction(stored: info.storedSize, target: target, margin: decoder.margin)
        let reduced = Size(
            width: StillCodec.halved(info.storedSize.width, reduction),
            height: StillCodec.halved(info.storedSize.height, reduction))
        let channels = info.hasAlpha ? 4 : 3
        let factors = target.map { BoxShrinkStream.factors(stored: reduced, target: $0, margin: decoder.margin) }
        let kept = BoxShrinkStream.shrunk(reduced, by: factors ?? (1, 1))
        let frameBytes = info.bitDepth > 16 ? 16 : info.bitDepth > 8 ? 8 : 4
        let stored = info.storedSize.area ?? 0
        let band = min(BandSink.bandBytes, (reduced.area ?? 0) * channels)
        return ((kept.area ?? 0) * channels, (reduced.area ?? 0) * frameBytes + max(stored * frameBytes, band))
    }

    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? {
        guard let reader = try? FileReader(path: path, headBytes: 65536),
            let header = try? Reader.header(reader, path: path), let range = header.iccProfile,
            let bytes = try? reader.read(at: range.lowerBound, count: range.count, path: path),
            bytes.count == range.count
        else { return nil }
        return ColorProfile(data: bytes)
    }
}
