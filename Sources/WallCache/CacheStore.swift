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
    let root: String
    let state = Locked(State())

    struct State {
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
}
