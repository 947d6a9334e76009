import ArgumentParser
import ImageWall

/// Where tiles and compressed bands (and, when asked, decoded images) are kept between runs.
struct CacheOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Keep tiles and compressed bands here, so drawing the same files again skips that work; the cache takes no more than the pictures it serves (default: $XDG_CACHE_HOME/imagewall, else ~/.cache/imagewall).",
            valueName: "dir"))
    var cache: String?

    @Flag(help: "Render without the cache: nothing is read from it or written to it.")
    var noCache = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Megabytes the cache may take; the least recently used entries are deleted first.", valueName: "MB"))
    var cacheSize = CacheSettings.defaultSizeLimit >> 20

    @Flag(
        help: ArgumentHelp(
            "Keep decoded images in the cache too: a later sheet at other tile sizes (another --columns or --width) skips decoding where the decoder shrinks a file the same, for about a tenth more time on this run."
        ))
    var cacheDecodes = false

    init() {}

    /// Refuses a cache given (or its decodes asked for) and refused at once, and a cap below a
    /// megabyte.
    func validate() throws {
        if cache != nil && noCache { throw ValidationError("--cache and --no-cache cannot be given together") }
        if cacheSize < 1 { throw ValidationError("--cache-size must be at least 1 (MB)") }
        if cacheDecodes && noCache { throw ValidationError("--cache-decodes and --no-cache cannot be given together") }
    }

    /// Sets the cache, unless `--no-cache` (or no home folder) leaves the run without one.
    func apply(to options: inout WallOptions) {
        if !noCache, let directory = cache ?? CacheSettings.defaultDirectory {
            options.cache = CacheSettings(directory: directory, sizeLimit: cacheSize << 20)
            options.cache?.keepsDecodes = cacheDecodes
        }
    }
}
