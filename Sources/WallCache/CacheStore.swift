import CXXHash
import CZstd
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A folder of cache entries, found by kind and ``CacheKey``, safe to share between processes.
///
/// Each entry is one file, `DIR/v1/KIND/AB/KEY`: a header (magic, the key, the number of parts,
/// each part's stored and whole length, the XXH3-64 of the whole parts) and its parts one after
/// another, each compressed with zstd when that saves an eighth of it (decoded pixels; a sheet's
/// deflated bands are kept as they are). An entry is written to a temporary file and renamed into
/// place, so a reader sees a whole entry or none; one that is truncated, corrupt, of an older
/// format or for another key is deleted and reads as missing. Reading an entry marks it used
/// (its modification time). The folder's size, entry count and lookups are kept in a small
/// `usage` file updated under a lock at each ``trim()``, which walks the entries — deleting the
/// least recently used while over the size limit — only when that count says the folder is
/// over it, so a render does not walk a cache of millions of entries. A folder that cannot be
/// written is reported once (``problem``) and the store goes on without writing.
public final class CacheStore: Sendable {
    /// The folder given.
    public let directory: String
    /// Bytes the entries may take; ``trim()`` keeps them under it.
    public let sizeLimit: Int
    private let root: String
    private let state = Locked(State())

    private struct State {
        var problem: String?
        var hits = 0
        var misses = 0
        /// Not yet added to the usage file.
        var unrecorded = Usage()
    }

    /// What the folder holds and how it was used: its entries' bytes (as the file system
    /// counts them) and number, and the lookups that found an entry or did not, since the
    /// folder was made or cleared.
    public struct Usage: Sendable, Equatable {
        /// Bytes the entries take on disk.
        public var bytes = 0
        /// How many entries there are.
        public var entries = 0
        /// Lookups that found their entry.
        public var hits = 0
        /// Lookups that did not.
        public var misses = 0

        /// Nothing used.
        public init() {}

        /// Both usages together.
        static func + (a: Usage, b: Usage) -> Usage {
            var sum = a
            sum.bytes += b.bytes
            sum.entries += b.entries
            sum.hits += b.hits
            sum.misses += b.misses
            return sum
        }
    }

    static let magic: [UInt8] = Array("IWCACHE3".utf8)
    /// The zstd level of stored parts: the fastest that still halves decoded photographs.
    static let compressionLevel: Int32 = 1
    /// Marks a part stored compressed, in its whole-length field.
    static let compressedFlag: UInt64 = 1 << 63
    /// No decompressed part is larger: a header claiming more is damaged.
    static let largestPart: UInt64 = 1 << 34
    /// More parts than any entry has: a header claiming more is damaged.
    static let maximumParts = 16

    /// A store in `directory` (created when first written) holding at most `sizeLimit` bytes.
    public init(directory: String, sizeLimit: Int) {
        self.directory = directory
        self.sizeLimit = max(0, sizeLimit)
        root = directory + "/v1"
    }

