import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// PNG through libpng's push reader: every colour type and depth, and non-interlaced images
/// box-averaged as their rows arrive, so a big one is never held at full size.
struct PNGCodec: ImageCodec {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Told apart by a signature of its own.
    var priority: ClaimPriority { .signature }

    func sniff(_ head: [UInt8]) -> ImageFormat? {
        head.starts(with: PNGCodec.signature) ? .png : nil
    }

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        try PNGHeader.read(file, path: path)
    }

    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage {
        let shrink =
            target.map { BoxShrinkStream.factors(stored: info.storedSize, target: $0, margin: decoder.margin) } ?? (
                1, 1
            )
        let result = try PNGDecoding.decode(file: file, path: path, info: info, shrink: shrink)
        var decoded = result.image
        if decoder.convertsToSRGB, let profile = result.profile { decoded.convert(from: profile) }
        return decoded
    }

    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String {
        let shrink =
            target.map { BoxShrinkStream.factors(stored: info.storedSize, target: $0, margin: decoder.margin) } ?? (
                x: 1, y: 1
            )
        return "box \(shrink.x)x\(shrink.y)"
    }

    /// The pixels after the box average (interlaced files are not shrunk while decoding).
    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        let stored = info.storedSize
        let shrink =
            info.isProgressive
            ? (1, 1)
            : target.map { BoxShrinkStream.factors(stored: stored, target: $0, margin: decoder.margin) } ?? (1, 1)
        let kept = BoxShrinkStream.shrunk(stored, by: shrink)
        return (kept.width * kept.height * 4, 0)
    }

    /// The iCCP chunk, read up to the image data.
    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? {
        guard info.hasICCProfile else { return nil }
        return (try? PNGDecoding.decode(file: file, path: path, info: info, headerOnly: true))?.profile
    }
}
