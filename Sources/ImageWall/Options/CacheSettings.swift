import WallCache
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a render keeps what it resampled and compressed (and, when asked, decoded), to skip
/// that work when the same files are drawn again. The cache never changes a sheet's bytes: entries are found by
/// each file's content and everything that shapes its pixels.
public struct CacheSettings: Sendable, Equatable {
    /// The cache's folder (created when first written).
    public var directory: String
    /// Bytes the cache may take; the least recently used entries go first.
    public var sizeLimit: Int
    /// Whether decoded images are kept too, beside tiles and compressed bands: they let a
    /// sheet of other tile sizes skip decoding a source where its decoder shrinks it the same
    /// (a JPEG's 1/2, 1/4 or 1/8), but writing them costs a first render about a tenth more
    /// (a 12 MP photo's decode at a quarter is 2 MB), so they are kept only when asked.
    public var keepsDecodes = false

    /// Bytes the cache may take whatever the size of the pictures it serves, which it otherwise
    /// keeps under: small pictures' tiles can be larger than their files.
    public var allowance = CacheSettings.defaultAllowance

    /// 1 GiB. The cache also keeps no more than the bytes of the pictures it serves, or the
    /// allowance.
    public static let defaultSizeLimit = 1 << 30

    /// 64 MiB: the tiles and bands of a few sheets of small pictures.
    public static let defaultAllowance = 64 << 20

    /// A cache in `directory` of at most `sizeLimit` bytes.
    public init(directory: String, sizeLimit: Int = CacheSettings.defaultSizeLimit) {
        self.directory = directory
        self.sizeLimit = sizeLimit
    }

    /// The store in ``directory``, holding at most ``sizeLimit`` bytes and no more than the
    /// sources it serves (or ``allowance``); decodes, the largest entries and the cheapest to do without (a tile
    /// spares its decode and more), go first when it is trimmed.
    public var store: CacheStore {
        CacheStore(
            directory: directory, sizeLimit: sizeLimit, allowance: allowance,
            firstToGo: [RenderCache.Kind.decoded.rawValue])
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