    /// Why entries could not be written, when they could not (the first reason).
    public var problem: String? { state.withLock { $0.problem } }
    /// Entries found and not found so far.
    public var counts: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }

    /// The XXH3-64 of the parts, one after another.
    static func checksum(_ parts: [[UInt8]]) -> UInt64 {
        guard let state = XXH3_createState() else { return 0 }
        defer { XXH3_freeState(state) }
        XXH3_64bits_reset(state)
        for part in parts { part.withUnsafeBytes { _ = XXH3_64bits_update(state, $0.baseAddress, $0.count) } }
        return XXH3_64bits_digest(state)
    }

    private func path(_ kind: String, _ key: CacheKey) -> (folder: String, file: String) {
        let name = key.description
        let folder = "\(root)/\(kind)/\(name.prefix(2))"
        return (folder, "\(folder)/\(name)")
    }

    /// The parts of entry `key` of `kind`, when it is there and whole.
    public func load(_ kind: String, _ key: CacheKey) -> [[UInt8]]? {
        let file = path(kind, key).file
        switch CacheStore.entry(at: file, key: key) {
        case .missing:
            count(found: false)
            return nil
        case .damaged:
            // Taken out of the recorded size, once: by the process whose unlink removes it.
            var info = stat()
            if stat(file, &info) == 0, unlink(file) == 0 {
                state.withLock {
                    $0.unrecorded.bytes -= Int(info.st_blocks) * 512
                    $0.unrecorded.entries -= 1
                }
            }
            count(found: false)
            return nil
        case .whole(let parts):
            _ = utimensat(AT_FDCWD, file, nil, 0)  // used now
            count(found: true)
            return parts
        }
    }

    /// One lookup, in this process's counts and in those not yet added to the usage file.
    private func count(found: Bool) {
        state.withLock {
            if found {
                $0.hits += 1
                $0.unrecorded.hits += 1
            } else {
                $0.misses += 1
                $0.unrecorded.misses += 1
            }
        }
    }

    /// Stores `parts` as entry `key` of `kind`, replacing any entry there.
    public func save(_ kind: String, _ key: CacheKey, parts: [[UInt8]]) {
        precondition(parts.count <= CacheStore.maximumParts)
        guard state.withLock({ $0.problem == nil }) else { return }
        let (folder, file) = path(kind, key)
        var stored: [[UInt8]] = []
        var fields: [UInt64] = []
        for part in parts {
            if let packed = CacheStore.compress(part), packed.count <= part.count - part.count / 8 {
                stored.append(packed)
                fields += [UInt64(packed.count), UInt64(part.count) | CacheStore.compressedFlag]
            } else {
                stored.append(part)
                fields += [UInt64(part.count), UInt64(part.count)]
            }
        }
        var header = CacheStore.magic
        for value in [key.high, key.low, UInt64(parts.count)] + fields + [CacheStore.checksum(parts)] {
            withUnsafeBytes(of: value.littleEndian) { header += $0 }
        }
        if let failure = CacheStore.makeFolders(folder) {
            state.withLock { if $0.problem == nil { $0.problem = "cannot write to the cache: \(failure)" } }
            return
        }
        switch CacheStore.writeAtomically([header] + stored, to: file) {
        case .failed(let failure):
            state.withLock { if $0.problem == nil { $0.problem = "cannot write to the cache: \(failure)" } }
            return
        case .alreadyThere:
            return  // another render (or variant) wrote the same entry first: counted once, by it
        case .added:
            break
        }
        var info = stat()
        let size =
            stat(file, &info) == 0 ? Int(info.st_blocks) * 512 : header.count + stored.reduce(0) { $0 + $1.count }
        state.withLock {
            $0.unrecorded.bytes += size
            $0.unrecorded.entries += 1
        }
    }

    /// `bytes` compressed by zstd, or `nil` when they are too few to bother or zstd fails.
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 256 else { return nil }
        let bound = ZSTD_compressBound(bytes.count)
        var failed = false
        let packed = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            let written = bytes.withUnsafeBytes {
                ZSTD_compress(buffer.baseAddress, bound, $0.baseAddress, $0.count, compressionLevel)
            }
            failed = ZSTD_isError(written) != 0
            count = failed ? 0 : written
        }
        return failed ? nil : packed
    }

    /// The `length` bytes `packed` decompresses to, or `nil` when it does not make exactly that.
    static func decompress(_ packed: [UInt8], length: Int) -> [UInt8]? {
        var exact = false
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            let made = packed.withUnsafeBytes { ZSTD_decompress(buffer.baseAddress, length, $0.baseAddress, $0.count) }
            exact = ZSTD_isError(made) == 0 && made == length
            if !exact { buffer.baseAddress?.initialize(repeating: 0, count: length) }
            count = length
        }
        return exact ? bytes : nil
    }

    /// Records this process's entries and lookups in the usage file and, when it says the
    /// folder is over the size limit (or there is none yet), walks the entries: deletes the
    /// least recently used until they fit, and temporary files left by interrupted writes more
    /// than an hour old, and writes the true count.
    public func trim() {
        trim(to: sizeLimit, walk: false)
    }

    /// Deletes the least recently used entries until they take at most `limit` bytes, walking
    /// the folder when `walk` or when the recorded usage is over `limit`.
    public func trim(to limit: Int, walk: Bool) {
        let added = state.withLock { state -> Usage in
            defer { state.unrecorded = Usage() }
            return state.unrecorded
        }
        guard let lock = lockUsage(create: added != Usage() || walk) else { return }
        defer { close(lock) }
        var usage = CacheStore.readUsage(lock).map { $0 + added }
        if walk || usage == nil || usage!.bytes > limit {
            var counted = deleteLeastRecentlyUsed(over: limit)
            counted.hits = (usage?.hits ?? 0) + (usage == nil ? added.hits : 0)
            counted.misses = (usage?.misses ?? 0) + (usage == nil ? added.misses : 0)
            usage = counted
        }
        CacheStore.writeUsage(lock, usage!)
    }

    /// The folder's usage as last recorded, with this process's unrecorded part; walked
    /// afresh (and recorded) with `recount`.
    public func usage(recount: Bool = false) -> Usage {
        if recount { trim(to: Int.max, walk: true) }
        let added = state.withLock { $0.unrecorded }
        guard let lock = lockUsage(create: false) else { return added }
        defer { close(lock) }
        return (CacheStore.readUsage(lock) ?? Usage()) + added
    }

    /// Deletes every entry and the usage record; the folder itself stays.
    public func clear() {
        // The record is made if missing: a folder written before it still has entries to delete.
        guard let lock = lockUsage(create: true) else { return }
        defer { close(lock) }
        CacheStore.walk(root, depth: 2) { file, _ in unlink(file) }
        CacheStore.removeEmptyFolders(root, depth: 2)
        CacheStore.writeUsage(lock, Usage())
        state.withLock { $0.unrecorded = Usage() }
    }

    /// Walks the entries, deleting old temporary files and then the least recently used
    /// entries while they take more than `limit`; what remains.
    private func deleteLeastRecentlyUsed(over limit: Int) -> Usage {
        var entries: [(path: String, size: Int, used: Int)] = []
        var total = 0
        let now = time(nil)
        CacheStore.walk(root, depth: 2) { file, info in
            if file.hasSuffix(".tmp") {
                if now - info.st_mtim.tv_sec > 3600 { unlink(file) }
                return
            }
            let size = Int(info.st_blocks) * 512
            entries.append((file, size, info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec))
            total += size
        }
        var count = entries.count
        if total > limit {
            for entry in entries.sorted(by: { ($0.used, $0.path) < ($1.used, $1.path) }) {
                guard total > limit else { break }
                if unlink(entry.path) == 0 {
                    total -= entry.size
                    count -= 1
                }
            }
        }
        var usage = Usage()
        (usage.bytes, usage.entries) = (total, count)
        return usage
    }

    /// The usage file, open and locked (`flock`), created with the folder when `create`.
    private func lockUsage(create: Bool) -> Int32? {
        let file = root + "/usage"
        var fd = open(file, O_RDWR | O_CLOEXEC)
        if fd < 0 && create {
            guard CacheStore.makeFolders(root) == nil else { return nil }
            fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { return nil }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(fd)
                return nil
            }
        }
        return fd
    }

    /// "bytes entries hits misses" from the usage file, or `nil` when it holds no such line.
    private static func readUsage(_ fd: Int32) -> Usage? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = pread(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let numbers = String(decoding: buffer.prefix(count), as: UTF8.self).split { $0 == " " || $0 == "\n" }
            .compactMap { Int($0) }
        guard numbers.count == 4, numbers.allSatisfy({ $0 >= 0 }) else { return nil }
        var usage = Usage()
        (usage.bytes, usage.entries, usage.hits, usage.misses) = (numbers[0], numbers[1], numbers[2], numbers[3])
        return usage
    }

    private static func writeUsage(_ fd: Int32, _ usage: Usage) {
        let line = Array("\(usage.bytes) \(usage.entries) \(usage.hits) \(usage.misses)\n".utf8)
        _ = ftruncate(fd, 0)
        _ = line.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }
}
