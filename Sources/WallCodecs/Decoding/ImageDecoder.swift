import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Decoded pixels, oriented for display, and what the decoder warned about.
public struct DecodedImage: Sendable {
    /// The picture as displayed: RGB, or RGBA with straight alpha.
    public var bitmap: Bitmap
    /// Warnings from libjpeg or libpng (corrupt data, premature end), empty for a clean file.
    public var warnings: [String]
}

/// Decodes JPEG and PNG files to 8-bit RGB(A), shrinking on load where the format allows.
public struct ImageDecoder: Sendable {
    /// Progressive JPEGs with more scans than this are refused (libjpeg-turbo's fuzzers use
    /// 100–500; real encoders write about 10).
    public var maxProgressiveScans: Int = 500

    /// Convert images with an embedded ICC profile to sRGB (LittleCMS).
    public var convertsToSRGB = true
    /// At 1/8 scale, read progressive JPEGs only until their DC coefficients are complete:
    /// the 1/8 output uses nothing else, and the rest of the file is skipped.
    public var stopsProgressiveAtDC = true
    /// Trade a little quality for speed: decode to at least the target size rather than twice
    /// it (libjpeg shrinks more, PNG rows are averaged more), and read progressive JPEGs decoded
    /// at 1/8 only to their first DC scan (about one level coarser).
    public var fast = false

    /// How many times the target's size a decoded image keeps at least (where the image is that
    /// big): the headroom the final Lanczos pass gets.
    public var margin: Int { fast ? 1 : 2 }

    /// Creates a decoder.
    public init() {}

    /// The ICC profile embedded in the image at `path`, if any.
    public func colorProfile(path: String, info: ImageInfo) -> ColorProfile? {
        guard info.hasICCProfile else { return nil }
        switch info.format {
        case .jpeg:
            guard let reader = try? FileReader(path: path, headBytes: 65536),
                let data = try? JPEGHeader.iccProfile(reader, path: path)
            else { return nil }
            return ColorProfile(data: data)
        case .png:
            guard let file = fopen(path, "rb") else { return nil }
            defer { fclose(file) }
            return (try? PNGDecoding.decode(file: file, path: path, info: info, headerOnly: true))?.profile
        }
    }

    /// Decodes the image at `path`, whose header `info` was probed.
    ///
    /// With a `target` (the displayed size it will be drawn at), JPEGs are scaled during
    /// decoding by 1/2, 1/4 or 1/8 as long as the result stays at least twice the target
    /// (once when `fast`), leaving a clean final resample. The result is oriented for display.
    public func decode(path: String, info: ImageInfo, target: Size? = nil) throws(CodecError)
        -> DecodedImage
    {
        guard let file = fopen(path, "rb") else {
            throw CodecError(.decode, path: path, reason: systemErrorText())
        }
        defer { fclose(file) }
        // libjpeg's stdio source asks for 4 KB at a time; a bigger stream buffer turns a
        // 16 MB photo's 4,000 read calls into 64.
        setvbuf(file, nil, _IOFBF, 256 << 10)
        var decoded: DecodedImage
        switch info.format {
        case .jpeg:
            let numerator = jpegScaleNumerator(info: info, target: target)
            let profile = convertsToSRGB ? colorProfile(path: path, info: info) : nil
            decoded = try JPEGDecoding.decode(
                file: file, path: path, scaleNumerator: numerator, maxScans: maxProgressiveScans, profile: profile,
                dcOnly: !stopsProgressiveAtDC ? .never : fast ? .firstScan : .complete)
        case .png:
            // PNG cannot shrink in the codec; box-average rows as they arrive instead, keeping
            // the same margin over the target as with JPEG.
            let shrink = pngShrink(info: info, target: target)
            let result = try PNGDecoding.decode(file: file, path: path, info: info, shrink: shrink)
            decoded = result.image
            if convertsToSRGB, let profile = result.profile {
                switch profile.convertRGB(decoded.bitmap) {
                case .converted(let bitmap): decoded.bitmap = bitmap
                case .unchanged: break
                case .ignored(let reason): decoded.warnings.append(reason)
                }
            }
        }
        decoded.bitmap = decoded.bitmap.oriented(info.orientation)
        return decoded
    }

