import CRawShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// RAW camera files through LibRaw, drawn from their largest embedded JPEG preview (what
/// cameras write beside the sensor data for their own screens), decoded through the JPEG path
/// with its shrink-on-load. Claimed by name ahead of TIFF and ISO-BMFF, which most RAW files
/// are inside. Sensor data is not developed: a file whose preview is missing, unreadable or too
/// small to draw is refused with that reason, never drawn from data that may be cut short.
struct RAWCodec: ImageCodec {
    /// Ahead of the containers RAW files are made of.
    var priority: ClaimPriority { .specialised }

    /// RAW files are known by their names: their bytes are TIFF's or ISO-BMFF's.
    func sniff(_ head: [UInt8]) -> ImageFormat? { nil }

    /// A file whose extension names a RAW format, whatever its first bytes.
    func claim(_ file: FileSignature) -> FileClaim? {
        guard let ext = file.fileExtension, ImageFormat.raw.extensions.contains(ext) else { return nil }
        return .image(.raw)
    }

    /// A preview whose long side is shorter than this is not drawn (ExifTool's stripped test
    /// files keep 8x8 stand-ins).
    static let smallestPreview = 160
    /// No camera writes a bigger preview; a bigger claim is not read.
    static let largestPreviewBytes = 64 << 20

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        try withPreview(path, stage: .probe) { preview, _, raw throws(CodecError) -> ImageInfo in
            var info = try JPEGHeader.read(preview, path: path)
            let size = info.storedSize
            if max(size.width, size.height) < RAWCodec.smallestPreview {
                throw CodecError(
                    .probe, path: path,
                    reason: "\(RAWCodec.kind(path)): its largest preview is \(size.width)x\(size.height), too small "
                        + "to draw, and its sensor data is not developed (previews only)")
            }
            info.format = .raw
            if let turned = RAWCodec.orientation(flip: raw.flip), turned != .up { info.orientation = turned }
            return info
        }
    }

    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage {
        try withPreview(path, stage: .decode) { _, previewPath, _ throws(CodecError) -> DecodedImage in
            guard let jpeg = fopen(previewPath, "rb") else {
                throw CodecError(.decode, path: path, reason: systemErrorText())
            }
            defer { fclose(jpeg) }
            var previewInfo = info
            previewInfo.format = .jpeg
            let result = Result { () throws(CodecError) -> DecodedImage in
                try JPEGCodec().decode(jpeg, path: previewPath, info: previewInfo, target: target, decoder: decoder)
            }
            switch result {
            case .success(var decoded):
                decoded.notes.append(
                    "drawn from its embedded \(info.storedSize.width)x\(info.storedSize.height) JPEG preview")
                return decoded
            case .failure(let error):
                throw CodecError(error.stage, path: path, reason: error.reason)
            }
        }
    }

    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String {
        "preview, " + JPEGCodec().decodePlan(info: info, target: target, decoder: decoder)
    }

    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        let jpeg = JPEGCodec().workingMemory(info: info, target: target, decoder: decoder)
        return (jpeg.pixels, jpeg.besides + Int(info.storedSize.area ?? 0) / 2)  // the preview's bytes, about
    }

    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? {
        guard info.hasICCProfile else { return nil }
        return try? withPreview(path, stage: .decode) { preview, _, _ throws(CodecError) -> ColorProfile? in
            (try JPEGHeader.iccProfile(preview, path: path)).map(ColorProfile.init(data:))
        }
    }

    /// Calls `body` with the largest JPEG preview of the RAW file at `path`, held in memory as a
    /// file of its own, and what LibRaw says of the file; throws, naming the file, when there is
    /// no preview that can be drawn.
    private func withPreview<T>(
        _ path: String, stage: CodecStage, _ body: (FileReader, String, iw_raw_info) throws(CodecError) -> T
    ) throws(CodecError) -> T {
        var raw = iw_raw_info()
        var descriptor: Int32 = -1
        var message = [CChar](repeating: 0, count: 256)
        let kind = RAWCodec.kind(path)
        let status = iw_raw_open(path, &raw, &descriptor, RAWCodec.largestPreviewBytes, &message, message.count)
        defer { if descriptor >= 0 { close(descriptor) } }
        guard status == 0 else {
            throw CodecError(stage, path: path, reason: "\(kind): LibRaw cannot read it (\(message.text))")
        }
        guard descriptor >= 0 else {
            let why: String
            switch (Int(raw.preview_status), raw.preview_format) {
            case (Int(IW_RAW_NO_PREVIEW), _): why = "it holds no preview"
            case (Int(IW_RAW_PREVIEW_CUT), _): why = "its preview lies past the end of the file (the file is cut short)"
            case (Int(IW_RAW_PREVIEW_UNREADABLE), _): why = "its preview cannot be read (\(message.text))"
            case (_, 1): why = "its JPEG preview claims \(raw.preview_length) bytes"
            default: why = "its only preview is a \(raw.preview_width)x\(raw.preview_height) bitmap"
            }
            throw CodecError(
                stage, path: path, reason: "\(kind): \(why), and its sensor data is not developed (previews only)")
        }
        let previewPath = "/proc/self/fd/\(descriptor)"
        let reader = try FileReader(path: previewPath, headBytes: 65536)
        guard FileClaim.identify(FileSignature(head: reader.head, path: "preview.jpg")) == .image(.jpeg) else {
            throw CodecError(
                stage, path: path, reason: "\(kind): its preview is not a JPEG, and its sensor data is not developed")
        }
        return try body(reader, previewPath, raw)
    }

    /// "RAW camera file (NEF)": what the file at `path` is, for messages.
    static func kind(_ path: String) -> String {
        "RAW camera file (\(FileSignature(head: [], path: path).fileExtension?.uppercased() ?? "RAW"))"
    }

    /// The EXIF orientation of LibRaw's `flip` (dcraw's: bit 2 swaps the axes, then bit 1
    /// flips vertically and bit 0 horizontally).
    static func orientation(flip: Int32) -> Orientation? {
        switch flip {
        case 0: return .up
        case 1: return Orientation(rawValue: 2)
        case 2: return Orientation(rawValue: 4)
        case 3: return Orientation(rawValue: 3)
        case 4: return Orientation(rawValue: 5)
        case 5: return Orientation(rawValue: 8)
        case 6: return Orientation(rawValue: 6)
        case 7: return Orientation(rawValue: 7)
        default: return nil
        }
    }
}
