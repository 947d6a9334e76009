import WallCore

/// What a still image's header says, read by ImageWall without decoding: FFmpeg tells a picture's
/// size only by decoding it, so each format FFmpeg decodes for ImageWall has a bounded reader of
/// its header (a 30,000-pixel PSD is laid out from its first 26 bytes).
struct StillHeader: Sendable {
    /// The size the picture decodes to.
    var size: Size
    /// How colour is stored.
    var colorModel: ColorModel
    /// Bits a sample.
    var bitDepth: Int
    /// Whether the picture carries alpha.
    var hasAlpha: Bool
    /// FFmpeg's decoder for it: "bmp", "psd", "libopenjpeg".
    var decoder: String
    /// Whether floating-point samples are linear light (OpenEXR, PFM), encoded as sRGB when drawn.
    var isLinearLight = false
    /// Where the embedded ICC profile lies in the file, if there is one.
    var iccProfile: Range<Int>?
    /// FFmpeg's name for the layout the decoded samples really have, where its decoder names
    /// them wrongly but keeps their bytes (a 16-bit grey TGA's grey and alpha bytes, which
    /// `targa` calls RGB555): "ya8".
    var samplesAs: String?
    /// Whether the file holds no blue that FFmpeg's decoder draws anyway (a BC5 surface's
    /// normal map, rebuilt from red and green): blue is drawn 0, as the file holds it.
    var blueNotHeld = false
    /// How the picture is coded, in words, for a decoder that refuses a coding it does not read
    /// yet ("luminance-chroma channels Y, RY, BY, PIZ compression").
    var coding: String?
    /// Bytes an uncompressed coding of `bits` bits a pixel takes, rows of `alignment` bytes, over 16
    /// (counted in floating point: a forged header's sizes overflow no integer; `Int.max` beyond).
    func rawBytesOver16(bits: Int, alignment: Int = 1) -> Int {
        let row = (Double(size.width) * Double(bits) / Double(8 * alignment)).rounded(.up) * Double(alignment)
        return StillHeader.count(row * Double(size.height) / 16)
    }

    /// `pixels` × `samples` ÷ `perByte`: the bytes a coding that keeps at most `perByte` samples in
    /// a byte needs, in floating point as above.
    func compressedBytes(samples: Int = 1, perByte: Int) -> Int {
        StillHeader.count(Double(size.width) * Double(size.height) * Double(samples) / Double(perByte))
    }

    /// A byte count, `Int.max` when it is beyond one.
    static func count(_ bytes: Double) -> Int { bytes < 9e18 ? Int(bytes) : Int.max }
    /// Where the bytes FFmpeg's decoder takes start (FITS: after the first header card, which
    /// FFmpeg's demuxer keeps).
    var packetStart = 0
}

/// One still format's recognition and header: the part of a format ``StillCodec`` decodes
/// through FFmpeg that differs from one format to the next.
protocol StillFormatReader: Sendable {
    /// The format it reads.
    static var format: ImageFormat { get }
    /// Where it stands among the claimants (``ClaimPriority``).
    static var priority: ClaimPriority { get }
    /// Whether `head` (a file's first bytes, up to 64 KiB) is of this format by its bytes alone.
    static func sniff(_ head: [UInt8]) -> Bool
    /// Whether a file named with one of the format's extensions is of it: for formats whose bytes
    /// do not tell reliably (TGA has no signature), its header checked for plausible values.
    static func plausible(_ head: [UInt8]) -> Bool
    /// Whether FFmpeg's decoder halves the picture while decoding, as often as asked (JPEG 2000's
    /// resolution levels).
    static var decodesReduced: Bool { get }
    /// The fewest bytes a file with `header` (and the first bytes `head`) can hold its pixels in:
    /// the raw size over 16 for an uncompressed coding (a file cut short is drawn as far as it
    /// goes), the pixels over the coding's largest expansion otherwise. A smaller file claims
    /// pixels its bytes cannot make (a decompression bomb) and is refused before FFmpeg
    /// allocates them.
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int
    /// Why `file` (the whole file) looks cut short, for a format whose decoder draws what it has
    /// without saying so (QOI, JPEG-LS, OpenEXR); `nil` when it looks whole.
    static func cutShort(_ file: ArraySlice<UInt8>) -> String?
    /// The header of `file`, or why it cannot be read.
    static func header(_ file: FileReader, path: String) throws(CodecError) -> StillHeader
    /// Mends in place, in `file` (the whole file, then zero bytes), what FFmpeg's decoder for the
    /// format misreads in files that other readers draw, saying what it mended; `nil` when there
    /// was nothing to mend. The file on disk is never touched.
    static func mend(_ file: inout [UInt8], length: Int) -> String?
    /// A part of the file FFmpeg's decoder skips by its length (PSD's layers, as big as the
    /// composite again), which is then never read into memory, and the bytes that stand for it
    /// (its length, 0); `nil` for formats whose whole file is decoded.
    static func unread(_ file: FileReader, path: String) -> (range: Range<Int>, standIn: [UInt8])?
}

extension StillFormatReader {
    static var priority: ClaimPriority { .signature }
    static var decodesReduced: Bool { false }
    /// Codings that compress: deflate's largest expansion is about 1,000 to 1.
    static func leastBytes(_ header: StillHeader, head: [UInt8]) -> Int { header.compressedBytes(perByte: 1024) }
    static func plausible(_ head: [UInt8]) -> Bool { sniff(head) }
    /// Decoders that refuse a file cut short need no check of their own.
    static func cutShort(_ file: ArraySlice<UInt8>) -> String? { nil }
    /// Most formats' files FFmpeg reads as they are.
    static func mend(_ file: inout [UInt8], length: Int) -> String? { nil }
    /// Most formats' files FFmpeg reads whole.
    static func unread(_ file: FileReader, path: String) -> (range: Range<Int>, standIn: [UInt8])? { nil }

    /// An error reading the header: "corrupt PSD: the picture has no size".
    static func corrupt(_ path: String, _ what: String) -> CodecError {
        CodecError(.probe, path: path, reason: "corrupt \(format.name): \(what)")
    }

    /// A picture of a kind FFmpeg's decoder for the format does not read, refused by name.
    static func unsupported(_ path: String, _ what: String) -> CodecError {
        CodecError(.probe, path: path, reason: "\(format.name) \(what) is not supported")
    }
}
