import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// JPEG through libjpeg(-turbo): the header walked by ``JPEGHeader``, pixels decoded with DCT
/// scaling (1/2, 1/4, 1/8), and progressive files read at 1/8 only as far as that needs.
struct JPEGCodec: ImageCodec {
    /// Told apart by a signature of its own.
    var priority: ClaimPriority { .signature }

    func sniff(_ head: [UInt8]) -> ImageFormat? {
        head.count >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF ? .jpeg : nil
    }

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        try JPEGHeader.read(file, path: path)
    }

    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage {
        let profile = decoder.convertsToSRGB && info.hasICCProfile ? colorProfile(file, path: path, info: info) : nil
        return try decode(file, path: path, info: info, target: target, decoder: decoder, profile: profile)
    }

    /// Decodes the JPEG stream `file` (a file, or one in memory such as a RAW file's preview),
    /// converting it from `profile` when given.
    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder,
        profile: ColorProfile?
    ) throws(CodecError) -> DecodedImage {
        let numerator =
            target.map { JPEGCodec.scaleNumerator(stored: info.storedSize, target: $0, margin: decoder.margin) } ?? 8
        let dcOnly: JPEGDecoding.DCOnly = !decoder.stopsProgressiveAtDC ? .never : decoder.fast ? .firstScan : .complete
        return try JPEGDecoding.decode(
            file: file, path: path, scaleNumerator: numerator, maxScans: decoder.maxProgressiveScans, profile: profile,
            dcOnly: dcOnly)
    }

    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String {
        let numerator =
            target.map { JPEGCodec.scaleNumerator(stored: info.storedSize, target: $0, margin: decoder.margin) } ?? 8
        return "scale \(numerator)/8"
    }

    /// The decoded pixels, and for a progressive JPEG the coefficients of the whole image,
    /// which libjpeg keeps at any scale (64 two-byte coefficients an 8×8 block: two bytes a
    /// sample).
    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        let stored = info.storedSize
        let inks = info.colorModel == .cmyk || info.colorModel == .ycck
        let n = target.map { JPEGCodec.scaleNumerator(stored: stored, target: $0, margin: decoder.margin) } ?? 8
        let pixels = ((stored.width * n + 7) / 8) * ((stored.height * n + 7) / 8) * (inks ? 4 : 3)
        guard info.isProgressive else { return (pixels, 0) }
        let components = info.colorModel == .gray ? 1 : inks ? 4 : 3
        let chromaShare: Int
        switch info.chromaSubsampling {
        case "4:2:0", "4:1:1": chromaShare = 4
        case "4:2:2", "4:4:0": chromaShare = 2
        default: chromaShare = 1
        }
        let luma = 2 * stored.width * stored.height
        return (pixels, luma + (components - 1) * luma / chromaShare)
    }

    /// The APP2 chunks joined.
    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? {
        guard info.hasICCProfile, let reader = try? FileReader(path: path, headBytes: 65536),
            let data = try? JPEGHeader.iccProfile(reader, path: path)
        else { return nil }
        return ColorProfile(data: data)
    }

    /// The libjpeg scale (numerator over 8: 8, 4, 2 or 1) that shrinks `stored` the most while
    /// keeping both sides at least `margin` times `target`'s (twice: libvips' rule).
    static func scaleNumerator(stored: Size, target: Size, margin: Int = 2) -> Int {
        for numerator in [1, 2, 4] {
            let denominator = 8 / numerator
            let width = (stored.width + denominator - 1) / denominator
            let height = (stored.height + denominator - 1) / denominator
            if width >= margin * target.width && height >= margin * target.height { return numerator }
        }
        return 8
    }
}
