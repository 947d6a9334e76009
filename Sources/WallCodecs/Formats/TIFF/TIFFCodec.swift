import CTIFFShim
import Foundation
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// TIFF and BigTIFF through libtiff: strips and tiles; 1 to 16 bits; grey, RGB(A), palette,
/// YCbCr, CIE L*a*b* and CMYK (through its ICC profile when it has one); every compression
/// libtiff was built with (none, LZW, deflate, JPEG, PackBits, CCITT, …); the Orientation tag.
/// A multi-page file shows its first page. Pixels are read in bands of strips or tiles and
/// box-averaged as they arrive; a file holding reduced-resolution versions of its first page
/// (a pyramid) is read from the smallest one that still covers the tile.
struct TIFFCodec: ImageCodec {
    /// The most libtiff may allocate at once for one file (a strip, a tile, a table).
    static let maxAllocation = 512 << 20
    /// Directories looked at for reduced-resolution versions.
    static let maxDirectories = 64

    /// A container other formats are made of: specialised readers go first.
    var priority: ClaimPriority { .container }

    func sniff(_ head: [UInt8]) -> ImageFormat? {
        let magic: [[UInt8]] = [
            [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], [0x49, 0x49, 0x2B, 0x00], [0x4D, 0x4D, 0x00, 0x2B],
        ]
        return magic.contains { head.starts(with: $0) } ? .tiff : nil
    }

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        let tiff = try TIFFCodec.open(path, stage: .probe)
        defer { iw_tiff_close(tiff) }
        let first = try TIFFCodec.directory(tiff, path: path, stage: .probe)
        let levels = TIFFCodec.reducedLevels(tiff, of: first).map(\.size)
        let date = withUnsafeBytes(of: first.datetime) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return ImageInfo(
            format: .tiff, storedSize: Size(width: Int(first.width), height: Int(first.height)),
            orientation: Orientation(rawValue: Int(first.orientation)) ?? .up, colorModel: TIFFCodec.colorModel(first),
            bitDepth: Int(first.bits), hasAlpha: first.alpha != 0, isProgressive: false,
            hasICCProfile: first.icc_size > 0,
            dateTaken: date.count == 19 ? date : nil, reducedSizes: levels.isEmpty ? nil : levels)
    }

    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage {
        let tiff = try TIFFCodec.open(path, stage: .decode)
        defer { iw_tiff_close(tiff) }
        let first = try TIFFCodec.directory(tiff, path: path, stage: .decode)
        guard Size(width: Int(first.width), height: Int(first.height)) == info.storedSize else {
            throw CodecError(.decode, path: path, reason: "header changed since it was probed")
        }
        // The smallest level that keeps the decoder's margin over the tile.
        var chosen = first
        if let target {
            let level = TIFFCodec.reducedLevels(tiff, of: first).first {
                $0.size.width >= decoder.margin * target.width && $0.size.height >= decoder.margin * target.height
            }
            if let level, iw_tiff_set_directory(tiff, Int32(level.index)) == 0 {
                chosen = try TIFFCodec.directory(tiff, path: path, stage: .decode)
            } else {
                _ = iw_tiff_set_directory(tiff, 0)
            }
        }
        let size = Size(width: Int(chosen.width), height: Int(chosen.height))
        var profile: ColorProfile?
        if decoder.convertsToSRGB, chosen.icc_size > 0 {
            var bytes: UnsafePointer<UInt8>?
            var count: UInt32 = 0
            if iw_tiff_icc(tiff, &bytes, &count) == 0, let bytes {
                profile = ColorProfile(data: Array(UnsafeBufferPointer(start: bytes, count: Int(count))))
            }
        }
        // CMYK and L*a*b* are read as stored and converted here: CMYK through its profile, L*a*b*
        // by LittleCMS (libtiff's own conversions are approximate).
        let raw = TIFFCodec.rawKind(chosen)
        let alpha = chosen.alpha != 0 && raw == nil
        let channels = alpha || raw != nil ? 4 : 3
        let shrink = target.map { TIFFCodec.shrink(stored: size, target: $0, margin: decoder.margin) } ?? (x: 1, y: 1)
        var stream = BoxShrinkStream(
            sourceSize: size, channels: channels, factorX: shrink.x, factorY: shrink.y, fourthIsAlpha: raw == nil)
        var message = [CChar](repeating: 0, count: 512)
        guard let reader = iw_tiff_begin(tiff, raw == nil ? 0 : 1, &message, message.count) else {
            throw CodecError(.decode, path: path, reason: TIFFCodec.plain(message.text))
        }
        defer { iw_tiff_end(reader) }
        let bandRows = max(1, Int(chosen.band_rows))
        var band = [UInt8](repeating: 0, count: size.width * 4 * bandRows)
        var row = [UInt8](repeating: 0, count: size.width * channels)
        var unreadable = 0
        var firstProblem: String?
        for top in stride(from: 0, to: size.height, by: bandRows) {
            let rows = min(bandRows, size.height - top)
            iw_tiff_clear_message(tiff)
            let failed =
                band.withUnsafeMutableBufferPointer { iw_tiff_read(reader, UInt32(top), UInt32(rows), $0.baseAddress) }
                != 0
            if failed {
                // A damaged strip or tile: mid-grey, as the rest of a damaged file is drawn.
                unreadable += rows
                if firstProblem == nil {
                    let text = TIFFCodec.plain(String(cString: iw_tiff_message(tiff)))
                    firstProblem = text.isEmpty ? "unreadable image data" : text
                }
                let grey = TIFFCodec.midGrey(raw)
                for i in 0..<(rows * size.width) {
                    for c in 0..<4 { band[4 * i + c] = grey[c] }
                }
            }
            band.withUnsafeBufferPointer { source in
                row.withUnsafeMutableBufferPointer { out in
                    for y in 0..<rows {
                        let from = source.baseAddress! + y * size.width * 4
                        if channels == 4 {
                            stream.add(row: from)
                        } else {
                            for x in 0..<size.width {
                                out[3 * x] = from[4 * x]; out[3 * x + 1] = from[4 * x + 1];
                                out[3 * x + 2] = from[4 * x + 2]
                            }
                            stream.add(row: UnsafePointer(out.baseAddress!))
                        }
                    }
                }
            }
        }
        stream.finish()
        var decoded = DecodedImage(bitmap: stream.result, warnings: [])
        if let firstProblem {
            guard unreadable < size.height else { throw CodecError(.decode, path: path, reason: firstProblem) }
            decoded.warnings.append("\(firstProblem) (\(unreadable) of \(size.height) rows unreadable)")
        }
        switch raw {
        case .cmyk?:
            switch profile?.convertCMYK(decoded.bitmap, inverted: false) {
            case .converted(let rgb)?: decoded.bitmap = rgb
            case .ignored(let reason)?:
                decoded.warnings.append(reason)
                decoded.bitmap = JPEGDecoding.cmykToRGB(decoded.bitmap, inverted: false)
            case .unchanged?, nil: decoded.bitmap = JPEGDecoding.cmykToRGB(decoded.bitmap, inverted: false)
            }
        case .lab(let signed)?:
            guard let rgb = ColorProfile.labToSRGB(decoded.bitmap, signedAB: signed) else {
                throw CodecError(.decode, path: path, reason: "LittleCMS could not convert CIE L*a*b* to sRGB")
            }
            decoded.bitmap = rgb
        case nil:
            if let profile { decoded.convert(from: profile) }
        }
        return decoded
    }

    /// Pixels read as stored, for ImageWall to convert.
    enum RawKind: Equatable {
        case cmyk
        case lab(signed: Bool)
    }

    /// How the current directory is read as stored, or `nil` for libtiff's RGBA reader.
    static func rawKind(_ d: iw_tiff_directory) -> RawKind? {
        guard d.planar == 1, d.bits == 8 || d.bits == 16 else { return nil }
        if d.photometric == 5 && d.inkset == 1 && d.samples >= 4 { return .cmyk }
        if (d.photometric == 8 || d.photometric == 9) && d.samples >= 3 { return .lab(signed: d.photometric == 8) }
        return nil
    }

    /// Mid-grey in the samples of `raw` (for rows that cannot be read).
    static func midGrey(_ raw: RawKind?) -> [UInt8] {
        switch raw {
        case .cmyk?: return [0, 0, 0, 127]
        case .lab(let signed)?: return [137, signed ? 0 : 128, signed ? 0 : 128, 0]
        case nil: return [128, 128, 128, 255]
        }
    }

    /// The shrunk pixels, and besides them one band of strips or tiles as 32-bit pixels.
    /// Keyed by the target itself: the image (thumbnail or level) and the shrink follow from it.
    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String {
        target.map { "target \($0.width)x\($0.height)" } ?? "whole"
    }

    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        var stored = info.storedSize
        if let target,
            let level = info.reducedSizes?.first(where: {
                $0.width >= decoder.margin * target.width && $0.height >= decoder.margin * target.height
            })
        {
            stored = level
        }
        let shrink = target.map { TIFFCodec.shrink(stored: stored, target: $0, margin: decoder.margin) } ?? (1, 1)
        let kept = BoxShrinkStream.shrunk(stored, by: shrink)
        let pixels = kept.width * kept.height * 4
        // A band is one strip or row of tiles: usually small, the whole image for a single strip.
        return (pixels, stored.width * 4 * min(stored.height, 256) + stored.width * stored.height / 8)
    }

    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? {
        guard info.hasICCProfile, let tiff = try? TIFFCodec.open(path, stage: .decode) else { return nil }
        defer { iw_tiff_close(tiff) }
        var bytes: UnsafePointer<UInt8>?
        var count: UInt32 = 0
        guard iw_tiff_icc(tiff, &bytes, &count) == 0, let bytes else { return nil }
        return ColorProfile(data: Array(UnsafeBufferPointer(start: bytes, count: Int(count))))
    }

    /// Box factors, as for PNG, at most 64 each.
    static func shrink(stored: Size, target: Size, margin: Int) -> (x: Int, y: Int) {
        let factors = BoxShrinkStream.factors(stored: stored, target: target, margin: margin)
        return (min(64, factors.x), min(64, factors.y))
    }

    static func open(_ path: String, stage: CodecStage) throws(CodecError) -> OpaquePointer {
        var message = [CChar](repeating: 0, count: 512)
        guard let tiff = iw_tiff_open(path.systemPath, maxAllocation, &message, message.count) else {
            throw CodecError(stage, path: path, reason: "corrupt TIFF: " + TIFFCodec.plain(message.text))
        }
        return tiff
    }

    /// The current directory's tags, refusing what libtiff cannot turn into RGB.
    static func directory(_ tiff: OpaquePointer, path: String, stage: CodecStage) throws(CodecError)
        -> iw_tiff_directory
    {
        var directory = iw_tiff_directory()
        guard iw_tiff_directory_info(tiff, &directory) == 0 else {
            throw CodecError(
                stage, path: path, reason: "corrupt TIFF: " + TIFFCodec.plain(String(cString: iw_tiff_message(tiff))))
        }
        guard directory.width > 0, directory.height > 0 else {
            throw CodecError(stage, path: path, reason: "corrupt TIFF: the image has no size")
        }
        switch directory.sample_format {
        case 2: throw CodecError(stage, path: path, reason: "unsupported TIFF: signed integer samples")
        case 3: throw CodecError(stage, path: path, reason: "unsupported TIFF: floating-point samples")
        case 5, 6: throw CodecError(stage, path: path, reason: "unsupported TIFF: complex samples")
        default: break
        }
        guard directory.readable != 0 || rawKind(directory) != nil else {
            let reason = withUnsafeBytes(of: directory.reason) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw CodecError(
                stage, path: path, reason: "unsupported TIFF: " + (reason.isEmpty ? "libtiff cannot read it" : reason))
        }
        return directory
    }

    /// Reduced-resolution versions of the first page in the directory chain (as pyramids are
    /// written), smallest first, each with its directory's index. Leaves the first directory
    /// current.
    static func reducedLevels(_ tiff: OpaquePointer, of first: iw_tiff_directory) -> [(size: Size, index: Int)] {
        var levels: [(size: Size, index: Int)] = []
        let aspect = Double(first.width) / Double(first.height)
        var index = 0
        while index + 1 < maxDirectories, iw_tiff_next_directory(tiff) == 0 {
            index += 1
            var directory = iw_tiff_directory()
            guard iw_tiff_directory_info(tiff, &directory) == 0 else { break }
            let size = Size(width: Int(directory.width), height: Int(directory.height))
            let sameShape = abs(Double(size.width) / Double(max(1, size.height)) - aspect) <= 0.02 * aspect
            let readable = directory.readable != 0 || rawKind(directory) != nil
            if directory.subfile_type & 1 != 0, readable, sameShape, size.width < first.width {
                levels.append((size, index))
            }
        }
        _ = iw_tiff_set_directory(tiff, 0)
        iw_tiff_clear_message(tiff)
        return levels.sorted { $0.size.width < $1.size.width }
    }

    static func colorModel(_ d: iw_tiff_directory) -> ColorModel {
        switch d.photometric {
        case 0, 1: return d.bits == 1 ? .bilevel : (d.alpha != 0 ? .grayAlpha : .gray)
        case 3: return .palette
        case 5: return .cmyk
        case 6: return .ycbcr
        case 8, 9, 10: return .lab
        default: return d.alpha != 0 ? .rgba : .rgb
        }
    }

    /// libtiff's message with its negative byte counts, which it prints as unsigned 64-bit
    /// numbers ("got 18446744073709550151 bytes" for a strip 1465 bytes past the end of the
    /// file), said in words.
    static func plain(_ message: String) -> String {
        var words = message.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for i in words.indices {
            let digits = words[i].trimmingCharacters(in: CharacterSet(charactersIn: ",;."))
            guard digits.count >= 19, let value = UInt64(digits), value >= 1 << 63 else { continue }
            let short = UInt64.max - value + 1
            if i > 0, words[i - 1] == "got", i + 1 < words.count, words[i + 1].hasPrefix("bytes") {
                words[i - 1] = "got none:"
                words[i] = "the data lies \(short)"
                words[i + 1] = "bytes past the end of the file" + words[i + 1].dropFirst("bytes".count)
            } else {
                words[i] = words[i].replacingOccurrences(of: digits, with: "-\(short)")
            }
        }
        return words.joined(separator: " ")
    }
}
