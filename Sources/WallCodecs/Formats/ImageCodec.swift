import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One image format's reading, the same shape for every format: claim a file by its first
/// bytes (and, where the format needs it, its name) at the codec's priority, read its header
/// without decoding pixels, and decode it, shrunk on load as far as the format allows. Each
/// format lives in a folder of its own under `Formats/`; ``ImageFormat`` is the catalogue that
/// names them.
protocol ImageCodec: FormatClaimant {
    /// The format of a file starting with `head` (up to its first 64 KiB), when this codec
    /// reads it by its bytes alone.
    func sniff(_ head: [UInt8]) -> ImageFormat?

    /// What the header says: stored size, orientation, colour, alpha. Never decodes pixels.
    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo

    /// The pixels as stored (``ImageDecoder`` turns them upright by `info.orientation`),
    /// converted to sRGB when `decoder` asks, shrunk on load so that both sides stay at least
    /// `decoder.margin` times `target` (stored pixels) where the format can.
    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage

    /// What a decode for `target` (stored pixels) makes, as a short text: two targets with the
    /// same plan decode to the same pixels (for JPEG, the DCT scale). A cache keys decodes by it.
    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String

    /// About the most memory decoding `info` for `target` (stored pixels) holds at once: the
    /// decoded pixels, and what the library holds besides them while it decodes.
    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int)

    /// The ICC profile embedded in the file, if any.
    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile?

    /// What each page of a file of several pages is, in order, `info` being its first's: read
    /// with the file opened once; a page that cannot be read is its error.
    func probePages(of info: ImageInfo, path: String) throws(CodecError) -> [Result<ImageInfo, CodecError>]
}

extension ImageCodec {
    /// A format of one picture: the file is its one page.
    func probePages(of info: ImageInfo, path: String) throws(CodecError) -> [Result<ImageInfo, CodecError>] {
        [.success(info)]
    }

    /// A codec claims the files its bytes tell; one that needs the name as well says so itself.
    func claim(_ file: FileSignature) -> FileClaim? {
        sniff(file.head).map(FileClaim.image)
    }
}
