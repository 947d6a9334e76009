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
/// least recently used while over the size limit or the bytes of the sources served — only when
/// that count says the folder is over it, so a render does not walk a cache of millions of
/// entries. A folder that cannot be
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
        /// Bytes of the source files the entries were made from, each content once (see
        /// ``CacheStore/serve(_:bytes:)``): the entries take no more.
        public var served = 0

        /// Nothing used.
        public init() {}

        /// Both usages together.
        static func + (a: Usage, b: Usage) -> Usage {
            var sum = a
            sum.bytes += b.bytes
            sum.entries += b.entries
            sum.hits += b.hits
            sum.misses += b.misses
            sum.served += b.served
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

    /// Bytes the entries may take whatever the sources they serve: small pictures' tiles can be
    /// larger than their files.
    public let allowance: Int
    /// Kinds of entry trimmed as if a day older than their last use: the largest and the
    /// cheapest to do without.
    let firstToGo: Set<String>

    /// A store in `directory` (created when first written) holding at most `sizeLimit` bytes,
    /// and, once sources are recorded (``serve(_:bytes:)``), no more than they take or
    /// `allowance`, whichever is more; entries of the kinds in `firstToGo` are trimmed before
    /// others used a day earlier.
    public init(directory: String, sizeLimit: Int, allowance: Int = 0, firstToGo: Set<String> = []) {
        self.directory = directory
        self.sizeLimit = max(0, sizeLimit)
        self.allowance = max(0, allowance)
        self.firstToGo = firstToGo
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

    /// The parts of entry `key` of `kind`, when it is there and whole; the lookup is counted in
    /// ``counts`` and the usage file unless `counted` is false.
    public func load(_ kind: String, _ key: CacheKey, counted: Bool = true) -> [[UInt8]]? {
        let file = path(kind, key).file
        switch CacheStore.entry(at: file, key: key) {
        case .missing:
            if counted { count(found: false) }
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
            if counted { count(found: false) }
            return nil
        case .whole(let parts):
            _ = utimensat(AT_FDCWD, file, nil, 0)  // used now
            if counted { count(found: true) }
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

    /// Stores `parts` as entry `key` of `kind` unless an entry is there; each part packed by
    /// zstd when `compressing` and that saves an eighth of it, else as it is (a write of pixels
    /// costs a copy into the page cache where packing them costs about as much as decoding
    /// a JPEG shrunk on load again).
    /// Whether the entry was added.
    @discardableResult
    public func save(_ kind: String, _ key: CacheKey, parts: [[UInt8]], compressing: Bool = true) -> Bool {
        precondition(parts.count <= CacheStore.maximumParts)
        guard state.withLock({ $0.problem == nil }) else { return false }
        let (folder, file) = path(kind, key)
        var stored: [[UInt8]] = []
        var fields: [UInt64] = []
        for part in parts {
            if compressing, let packed = CacheStore.compress(part), packed.count <= part.count - part.count / 8 {
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
        // The folder is made when the first write into it finds it missing.
        var written = CacheStore.writeAtomically([header] + stored, to: file)
        if case .missingFolder = written {
            if let failure = CacheStore.makeFolders(folder) {
                state.withLock { if $0.problem == nil { $0.problem = "cannot write to the cache: \(failure)" } }
                return false
            }
            written = CacheStore.writeAtomically([header] + stored, to: file)
        }
        switch written {
        case .failed(let failure):
            state.withLock { if $0.problem == nil { $0.problem = "cannot write to the cache: \(failure)" } }
            return false
        case .missingFolder:
            state.withLock { if $0.problem == nil { $0.problem = "cannot write to the cache: \(folder) vanished" } }
            return false
        case .alreadyThere:
            return false  // another render (or variant) wrote the same entry first: counted once, by it
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
        return true
    }

    /// The kind of the entries that record the sources served.
    static let sourceKind = "source"

    /// Records that entries are made from a source file of `bytes` bytes whose content is
    /// `content`. The store keeps no more than the bytes of the sources it serves (each content
    /// once), so that a folder drawn at many sizes never has a cache larger than itself; a
    /// source no longer drawn leaves the record, as its entries do, when it is least recently
    /// used.
    public func serve(_ content: CacheKey, bytes: Int) {
        guard load(CacheStore.sourceKind, content, counted: false) == nil else { return }
        var part: [UInt8] = []
        withUnsafeBytes(of: Int64(max(0, bytes)).littleEndian) { part += $0 }
        if save(CacheStore.sourceKind, content, parts: [part], compressing: false) {
            state.withLock { $0.unrecorded.served += max(0, bytes) }
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
    /// folder is over the size limit or the bytes of the sources it serves (or there is none
    /// yet), walks the entries: deletes the least recently used until they fit, and temporary
    /// files left by interrupted writes more than an hour old, and writes the true count.
    /// Past a bound it trims to nine tenths of it, so that a cache kept at its bound is not
    /// walked at every render.
    public func trim() {
        trim(to: sizeLimit, walk: false, deleting: true, keeping: 0.9)
    }

    /// Deletes the least recently used entries until they take at most `limit` bytes and the
    /// bytes of the sources served, walking the folder when `walk` or when the recorded usage
    /// is over either.
    public func trim(to limit: Int, walk: Bool) {
        trim(to: limit, walk: walk, deleting: true, keeping: 1)
    }

    /// ``trim(to:walk:)``, or with `deleting` false only the walk and the count it makes; once
    /// over a bound, entries are deleted until they take at most `keeping` of it.
    private func trim(to limit: Int, walk: Bool, deleting: Bool, keeping: Double) {
        let added = state.withLock { state -> Usage in
            defer { state.unrecorded = Usage() }
            return state.unrecorded
        }
        guard let lock = lockUsage(create: added != Usage() || walk) else { return }
        defer { close(lock) }
        var usage = CacheStore.readUsage(lock).map { $0 + added }
        if walk || usage == nil || usage!.bytes > bound(limit, served: usage!.served) {
            var counted = deleteLeastRecentlyUsed(over: limit, deleting: deleting, keeping: keeping)
            counted.hits = (usage?.hits ?? 0) + (usage == nil ? added.hits : 0)
            counted.misses = (usage?.misses ?? 0) + (usage == nil ? added.misses : 0)
            usage = counted
        }
        CacheStore.writeUsage(lock, usage!)
    }

    /// The folder's usage as last recorded, with this process's unrecorded part; walked
    /// afresh (and recorded) with `recount`.
    public func usage(recount: Bool = false) -> Usage {
        if recount { trim(to: Int.max, walk: true, deleting: false, keeping: 1) }
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

    /// Walks the entries, deleting old temporary files and records of sources unused for
    /// ``sourceLifetime``, then the least recently used entries (those of ``firstToGo`` as if a
    /// day older) while they take more than `limit` or than the sources they serve. A record of
    /// a source goes only while over `limit` itself: the bound is counted from them.
    /// With `deleting` false, it only counts; once over a bound, it deletes down to `keeping`
    /// of it.
    private func deleteLeastRecentlyUsed(over limit: Int, deleting: Bool, keeping: Double) -> Usage {
        var entries: [(path: String, size: Int, used: Int, served: Int?)] = []
        var (total, served) = (0, 0)
        let now = time(nil)
        let early = Set(firstToGo.map { "\(root)/\($0)/" })
        let sources = "\(root)/\(CacheStore.sourceKind)/"
        CacheStore.walk(root, depth: 2) { file, info in
            let isSource = file.hasPrefix(sources)
            if file.hasSuffix(".tmp") || (deleting && isSource && now - info.st_mtim.tv_sec > CacheStore.sourceLifetime)
            {
                if deleting && (isSource || now - info.st_mtim.tv_sec > 3600) { unlink(file) }
                return
            }
            let size = Int(info.st_blocks) * 512
            var used = info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
            if early.contains(where: file.hasPrefix) { used -= 86_400 * 1_000_000_000 }
            let source = isSource ? CacheStore.servedBytes(file) : nil
            entries.append((file, size, used, source))
            total += size
            served += source ?? 0
        }
        var count = entries.count
        let order = entries.sorted { ($0.used, $0.path) < ($1.used, $1.path) }
        // Other entries while over the bound, then sources' records while over the limit
        // itself; once over either, down to `keeping` of it.
        let passes = [(sources: false, bound: bound(limit, served: served)), (sources: true, bound: limit)]
        for pass in passes where deleting && total > pass.bound {
            let goal = Int(Double(pass.bound) * keeping)
            for entry in order where (entry.served != nil) == pass.sources {
                guard total > goal else { break }
                if unlink(entry.path) == 0 {
                    total -= entry.size
                    served -= entry.served ?? 0
                    count -= 1
                }
            }
        }
        var usage = Usage()
        (usage.bytes, usage.entries, usage.served) = (total, count, served)
        return usage
    }

    /// Seconds a record of a source (``serve(_:bytes:)``) is kept unused: 30 days.
    static let sourceLifetime = 30 * 86_400

    /// The bytes entries may take under `limit`: no more than the sources served (or the
    /// allowance), when any are recorded.
    func bound(_ limit: Int, served: Int) -> Int {
        served > 0 ? min(limit, max(served, allowance)) : limit
    }

    /// The bytes a source record at `file` (see ``serve(_:bytes:)``) says its source has, or 0.
    private static func servedBytes(_ file: String) -> Int {
        guard let name = file.split(separator: "/").last, let key = CacheKey(hex: String(name)),
            case .whole(let parts) = entry(at: file, key: key), parts.count == 1, parts[0].count == 8
        else { return 0 }
        return parts[0].withUnsafeBytes { max(0, Int(Int64(littleEndian: $0.loadUnaligned(as: Int64.self)))) }
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

    /// "bytes entries hits misses served" from the usage file, or `nil` when it holds no such
    /// line (a file of an earlier version, which did not count the sources, among them).
    private static func readUsage(_ fd: Int32) -> Usage? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = pread(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let numbers = String(decoding: buffer.prefix(count), as: UTF8.self).split { $0 == " " || $0 == "\n" }
            .compactMap { Int($0) }
        guard numbers.count == 5, numbers.allSatisfy({ $0 >= 0 }) else { return nil }
        var usage = Usage()
        (usage.bytes, usage.entries, usage.hits, usage.misses, usage.served) = (
            numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]
        )
        return usage
    }

    private static func writeUsage(_ fd: Int32, _ usage: Usage) {
        let line = Array("\(usage.bytes) \(usage.entries) \(usage.hits) \(usage.misses) \(usage.served)\n".utf8)
        _ = ftruncate(fd, 0)
        _ = line.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }
}
