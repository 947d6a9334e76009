import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Decoded pixels, oriented for display, and what the decoder said about them.
public struct DecodedImage: Sendable {
    /// The picture as displayed: RGB, or RGBA with straight alpha.
    public var bitmap: Bitmap
    /// Warnings from the format's library (corrupt data, premature end: pixels missing or
    /// possibly wrong), empty for a clean file.
    public var warnings: [String]
    /// The library's notes that change no pixel drawn (libpng recognising a widespread edited
    /// sRGB profile, a remark on a text chunk), kept apart from warnings.
    public var notes: [String]

    /// Pixels, warnings and notes as a decoder gave them (or a cache kept them).
    public init(bitmap: Bitmap, warnings: [String], notes: [String] = []) {
        self.bitmap = bitmap
        self.warnings = warnings
        self.notes = notes
    }

    /// Whether a warning says the file is damaged — pixels missing or possibly wrong (cut short,
    /// a bad checksum, corrupt data) — rather than only that its colours could not be converted
    /// (an unusable profile, HDR shown without tone mapping; see ``colorWarningPrefixes``).
    public var isDamaged: Bool {
        warnings.contains { warning in !DecodedImage.colorWarningPrefixes.contains { warning.hasPrefix($0) } }
    }

    /// How the warnings about colours begin: those of ``ColorProfile`` and of HEIF's nclx colour.
    static let colorWarningPrefixes = ["ICC profile ignored", "HDR colour", "nclx colour"]

    /// Converts the pixels from `profile` to sRGB; a profile that cannot be used is a warning.
    mutating func convert(from profile: ColorProfile) {
        switch profile.convertRGB(bitmap) {
        case .converted(let converted): bitmap = converted
        case .unchanged: break
        case .ignored(let reason): warnings.append(reason)
        }
    }
}

/// Decodes image files of every format ImageWall reads to 8-bit RGB(A), shrinking on load
/// where the format allows, and turns them upright.
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

    /// Runs `body`, within which what a probe reads of a file's structure is kept for the file's
    /// decode (a HEIF file is opened once, not twice); what no decode took goes when the last
    /// such scope ends. A render of many files probes them all, then decodes them.
    public static func keepingProbedFiles<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try ProbedFiles.shared.scoped(body)
    }

    /// The ICC profile embedded in the image at `path`, if any.
    public func colorProfile(path: String, info: ImageInfo) -> ColorProfile? {
        guard info.hasICCProfile, let file = fopen(path.systemPath, "rb") else { return nil }
        defer { fclose(file) }
        return info.format.codec.colorProfile(file, path: path, info: info)
    }

    /// Decodes the image at `path`, whose header `info` was probed.
    ///
    /// With a `target` (the displayed size it will be drawn at) the image is shrunk while it
    /// is decoded as far as the format allows while both sides stay at least ``margin`` times
    /// the target's, leaving a clean final resample. The result is oriented for display.
    public func decode(path: String, info: ImageInfo, target: Size? = nil) throws(CodecError) -> DecodedImage {
        guard let file = fopen(path.systemPath, "rb") else {
            throw CodecError(.decode, path: path, reason: systemErrorText())
        }
        // A reader that asks the stream for a few kilobytes at a time gets them from a 256 KB
        // buffer: 64 read calls for a 16 MB file, not 4,000. (glibc keeps its own 4 KB one when
        // given no buffer, whatever the size asked.)
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: ImageDecoder.streamBuffer)
        defer { buffer.deallocate() }
        defer { fclose(file) }
        setvbuf(file, buffer, _IOFBF, ImageDecoder.streamBuffer)
        var decoded = try info.format.codec.decode(
            file, path: path, info: info, target: storedTarget(info, target), decoder: self)
        decoded.bitmap = decoded.bitmap.oriented(info.orientation)
        try ImageDecoder.checkShape(of: decoded.bitmap.size, against: info.displayedSize, path: path)
        return decoded
    }

    /// The size of a decoded file's stream buffer.
    static let streamBuffer = 256 << 10

    /// Refuses pixels of another shape than the probed header's (a file replaced between
    /// probing and decoding): drawn into the tile laid out for the old shape they would be
    /// distorted. A decode shrunk on load rounds each side on its own, and a RAW file's sensor
    /// data may be framed a little otherwise than its preview: 1 % and a pixel a side are allowed.
    static func checkShape(of decoded: Size, against shown: Size, path: String) throws(CodecError) {
        guard decoded.width > 0, decoded.height > 0, shown.width > 0, shown.height > 0 else { return }
        let expected = Double(shown.width) / Double(shown.height)
        let actual = Double(decoded.width) / Double(decoded.height)
        let slack = 0.01 + 1 / Double(decoded.width) + 1 / Double(decoded.height)
        guard abs(actual / expected - 1) > slack else { return }
        throw CodecError(
            .decode, path: path,
            reason: "header changed since it was probed: its pixels are \(decoded.width)x\(decoded.height), "
                + "not the shape of \(shown.width)x\(shown.height)")
    }

    /// Everything that decides the pixels ``decode(path:info:target:)`` gives for `info` and
    /// `target`, besides the file's content, as a text: the format's shrink for the target
    /// (see ``ImageCodec/decodePlan(info:target:decoder:)``), the orientation and this
    /// decoder's settings. Equal plans of the same content decode to the same pixels.
    public func decodePlan(info: ImageInfo, target: Size?) -> String {
        let plan = info.format.codec.decodePlan(info: info, target: storedTarget(info, target), decoder: self)
        return [
            info.format.rawValue, plan, "orientation \(info.orientation.rawValue)", "sRGB \(convertsToSRGB)",
            "dc \(stopsProgressiveAtDC)", "fast \(fast)", "scans \(maxProgressiveScans)",
        ].joined(separator: "; ")
    }

    /// About the most memory decoding `info` for `target` (as ``decode(path:info:target:)``
    /// takes it) holds at once: the decoded pixels, twice when they are turned upright, and
    /// what the format's library holds besides (a progressive JPEG's coefficients).
    public func workingMemory(info: ImageInfo, target: Size?) -> Int {
        let memory = info.format.codec.workingMemory(info: info, target: storedTarget(info, target), decoder: self)
        return memory.pixels * (info.orientation == .up ? 1 : 2) + memory.besides
    }

    /// `target` (displayed pixels) in the stored image's axes.
    private func storedTarget(_ info: ImageInfo, _ target: Size?) -> Size? {
        target.map { info.orientation.swapsAxes ? $0.transposed : $0 }
    }

    /// Bytes for `size` at `channels` a pixel, or `nil` on overflow.
    static func byteCount(_ size: Size, channels: Int) -> Int? {
        guard let area = size.area else { return nil }
        let (bytes, overflow) = area.multipliedReportingOverflow(by: channels)
        return overflow ? nil : bytes
    }
}
