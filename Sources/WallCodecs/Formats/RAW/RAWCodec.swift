import CExivShim
import CRawShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// RAW camera files through LibRaw, drawn from their largest embedded JPEG preview (what
/// cameras write beside the sensor data for their own screens), decoded through the JPEG path
/// with its shrink-on-load; without a usable preview, from their sensor data developed at half
/// size. Claimed by name ahead of TIFF and ISO-BMFF, which most RAW files are inside. A file
/// that cannot hold all of its sensor data is refused with that reason, never developed into
/// noise.
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

    /// What ``ImageInfo/drawnFrom`` says of a file drawn from its sensor data (a preview's says
    /// `preview 6000x4000 JPEG`).
    static let sensor = "sensor, half size"

    /// A preview whose long side is shorter than this is not drawn (ExifTool's stripped test
    /// files keep 8x8 stand-ins).
    static let smallestPreview = 160
    /// No camera writes a bigger preview; a bigger claim is not read.
    static let largestPreviewBytes = 64 << 20
    /// Every complete RAW file holds at least about 2 bits a sensor cell (lossy-compressed ones
    /// too); cut or stripped files that LibRaw would "develop" into noise hold far less.
    static let leastBitsPerCell = 1.0
    /// No sensor has more cells than this (a 400 MP medium-format back has fewer).
    static let mostCells = 1 << 30

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        let opened = try RAWFile(path: path, stage: .probe)
        var info = try picture(opened, file: file, path: path)
        // The file's own EXIF first (Exiv2), then LibRaw's reading, then the preview's EXIF.
        let camera = (opened.exif?.camera ?? CameraInfo()).filling(from: opened.raw.map(RAWCodec.camera))
            .filling(from: info.camera)
        info.camera = camera.isEmpty ? nil : camera
        info.dateTaken = opened.exif?.dateTaken ?? opened.raw.flatMap(RAWCodec.dateTaken) ?? info.dateTaken
        return info
    }

    /// Body, lens and exposure as LibRaw reads them from the file's header (its names are
    /// LibRaw's own, "Sony SLT-A55" for EXIF's "SONY SLT-A55V": used only where EXIF says none).
    static func camera(_ raw: iw_raw_info) -> CameraInfo {
        var camera = CameraInfo()
        var copy = raw
        func text(_ field: UnsafeRawPointer, _ size: Int) -> String? {
            let bytes = UnsafeRawBufferPointer(start: field, count: size).prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self).trimmedOfSpaces
        }
        camera.make = withUnsafeBytes(of: &copy.make) { text($0.baseAddress!, $0.count) }
        camera.model = withUnsafeBytes(of: &copy.model) { text($0.baseAddress!, $0.count) }
        camera.lens = withUnsafeBytes(of: &copy.lens) { text($0.baseAddress!, $0.count) }
        if raw.iso >= 1 { camera.iso = Int(raw.iso.rounded()) }
        if raw.aperture > 0 { camera.fNumber = (Double(raw.aperture) * 10).rounded() / 10 }
        if raw.focal_length > 0 { camera.focalLength = (Double(raw.focal_length) * 10).rounded() / 10 }
        if raw.shutter > 0 {
            let seconds = Double(raw.shutter)
            camera.exposureTime =
                seconds < 1
                ? CameraInfo.Fraction(1, Int((1 / seconds).rounded()))
                : CameraInfo.Fraction(Int((seconds * 10).rounded()), 10)
        }
        return camera
    }

    /// When the photo was taken, "YYYY:MM:DD HH:MM:SS" as EXIF writes it: LibRaw turns the
    /// camera's clock reading into a time with the local zone, so the local zone turns it back.
    static func dateTaken(_ raw: iw_raw_info) -> String? {
        guard raw.timestamp > 0 else { return nil }
        var time = time_t(raw.timestamp)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return nil }
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(parts.tm_year + 1900):\(two(parts.tm_mon + 1)):\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    /// What draws the file: its largest usable preview, else its sensor data.
    private func picture(_ opened: RAWFile, file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        var problem = opened.previewProblem
        if let preview = opened.preview {
            switch Result(catching: { () throws(CodecError) in try JPEGHeader.read(preview.reader, path: path) }) {
            case .success(var info):
                let size = info.storedSize
                if max(size.width, size.height) >= RAWCodec.smallestPreview {
                    info.format = .raw
                    info.drawnFrom = "preview \(size.width)x\(size.height) JPEG" + (opened.raw == nil ? " (Exiv2)" : "")
                    if opened.orientation != .up { info.orientation = opened.orientation }
                    info.fullerSize = opened.sensorSize(biggerThan: size, fileSize: file.fileSize)
                    info.capturedSize = opened.capturedSize(biggerThan: size)
                    info.embeddedPreview = opened.previewBytes
                    // The preview's own EXIF thumbnail lies in the file only where the preview does.
                    info.embeddedThumbnail = opened.previewBytes.flatMap { preview in
                        info.embeddedThumbnail.map {
                            preview.lowerBound + $0.lowerBound..<preview.lowerBound + $0.upperBound
                        }
                    }
                    return info
                }
                problem = "its largest preview is \(size.width)x\(size.height), too small to draw"
            case .failure(let error):
                problem = "its preview is damaged (\(error.reason))"
            }
        }
        if let bitmap = opened.bitmap {
            let size = bitmap.size
            if max(size.width, size.height) >= RAWCodec.smallestPreview {
                var info = ImageInfo(
                    format: .raw, storedSize: size, orientation: opened.orientation, colorModel: .rgb, bitDepth: 8,
                    hasAlpha: false, isProgressive: false)
                info.drawnFrom = "preview \(size.width)x\(size.height) bitmap"
                info.fullerSize = opened.sensorSize(biggerThan: size, fileSize: file.fileSize)
                info.capturedSize = opened.capturedSize(biggerThan: size)
                return info
            }
            problem = "its largest preview is a \(size.width)x\(size.height) bitmap, too small to draw"
        }
        // No usable preview: the sensor data, developed at half size, if the file can hold it.
        guard let raw = opened.raw else {
            throw CodecError(
                .probe, path: path,
                reason: "\(RAWCodec.kind(path)): LibRaw cannot read it (\(opened.unreadable ?? "?")), and "
                    + (problem.map { "Exiv2 finds no preview to draw (\($0))" } ?? "Exiv2 finds no preview"))
        }
        if let sensor = RAWCodec.sensorProblem(raw, fileSize: file.fileSize) {
            let reason = sensor.cut ? "\(problem ?? "no preview"), and \(sensor.text)" : sensor.text
            throw CodecError(.probe, path: path, reason: "\(RAWCodec.kind(path)): \(reason)")
        }
        var info = ImageInfo(
            format: .raw, storedSize: RAWCodec.halfSize(raw),
            orientation: RAWCodec.orientation(flip: raw.flip) ?? .up, colorModel: .rgb, bitDepth: 8, hasAlpha: false,
            isProgressive: false)
        info.drawnFrom = RAWCodec.sensor
        info.capturedSize = opened.capturedSize(biggerThan: info.storedSize)
        return info
    }

    /// Why the sensor data of `raw` cannot be developed, if it cannot: more cells than any
    /// sensor has, or too few bytes in the file to hold them (`cut`).
    static func sensorProblem(_ raw: iw_raw_info, fileSize: Int) -> (text: String, cut: Bool)? {
        let cells = Int(raw.raw_width) * Int(raw.raw_height)
        guard cells > 0, cells <= RAWCodec.mostCells else {
            return ("its sensor claims \(raw.raw_width)x\(raw.raw_height) cells", false)
        }
        guard Double(fileSize) * 8 / Double(cells) >= RAWCodec.leastBitsPerCell else {
            return (
                "the file is too small to hold its \(raw.raw_width)x\(raw.raw_height) sensor's data (cut or stripped)",
                true
            )
        }
        return nil
    }

    /// The size LibRaw develops the sensor data at with `half_size`, before `flip`.
    static func halfSize(_ raw: iw_raw_info) -> Size {
        Size(width: (Int(raw.width) + 1) / 2, height: (Int(raw.height) + 1) / 2)
    }

    /// Whether a decode for `target` develops the sensor data: the file has no usable preview,
    /// or its preview is smaller than the tile needs (by the margin every decode keeps) and
    /// the sensor data, developed at half size, is bigger.
    static func developsSensor(_ info: ImageInfo, target: Size?, margin: Int) -> Bool {
        if info.drawnFrom == RAWCodec.sensor { return true }
        guard info.fullerSize != nil, let target else { return false }
        return target.width * margin > info.storedSize.width || target.height * margin > info.storedSize.height
    }

    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage {
        if info.drawnFrom == RAWCodec.sensor { return try develop(path) }
        if RAWCodec.developsSensor(info, target: target, margin: decoder.margin),
            case .success(let developed) = Result(catching: { () throws(CodecError) in try develop(path) })
        {
            return developed
        }  // else the preview, smaller than the tile asks, is the picture there is
        // The preview where the probe found it in the file, else as LibRaw unpacks it again.
        let opened: RAWFile?
        let preview: (bytes: [UInt8], reader: FileReader)
        if let bytes = RAWCodec.embeddedPreview(path: path, info: info) {
            opened = nil
            preview = (bytes, FileReader(bytes: bytes))
        } else {
            let unpacked = try RAWFile(path: path, stage: .decode)
            if let bitmap = unpacked.bitmap {
                return DecodedImage(
                    bitmap: bitmap, warnings: [],
                    notes: ["drawn from its embedded \(bitmap.size.width)x\(bitmap.size.height) bitmap preview"])
            }
            guard let found = unpacked.preview else {
                throw CodecError(
                    .decode, path: path, reason: "\(RAWCodec.kind(path)): \(unpacked.previewProblem ?? "no preview")")
            }
            opened = unpacked
            preview = found
        }
        // What Exiv2 read before it stopped: a file cut short after its previews.
        let cut = opened.flatMap { $0.raw == nil ? $0.exif?.stopped.map { RAWCodec.cutShort($0) } : nil }
        var previewInfo = info
        previewInfo.format = .jpeg
        let profile =
            decoder.convertsToSRGB && info.hasICCProfile
            ? (try? JPEGHeader.iccProfile(preview.reader, path: path)).flatMap { $0 }.map(ColorProfile.init)
            : nil
        // The preview is decoded where it lies in memory, as a stream libjpeg reads (only read:
        // made mutable for fmemopen's sake, not copied).
        let result = preview.bytes.withUnsafeBytes { buffer in
            Result { () throws(CodecError) -> DecodedImage in
                guard let jpeg = fmemopen(UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count, "rb")
                else {
                    throw CodecError(.decode, path: path, reason: systemErrorText())
                }
                defer { fclose(jpeg) }
                return try JPEGCodec().decode(
                    jpeg, path: path, info: previewInfo, target: target, decoder: decoder, profile: profile)
            }
        }
        switch result {
        case .success(var decoded):
            if let cut { decoded.warnings.append(cut) }
            decoded.notes.append(
                "drawn from its embedded \(info.storedSize.width)x\(info.storedSize.height) JPEG preview"
                    + (opened.map { $0.raw == nil } ?? false
                        ? " (found by Exiv2: LibRaw \(RAWCodec.libRawVersion) cannot read the file)" : ""))
            return decoded
        case .failure(let error):
            throw CodecError(error.stage, path: path, reason: error.reason)
        }
    }

    /// The sensor data developed at half size by LibRaw, refused when it cannot be all there.
    private func develop(_ path: String) throws(CodecError) -> DecodedImage {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = iw_raw_develop(
            path.systemPath, RAWCodec.leastBitsPerCell, Int64(RAWCodec.mostCells), &pixels, &width, &height, &message,
            message.count)
        defer { free(pixels) }
        guard status == 0, let pixels, width > 0, height > 0 else {
            throw CodecError(.decode, path: path, reason: "\(RAWCodec.kind(path)): \(message.text)")
        }
        let size = Size(width: Int(width), height: Int(height))
        let bitmap = Bitmap(
            size: size, alpha: .none,
            pixels: Array(UnsafeBufferPointer(start: pixels, count: size.width * size.height * 3)))
        return DecodedImage(
            bitmap: bitmap, warnings: [], notes: ["developed from its sensor data at half size (no usable preview)"])
    }

    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String {
        RAWCodec.developsSensor(info, target: target, margin: decoder.margin)
            ? "sensor, half size" : "preview, " + JPEGCodec().decodePlan(info: info, target: target, decoder: decoder)
    }

    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        if RAWCodec.developsSensor(info, target: target, margin: decoder.margin) {
            let area = (info.fullerSize ?? info.storedSize).area ?? 0
            // The unpacked sensor (4 cells of 2 bytes a pixel) and LibRaw's 4-channel 16-bit image.
            return (area * 3, area * 8 + area * 8)
        }
        let jpeg = JPEGCodec().workingMemory(info: info, target: target, decoder: decoder)
        return (jpeg.pixels, jpeg.besides + (info.storedSize.area ?? 0) / 2)  // the preview's bytes, about
    }

    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? {
        guard info.hasICCProfile, info.drawnFrom != RAWCodec.sensor,
            let reader = RAWCodec.embeddedPreview(path: path, info: info).map(FileReader.init(bytes:))
                ?? (try? RAWFile(path: path, stage: .decode))?.preview?.reader
        else { return nil }
        return (try? JPEGHeader.iccProfile(reader, path: path)).flatMap { $0 }.map(ColorProfile.init(data:))
    }

    /// The JPEG preview's bytes read where the probe found them (``ImageInfo/embeddedPreview``);
    /// `nil` when it found none there, or the file no longer holds a whole JPEG start there.
    static func embeddedPreview(path: String, info: ImageInfo) -> [UInt8]? {
        guard let range = info.embeddedPreview, range.lowerBound >= 0, range.count >= 2,
            range.count <= largestPreviewBytes, let reader = try? FileReader(path: path, headBytes: 0),
            let bytes = try? reader.read(at: range.lowerBound, count: range.count, path: path),
            bytes.count == range.count, bytes.starts(with: [0xFF, 0xD8])
        else { return nil }
        return bytes
    }

    /// The warning for a file Exiv2 stopped reading part-way (`reason`, Exiv2's words), drawn
    /// from a preview that lies before the damage.
    static func cutShort(_ reason: String) -> String {
        "cut short or damaged after its preview (Exiv2: \(reason)): its sensor data is not all there; "
            + "drawn from the preview, which is whole"
    }

    /// "0.20.2": LibRaw's version, for messages.
    static let libRawVersion = String(cString: iw_raw_version()).split(separator: "-").first.map(String.init) ?? "?"

    /// "RAW camera file (NEF)": what the file at `path` is, for messages.
    static func kind(_ path: String) -> String {
        "RAW camera file (\(FileSignature.fileExtension(of: path)?.uppercased() ?? "RAW"))"
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
