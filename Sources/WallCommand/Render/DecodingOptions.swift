import ArgumentParser
import ImageWall

#if canImport(Glibc)
    import Glibc
#endif

/// How images are read and what a run may take: error policy, limits, threads and memory.
struct DecodingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "What to do with unreadable inputs: skip (report and go on) or fail.", valueName: "policy"))
    var onError: ErrorPolicy = libraryDefaults.limits.onError

    @Flag(
        help:
            "Treat damaged but partly readable files (truncated, bad checksums) as errors, not warnings, and exit 1 when any input is skipped or drawn as a placeholder."
    )
    var strict = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Threads working at once, decoding and encoding (default: the number of cores); 1 keeps the render on one core.",
            valueName: "n"))
    var threads: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Refuse a page bigger than this many pixels unless it is split.", valueName: "n"))
    var maxSheetPixels = libraryDefaults.limits.maxSheetPixels

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Refuse inputs with more pixels than this, from their header.", valueName: "n"))
    var maxImagePixels = libraryDefaults.limits.maxImagePixels

    @Flag(
        help:
            "Faster, slightly softer: decode images to their tile size rather than twice it, and read progressive JPEGs shrunk to 1/8 only to their first DC scan."
    )
    var fast = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Megabytes the images decoded at once may hold; an image needing more (a huge progressive JPEG) is decoded alone.",
            valueName: "MB"))
    var decodeMemory = libraryDefaults.limits.decodeMemory >> 20

    init() {}

    /// Refuses counts and limits below one.
    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1 (got \(threads))") }
        if maxImagePixels < 1 { throw ValidationError("--max-image-pixels must be at least 1") }
        if decodeMemory < 1 { throw ValidationError("--decode-memory must be at least 1 (MB)") }
        if maxSheetPixels < 1 { throw ValidationError("--max-sheet-pixels must be at least 1") }
    }

    /// Sets the error policy, limits, threads and memory.
    func apply(to options: inout WallOptions) {
        options.limits.onError = onError
        options.limits.strict = strict
        options.limits.threads = threads ?? RunLimits.everyCore
        options.limits.maxImagePixels = maxImagePixels
        options.limits.decodeMemory = decodeMemory << 20
        options.limits.maxSheetPixels = maxSheetPixels
        options.rendering.tile.fast = fast
    }
}
