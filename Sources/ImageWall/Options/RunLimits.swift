import WallCodecs

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How a run goes about its work and what it refuses: threads, memory, the largest inputs and
/// pages, and what an unreadable or damaged input does (skipped, or stopping the run; under
/// `strict` a damaged one is drawn as a placeholder). Threads and memory change no pixel.
public struct RunLimits: Sendable {
    /// What to do with unreadable inputs.
    public var onError: ErrorPolicy = .skip
    /// Treat decoder warnings (damaged but partly readable data) as errors.
    public var strict = false
    /// Threads working at once (probing, decoding, painting and encoding); 1 runs the whole
    /// render on the calling thread.
    public var threads: Int = 1
    /// Bytes the images being decoded at once may hold (decoded pixels, and a progressive
    /// JPEG's coefficients: 100 MB for a 16 MP 4:4:4 file); an image needing more is decoded
    /// alone. Keeps peak memory flat however big and however many the inputs are. 192 MB lets
    /// two threads decode the 12 MP HEICs phones write (about 70 MB each: 61 MB inside
    /// libheif, and the pixels kept) side by side.
    public var decodeMemory: Int = 192 << 20
    /// Inputs with more pixels are refused from their header.
    public var maxImagePixels: Int = ImageProbe.defaultMaxImagePixels
    /// A page bigger than this (pixels) is refused with advice to split the sheet into pages.
    public var maxSheetPixels: Int = 1 << 30

    /// One thread, and the defaults for the rest.
    public init() {}

    /// One thread a core this machine has online: the command line's default for `--threads`.
    public static var everyCore: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
