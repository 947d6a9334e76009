import CHEIFShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// HEIF (HEIC from phones) and AVIF through libheif: the primary image with the
/// transformations libheif applies itself (irot, imir, clap; the EXIF orientation is never
/// applied on top), grid-tiled images as phones write them, alpha, and ICC or nclx colour.
/// Shrinking on load means an embedded thumbnail, when one is at least as large as the tile
/// needs (as libvips chooses); libheif cannot decode the full image scaled, so its rows are
/// box-averaged as they are taken, as far as leaves the decoder's margin over the tile.
struct HEIFCodec: ImageCodec {
    /// A container other formats are made of: specialised readers go first.
    var priority: ClaimPriority { .container }

    func sniff(_ head: [UInt8]) -> ImageFormat? {
        switch head.withUnsafeBufferPointer({ iw_heif_sniff($0.baseAddress, $0.count) }) {
        case 1: return .heif
        case 2: return .avif
        default: return nil
        }
    }

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        guard file.descriptor >= 0, let stamp = file.stamp else {
            throw CodecError(.probe, path: path, reason: "HEIF is read from its file, not from memory")
        }
        let reading = try HEIFReading(descriptor: file.descriptor, size: file.fileSize, path: path, stage: .probe)
        var header = iw_heif_info()
        var message = [CChar](repeating: 0, count: 512)
        guard iw_heif_probe(reading.file, &header, &message, message.count) == 0 else {
            throw CodecError(.probe, path: path, reason: "HEIF refused by libheif: " + message.text)
        }
        defer { iw_heif_free_info(&header) }
        guard header.width > 0, header.height > 0 else {
            throw CodecError(.probe, path: path, reason: "corrupt HEIF: the image has no size")
        }
        let exif = header.exif.map {
            ExifReader.fields(inTIFF: Array(UnsafeBufferPointer(start: $0, count: header.exif_size)))
        }
        let thumbnails = withUnsafeBytes(of: header.thumbnail_width) { widths in
            withUnsafeBytes(of: header.thumbnail_height) { heights in
                (0..<Int(header.thumbnails)).map { i in
                    Size(
                        width: Int(widths.load(fromByteOffset: 4 * i, as: Int32.self)),
                        height: Int(heights.load(fromByteOffset: 4 * i, as: Int32.self)))
                }
            }
        }.filter { $0.width > 0 && $0.height > 0 }.sorted { ($0.area ?? 0) < ($1.area ?? 0) }
        let nclx = header.has_nclx != 0 ? NCLXColor(primaries: header.primaries, transfer: header.transfer) : nil
        var info = ImageInfo(
            format: sniff(file.head) ?? .heif, storedSize: Size(width: Int(header.width), height: Int(header.height)),
            orientation: .up, colorModel: .ycbcr, bitDepth: Int(max(header.luma_bits, 8)),
            hasAlpha: header.has_alpha != 0,
            isProgressive: false, hasICCProfile: header.icc_size > 0 || (nclx.map { !$0.isSRGB } ?? false),
            dateTaken: exif?.dateTaken, reducedSizes: thumbnails.isEmpty ? nil : thumbnails)
        info.contentIdentifier = exif?.contentIdentifier
        info.camera = exif?.camera
        // Kept for the decode, which then reads only the image it decodes.
        iw_heif_read_through(reading.file, -1)
        ProbedFiles.shared.keep(reading, path: path, stamp: stamp)
        return info
    }

    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage {
        let descriptor = fileno(file)
        guard let stamp = FileStamp(descriptor: descriptor) else {
            throw CodecError(.decode, path: path, reason: systemErrorText())
        }
        let reading: HEIFReading
        if let kept = ProbedFiles.shared.take(HEIFReading.self, path: path, stamp: stamp) {
            reading = kept
        } else {
            reading = try HEIFReading(descriptor: descriptor, size: Int(stamp.size), path: path, stage: .decode)
        }
        iw_heif_read_through(reading.file, descriptor)
        var decoded = iw_heif_decoded()
        var message = [CChar](repeating: 0, count: 512)
        let wanted = target.map { HEIFCodec.thumbnailNeed(target: $0) } ?? Size(width: 0, height: 0)
        guard
            iw_heif_decode(reading.file, Int32(wanted.width), Int32(wanted.height), &decoded, &message, message.count)
                == 0
        else {
            throw CodecError(.decode, path: path, reason: "corrupt HEIF: " + message.text)
        }
        defer { withExtendedLifetime(reading) {} }  // the decoded image is the file's: released first
        defer { iw_heif_release(&decoded) }
        let size = Size(width: Int(decoded.width), height: Int(decoded.height))
        let channels = Int(decoded.channels)
        guard size.width > 0, size.height > 0, ImageDecoder.byteCount(size, channels: channels) != nil else {
            throw CodecError(.decode, path: path, reason: "libheif returned no image")
        }
        // libheif decodes whole: its rows are box-averaged as they are taken, as PNG rows are,
        // so that a 12 MP photo for a small tile is held (and colour-converted) at its shrunk size.
        let shrink =
            target.map { BoxShrinkStream.factors(stored: size, target: $0, margin: decoder.margin) } ?? (x: 1, y: 1)
        let rowBytes = size.width * channels
        var bitmap: Bitmap
        if shrink.x > 1 || shrink.y > 1 {
            var stream = BoxShrinkStream(sourceSize: size, channels: channels, factorX: shrink.x, factorY: shrink.y)
            let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
            defer { scratch.deallocate() }
            for y in 0..<size.height { stream.add(row: iw_heif_row(&decoded, Int32(y), scratch)) }
            bitmap = stream.result
        } else {
            // Every row written: the bitmap is not cleared first.
            bitmap = Bitmap(size: size, alpha: channels == 4 ? .straight : .none) { out in
                for y in 0..<size.height {
                    let target = out.baseAddress! + y * rowBytes
                    let row = iw_heif_row(&decoded, Int32(y), target)!
                    if row != UnsafePointer(target) { target.initialize(from: row, count: rowBytes) }
                }
            }
        }
        var image = DecodedImage(bitmap: bitmap, warnings: [])
        guard decoder.convertsToSRGB else { return image }
        // The primary image's colour, read in the same pass: an ICC profile, or nclx code points.
        if let icc = decoded.icc, decoded.icc_size > 0 {
            image.convert(from: ColorProfile(data: Array(UnsafeBufferPointer(start: icc, count: decoded.icc_size))))
        } else if decoded.has_nclx != 0 {
            let nclx = NCLXColor(primaries: decoded.primaries, transfer: decoded.transfer)
            if let profile = nclx.profile {
                image.convert(from: profile)
            } else if let reason = nclx.unsupportedReason {
                image.warnings.append(reason)
            }
        }
        return image
    }

    /// "1.15.1": the version of the libheif loaded (loading it), which HEIF decode plans name.
    static let libraryVersion = String(cString: iw_heif_library_version())

    /// The decoded pixels (of the thumbnail when one will do), and libheif's planes besides.
    /// Keyed by the target itself: the image (thumbnail or level) and the shrink follow from it.
    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String {
        (target.map { "target \($0.width)x\($0.height), rows box-averaged" } ?? "whole")
            + " by libheif \(HEIFCodec.libraryVersion)"
    }

    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        var size = info.storedSize
        if let target {
            let need = HEIFCodec.thumbnailNeed(target: target)
            if let thumbnail = info.reducedSizes?.first(where: { $0.width >= need.width && $0.height >= need.height }) {
                size = thumbnail
            }
        }
        let channels = info.hasAlpha ? 4 : 3
        let shrink =
            target.map { BoxShrinkStream.factors(stored: size, target: $0, margin: decoder.margin) } ?? (x: 1, y: 1)
        let shrunk = BoxShrinkStream.shrunk(size, by: shrink)
        let kept = shrunk.width * shrunk.height * channels
        // Besides what is kept: libheif's R, G, B (A) planes, 2 bytes a sample deeper than 8 bits
        // and then also interleaved at 8, and its decoder's state, 2 bytes a pixel (measured:
        // libheif alone peaks 59 MB above an idle process on a 12 MP phone HEIC, 8-bit 4:2:0 in
        // 512 px grid tiles, 37 MB of it the planes).
        let area = size.width * size.height
        let planes = info.bitDepth > 8 ? area * channels * 3 : area * channels
        return (kept, planes + area * 2)
    }

    /// The ICC profile (prof or rICC), or one made from the nclx colour.
    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? {
        let descriptor = fileno(file)
        guard let stamp = FileStamp(descriptor: descriptor),
            let reading = try? HEIFReading(descriptor: descriptor, size: Int(stamp.size), path: path, stage: .probe)
        else { return nil }
        var header = iw_heif_info()
        var message = [CChar](repeating: 0, count: 512)
        guard iw_heif_probe(reading.file, &header, &message, message.count) == 0 else { return nil }
        iw_heif_free_info(&header)
        if header.icc_size > 0 {
            var bytes = [UInt8](repeating: 0, count: Int(header.icc_size))
            guard iw_heif_icc(reading.file, &bytes, bytes.count, &message, message.count) == 0 else { return nil }
            return ColorProfile(data: bytes)
        }
        guard header.has_nclx != 0 else { return nil }
        return NCLXColor(primaries: header.primaries, transfer: header.transfer).profile
    }

    /// A HEIF file as libheif read it, through `descriptor` (``iw_heif_open``); closed when released.
    /// Used by one thread at a time: the probe's, then the decode's that takes it.
    final class HEIFReading: @unchecked Sendable {
        let file: OpaquePointer

        init(descriptor: Int32, size: Int, path: String, stage: CodecStage) throws(CodecError) {
            var message = [CChar](repeating: 0, count: 512)
            guard let file = iw_heif_open(descriptor, Int64(size), &message, message.count) else {
                let reason = message.text
                throw CodecError(
                    stage, path: path,
                    reason: (stage == .probe ? "HEIF refused by libheif: " : "corrupt HEIF: ") + reason)
            }
            self.file = file
        }

        deinit { iw_heif_close(file) }
    }

    /// The smallest thumbnail that will do for a tile of `target` stored pixels: one at least
    /// as large as the tile, the rule libvips follows.
    static func thumbnailNeed(target: Size) -> Size { target }
}
