import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a render keeps what it decoded, resampled and compressed, to skip that work when the
/// same files are drawn again. The cache never changes a sheet's bytes: entries are found by
/// each file's content and everything that shapes its pixels.
public struct CacheSettings: Sendable, Equatable {
    /// The cache's folder (created when first written).
    public var directory: String
    /// Bytes the cache may take; the least recently used entries go first.
    public var sizeLimit: Int
    /// Whether decoded images are kept too, beside tiles and compressed bands: they let a
    /// sheet of other tile sizes skip decoding. A gallery, which draws each album's tiles at
    /// the same sizes again and keeps its own renditions, keeps none (a 12 MP photo's decode is
    /// megabytes).
    public var keepsDecodes = true

    /// 1 GiB: a hundred 12 MP photos take about 350 MB (their decodes, tiles and the sheet's
    /// compressed bands).
    public static let defaultSizeLimit = 1 << 30

    /// A cache in `directory` of at most `sizeLimit` bytes.
    public init(directory: String, sizeLimit: Int = CacheSettings.defaultSizeLimit) {
        self.directory = directory
        self.sizeLimit = sizeLimit
    }

    /// `$XDG_CACHE_HOME/imagewall`, else `~/.cache/imagewall`; `nil` when neither is known.
    public static var defaultDirectory: String? {
        if let xdg = getenv("XDG_CACHE_HOME").map({ SystemPath.string(cString: $0) }), xdg.hasPrefix("/") {
            return xdg + "/imagewall"
        }
        if let home = getenv("HOME").map({ SystemPath.string(cString: $0) }), !home.isEmpty {
            return home + "/.cache/imagewall"
        }
        return nil
    }
}
