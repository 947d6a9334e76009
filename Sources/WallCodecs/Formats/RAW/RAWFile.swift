import CExivShim
import CRawShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A RAW file opened by LibRaw: what it says of the file, and its largest JPEG preview in
/// memory, or why there is none to draw. Where LibRaw cannot read the file (a camera LibRaw
/// 0.20 does not know) or finds no JPEG preview in it, Exiv2's preview manager is asked for one.
final class RAWFile {
    /// What LibRaw says of the file; `nil` when LibRaw cannot read it.
    let raw: iw_raw_info?
    /// Why LibRaw cannot read the file, when it cannot.
    let unreadable: String?
    /// The JPEG preview's bytes, and a reader of them.
    let preview: (bytes: [UInt8], reader: FileReader)?
    /// Where in the file the JPEG preview lies, when the file holds it there unchanged (looked
    /// for when probing).
    let previewBytes: Range<Int>?
    /// A preview kept as a bitmap (some older cameras' only one), in RGB.
    let bitmap: Bitmap?
    /// Why there is no preview, when there is none.
    let previewProblem: String?
    /// How the camera held the picture: LibRaw's flip, or the EXIF orientation Exiv2 reads.
    let orientation: Orientation
    /// The file's own EXIF as Exiv2 reads it (when probing, or when Exiv2 looked for a
    /// preview); `nil` when Exiv2 cannot read the file, or was not asked.
    let exif: RAWMetadata?

    /// The size of the sensor data developed at half size, when the file holds all of it and it
    /// is bigger than a preview of `size` both ways and of its shape (a file of `fileSize`
    /// bytes): a camera set to 16:9 writes a 16:9 preview of its 3:2 sensor, whose picture the
    /// tile laid out for the preview cannot take.
    func sensorSize(biggerThan size: Size, fileSize: Int) -> Size? {
        guard let raw, RAWCodec.sensorProblem(raw, fileSize: fileSize) == nil else { return nil }
        let half = RAWCodec.halfSize(raw)
        let shape = (Double(half.width) / Double(half.height)) / (Double(size.width) / Double(size.height))
        return half.width > size.width && half.height > size.height && abs(shape - 1) <= 0.01 ? half : nil
    }

    /// The size of the camera's picture, where the picture drawn (`size`) is a smaller one: as
    /// the file records it where that is a crop of the image LibRaw develops (a camera's JPEG
    /// leaves a few of the sensor's edge pixels out), else LibRaw's. `nil` where the picture
    /// drawn is the camera's own (a full-size preview, that crop).
    func capturedSize(biggerThan size: Size) -> Size? {
        guard let raw, raw.output_width > 0, raw.output_height > 0 else { return nil }
        let whole = Size(width: Int(raw.output_width), height: Int(raw.output_height))
        func isCrop(_ part: Size) -> Bool {
            part.width <= whole.width && part.height <= whole.height && part.width * 10 >= whole.width * 9
                && part.height * 10 >= whole.height * 9
        }
        guard !isCrop(size) else { return nil }
        let captured = exif?.pictureSize.flatMap { isCrop($0) ? $0 : nil } ?? whole
        return (captured.area ?? 0) > (size.area ?? 0) ? captured : nil
    }

    /// Opens the file at `path`; throws, naming it, when neither LibRaw nor Exiv2 can read it.
    init(path: String, stage: CodecStage) throws(CodecError) {
        var raw = iw_raw_info()
        var opened: OpaquePointer?
        var unpacked: UnsafePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 256)
        let status = iw_raw_open(
            path.systemPath, &raw, &opened, &unpacked, RAWCodec.largestPreviewBytes, stage == .probe ? 1 : 0, &message,
            message.count)
        var problem: String?
        if status != 0 {
            self.raw = nil
            unreadable = message.text
            problem = "LibRaw cannot read it (\(message.text))"
        } else {
            self.raw = raw
            unreadable = nil
            if unpacked == nil {
                switch (Int(raw.preview_status), raw.preview_format) {
                case (Int(IW_RAW_NO_PREVIEW), _): problem = "it holds no preview"
                case (Int(IW_RAW_PREVIEW_CUT), _):
                    problem = "its preview lies past the end of the file (the file is cut short)"
                case (Int(IW_RAW_PREVIEW_UNREADABLE), _): problem = "its preview cannot be read (\(message.text))"
                case (_, 1): problem = "its JPEG preview claims \(raw.preview_length) bytes"
                default: problem = "its only preview is of a kind ImageWall does not read"
                }
            }
        }
        // The preview copied once, from where LibRaw unpacked it.
        var bytes = unpacked.map { Array(UnsafeBufferPointer(start: $0, count: raw.preview_length)) }
        iw_raw_close(opened)
        if status == 0, raw.preview_format == 2, let pixels = bytes {
            // A bitmap preview: grey rows become RGB.
            let size = Size(width: Int(raw.preview_width), height: Int(raw.preview_height))
            let rgb = raw.preview_colors == 1 ? pixels.flatMap { [$0, $0, $0] } : pixels
            bitmap = Bitmap(size: size, alpha: .none, pixels: rgb)
            bytes = nil
        } else {
            bitmap = nil
        }
        var turned = status == 0 ? RAWCodec.orientation(flip: raw.flip) ?? .up : .up
        // Exiv2 for the file's own metadata when probing, and for its previews when LibRaw gave
        // none (decoding reads no metadata: 6 M instructions a NEF saved).
        var found: UnsafeMutablePointer<UInt8>?
        var about = iw_exiv_metadata()
        var reason = [CChar](repeating: 0, count: 256)
        let wantsPreview = bytes == nil && bitmap == nil
        let exiv =
            stage == .probe || wantsPreview
            ? withUnsafeMutablePointer(to: &found) { found in
                iw_exiv_read(
                    path.systemPath, RAWCodec.largestPreviewBytes, wantsPreview ? found : nil, &about, &reason,
                    reason.count)
            } : 1
        exif = exiv == 0 ? RAWMetadata(about) : nil
        let libRawProblem = problem
        // LibRaw's preview, as the file holds it, unless Exiv2's replaces it.
        let located = status == 0 && found == nil && raw.preview_offset > 0 ? Int(raw.preview_offset) : nil
        if let found {
            bytes = Array(UnsafeBufferPointer(start: found, count: about.preview_length))
            if status != 0 { turned = Orientation(rawValue: Int(about.orientation)) ?? .up }
            problem = nil
        }
        free(found)
        let camera = exif?.camera.name
        orientation = turned
        guard let bytes else {
            guard status == 0 else {
                // Named as what it is: a camera (or a kind of file) this LibRaw does not know.
                let what = camera.map { "a \($0) file, which " } ?? "a file "
                throw CodecError(
                    stage, path: path,
                    reason: "\(RAWCodec.kind(path)): \(what)LibRaw \(RAWCodec.libRawVersion) cannot read "
                        + "(\(message.text)), with no embedded preview Exiv2 finds either")
            }
            preview = nil
            previewProblem = problem
            previewBytes = nil
            return
        }
        if FileClaim.identify(FileSignature(head: bytes.prefix(65536), path: "preview.jpg")) == .image(.jpeg) {
            preview = (bytes, FileReader(bytes: bytes))
            previewProblem = nil
            previewBytes = located.map { $0..<$0 + bytes.count }
        } else {
            preview = nil
            previewProblem = libRawProblem ?? "its preview is not a JPEG"
            previewBytes = nil
        }
    }
}