    /// The libjpeg scale (numerator over 8: 8, 4, 2 or 1) that shrinks `stored` the most while
    /// keeping both sides at least `margin` times `target`'s (twice: libvips' rule).
    public static func jpegScaleNumerator(stored: Size, target: Size, margin: Int = 2) -> Int {
        for numerator in [1, 2, 4] {
            let denominator = 8 / numerator
            let width = (stored.width + denominator - 1) / denominator
            let height = (stored.height + denominator - 1) / denominator
            if width >= margin * target.width && height >= margin * target.height { return numerator }
        }
        return 8
    }

    /// The box factors a PNG is averaged by as its rows arrive: as much as keeps both sides at
    /// least `margin` times `target`'s.
    static func pngShrink(stored: Size, target: Size, margin: Int = 2) -> (x: Int, y: Int) {
        (
            max(1, stored.width / (margin * max(1, target.width))),
            max(1, stored.height / (margin * max(1, target.height)))
        )
    }

    /// About the most memory decoding `info` for `target` (as ``decode(path:info:target:)``
    /// takes it) holds at once: the decoded pixels, twice when they are turned upright, and
    /// for a progressive JPEG the coefficients of the whole image, which libjpeg keeps at any
    /// scale (64 two-byte coefficients an 8×8 block: two bytes a sample).
    public func workingMemory(info: ImageInfo, target: Size?) -> Int {
        let stored = info.storedSize
        let inks = info.colorModel == .cmyk || info.colorModel == .ycck
        var pixels: Int
        var coefficients = 0
        switch info.format {
        case .jpeg:
            let n = jpegScaleNumerator(info: info, target: target)
            pixels = ((stored.width * n + 7) / 8) * ((stored.height * n + 7) / 8) * (inks ? 4 : 3)
            if info.isProgressive {
                let components = info.colorModel == .gray ? 1 : inks ? 4 : 3
                let chromaShare: Int
                switch info.chromaSubsampling {
                case "4:2:0", "4:1:1": chromaShare = 4
                case "4:2:2", "4:4:0": chromaShare = 2
                default: chromaShare = 1
                }
                let luma = 2 * stored.width * stored.height
                coefficients = luma + (components - 1) * luma / chromaShare
            }
        case .png:
            let shrink = info.isProgressive ? (1, 1) : pngShrink(info: info, target: target)
            pixels = ((stored.width + shrink.0 - 1) / shrink.0) * ((stored.height + shrink.1 - 1) / shrink.1) * 4
        }
        if info.orientation != .up { pixels *= 2 }
        return pixels + coefficients
    }

    /// The libjpeg scale `decode(path:info:target:)` uses for `info` drawn at `target`
    /// (displayed size; no target: full size).
    func jpegScaleNumerator(info: ImageInfo, target: Size?) -> Int {
        guard let target else { return 8 }
        let storedTarget = info.orientation.swapsAxes ? target.transposed : target
        return ImageDecoder.jpegScaleNumerator(stored: info.storedSize, target: storedTarget, margin: margin)
    }

    /// The box factors `decode(path:info:target:)` averages PNG rows by for `info` drawn at
    /// `target` (interlaced files are not shrunk while decoding, whatever is asked).
    func pngShrink(info: ImageInfo, target: Size?) -> (x: Int, y: Int) {
        guard let target else { return (1, 1) }
        let storedTarget = info.orientation.swapsAxes ? target.transposed : target
        return ImageDecoder.pngShrink(stored: info.storedSize, target: storedTarget, margin: margin)
    }

    /// Bytes for `size` at `channels` a pixel, or `nil` on overflow.
    static func byteCount(_ size: Size, channels: Int) -> Int? {
        guard let area = size.area else { return nil }
        let (bytes, overflow) = area.multipliedReportingOverflow(by: channels)
        return overflow ? nil : bytes
    }
}
