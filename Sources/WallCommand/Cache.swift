import ArgumentParser
import Foundation
import ImageWall
import WallCache

extension ImageWallCommand {
    /// `imagewall cache`: what the render cache holds, and clearing or trimming it.
    public struct Cache: ParsableCommand {
        /// The command's abstract and its discussion, with examples.
        public static let configuration = CommandConfiguration(
            commandName: "cache",
            abstract: "Show the render cache's size, entries and hit rate; clear or trim it.",
            discussion: """
                The cache keeps tiles, the sheet's compressed bands and (render --cache-decodes) \
                decoded images, found by each file's content, and no more than the pictures it \
                serves (or \(CacheSettings.defaultAllowance >> 20) MB), decoded images first to go. \
                Its size, entry count, lookups and the pictures served are recorded as renders \
                end, so showing them reads one small file; --recount walks the entries to count \
                them afresh. --trim deletes the least recently used entries until the cache takes \
                at most --cache-size MB (or --max-size) and no more than the pictures it serves, \
                --clear deletes every entry.

                EXAMPLES:
                  imagewall cache
                  imagewall cache --recount --json
                  imagewall cache --trim --max-size 256
                  imagewall cache --clear --cache /var/cache/walls
                """)

        @Option(
            help: ArgumentHelp(
                "The cache folder (default: $XDG_CACHE_HOME/imagewall, else ~/.cache/imagewall).", valueName: "dir"))
        var cache: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("The size the cache may take, as renders are told with --cache-size.", valueName: "MB"))
        var cacheSize = CacheSettings.defaultSizeLimit >> 20

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("With --trim: trim to this many megabytes instead of --cache-size.", valueName: "MB"))
        var maxSize: Int?

        @Flag(help: "Delete the least recently used entries until the cache fits its size.")
        var trim = false

        @Flag(help: "Delete every entry.")
        var clear = false

        @Flag(help: "Count the entries afresh instead of reading the recorded figures.")
        var recount = false

        @Flag(help: "Print JSON: folder, bytes, limit, entries, hits, misses, served.")
        var json = false

        /// A command with every option at its default, as ArgumentParser makes it.
        public init() {}

        /// Refuses sizes below a megabyte and clearing and trimming at once.
        public func validate() throws {
            if cacheSize < 1 { throw ValidationError("--cache-size must be at least 1 (MB)") }
            if let maxSize, maxSize < 0 { throw ValidationError("--max-size cannot be negative") }
            if maxSize != nil && !trim { throw ValidationError("--max-size goes with --trim") }
            if clear && trim { throw ValidationError("--clear and --trim cannot be given together") }
            if cache == nil && CacheSettings.defaultDirectory == nil {
                throw ValidationError("no cache folder: neither XDG_CACHE_HOME nor HOME is set; give --cache")
            }
        }

        /// Shows, trims or clears the cache.
        public func run() throws {
            let directory = cache ?? CacheSettings.defaultDirectory ?? ""
            let limit = cacheSize << 20
            let store = CacheSettings(directory: directory, sizeLimit: limit).store
            if clear { store.clear() }
            if trim { store.trim(to: (maxSize ?? cacheSize) << 20, walk: true) }
            let usage = store.usage(recount: recount)
            if json {
                let object: [String: Any] = [
                    "folder": directory, "bytes": usage.bytes, "limit": limit, "entries": usage.entries,
                    "hits": usage.hits, "misses": usage.misses, "served": usage.served,
                ]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
                print(String(decoding: data, as: UTF8.self))
                return
            }
            print(Cache.report(usage, folder: directory, limit: limit))
        }

        /// The figures as `ccache -s` lays them out.
        static func report(_ usage: CacheStore.Usage, folder: String, limit: Int) -> String {
            func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
            let lookups = usage.hits + usage.misses
            let rate = lookups > 0 ? String(format: "%.1f %%", 100 * Double(usage.hits) / Double(lookups)) : "—"
            return """
                cache folder: \(folder)
                size:         \(megabytes(usage.bytes)) of \(megabytes(limit)), \(usage.entries) entries
                serves:       \(megabytes(usage.served)) of pictures (the cache keeps no more, or \(megabytes(CacheSettings.defaultAllowance)))
                lookups:      \(lookups), \(usage.hits) found, \(usage.misses) not (hit rate \(rate))
                """
        }
    }
}
