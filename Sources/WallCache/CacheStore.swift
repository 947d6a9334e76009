import CXXHash
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A folder of cache entries, found by kind and ``CacheKey``, safe to share between processes.
///
/// Each entry is one file, `DIR/v1/KIND/AB/KEY`: a header (magic, the key, the number of parts,
/// each part's length, the XXH3-64 of the parts) and its parts one after another. Parts are
/// written from and read into their own arrays, so a decoded image's pixels are copied only by
/// the kernel. An entry is written to a temporary file and renamed into place,
/// so a reader sees a whole entry or none; one that is truncated, corrupt or for another key is
/// deleted and reads as missing. Reading an entry marks it used (its modification time), and
/// ``trim()`` deletes the least recently used entries while the folder is over its size limit.
/// A folder that cannot be written is reported once (``problem``) and the store goes on without
/// writing.
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
    }

    private static let magic: [UInt8] = Array("IWCACHE2".utf8)
    /// More parts than any entry has: a header claiming more is damaged.
    private static let maximumParts = 16

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
    private static func checksum(_ parts: [[UInt8]]) -> UInt64 {
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
            state.withLock { $0.misses += 1 }
            return nil
        case .damaged:
            unlink(file)
            state.withLock { $0.misses += 1 }
            return nil
        case .whole(let parts):
            _ = utimensat(AT_FDCWD, file, nil, 0)  // used now
            state.withLock { $0.hits += 1 }
            return parts
        }
    }

    /// Stores `parts` as entry `key` of `kind`, replacing any entry there.
    public func save(_ kind: String, _ key: CacheKey, parts: [[UInt8]]) {
        precondition(parts.count <= CacheStore.maximumParts)
        guard state.withLock({ $0.problem == nil }) else { return }
        let (folder, file) = path(kind, key)
        let lengths = parts.map { UInt64($0.count) }
        var header = CacheStore.magic
        for value in [key.high, key.low, UInt64(parts.count)] + lengths + [CacheStore.checksum(parts)] {
            withUnsafeBytes(of: value.littleEndian) { header += $0 }
        }
        if let failure = CacheStore.makeFolders(folder) ?? CacheStore.writeAtomically([header] + parts, to: file) {
            state.withLock { if $0.problem == nil { $0.problem = "cannot write to the cache: \(failure)" } }
        }
    }

    /// Deletes the least recently used entries until the entries take at most the size limit,
    /// and temporary files left by interrupted writes more than an hour old.
    public func trim() {
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
        guard total > sizeLimit else { return }
        for entry in entries.sorted(by: { ($0.used, $0.path) < ($1.used, $1.path) }) {
            guard total > sizeLimit else { break }
            if unlink(entry.path) == 0 { total -= entry.size }
        }
    }

    private enum Read {
        case missing, damaged
        case whole([[UInt8]])
    }

    /// The parts of the entry in `path`, checked against `key`, its lengths and its checksum.
    private static func entry(at path: String, key: CacheKey) -> Read {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .missing }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size >= 0 else { return .missing }
        guard let head = readExactly(fd, count: 8 + 3 * 8), Array(head[0..<8]) == magic else { return .damaged }
        func word(_ bytes: [UInt8], _ at: Int) -> UInt64 {
            bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        }
        let count = word(head, 24)
        guard word(head, 8) == key.high, word(head, 16) == key.low, count <= UInt64(maximumParts),
            let sizes = readExactly(fd, count: Int(count) * 8 + 8)
        else { return .damaged }
        let lengths = (0..<Int(count)).map { word(sizes, $0 * 8) }
        guard UInt64(info.st_size) >= UInt64(head.count + sizes.count) else { return .damaged }
        var remaining = UInt64(info.st_size) - UInt64(head.count + sizes.count)
        var parts: [[UInt8]] = []
        for length in lengths {
            guard length <= remaining, let part = readExactly(fd, count: Int(length)) else { return .damaged }
            remaining -= length
            parts.append(part)
        }
        guard remaining == 0, checksum(parts) == word(sizes, Int(count) * 8) else { return .damaged }
        return .whole(parts)
    }

    /// `count` bytes read from `fd` into a new array, or `nil` when the file ends first.
    private static func readExactly(_ fd: Int32, count: Int) -> [UInt8]? {
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let got = read(fd, buffer.baseAddress! + done, count - done)
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { break }
                done += got
            }
            if done < count {
                buffer.baseAddress?.initialize(repeating: 0, count: count)
                complete = false
            }
            initialized = count
        }
        return complete ? bytes : nil
    }

    /// `mkdir -p`; the reason it failed, or `nil`.
    private static func makeFolders(_ folder: String) -> String? {
        var made = ""
        for part in folder.split(separator: "/", omittingEmptySubsequences: false) {
            made += made.isEmpty && part.isEmpty ? "/" : (made.isEmpty || made == "/" ? "" : "/") + part
            guard !part.isEmpty else { continue }
            if mkdir(made, 0o755) != 0 && errno != EEXIST { return "\(made): \(systemErrorText())" }
        }
        return nil
    }

    /// Writes `parts`, one after another, to a temporary file beside `path` and renames it into
    /// place.
    private static func writeAtomically(_ parts: [[UInt8]], to path: String) -> String? {
        let temporary = "\(path).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return systemErrorText() }
        for bytes in parts {
            var done = 0
            while done < bytes.count {
                let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    let reason = systemErrorText()
                    close(fd)
                    unlink(temporary)
                    return reason
                }
                done += count
            }
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let reason = systemErrorText()
            unlink(temporary)
            return reason
        }
        return nil
    }

    /// Calls `body` for every regular file `depth` folders below `folder`.
    private static func walk(_ folder: String, depth: Int, _ body: (String, stat) -> Void) {
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                if depth > 0 { walk(path, depth: depth - 1, body) }
            } else if (info.st_mode & S_IFMT) == S_IFREG, depth == 0 {
                body(path, info)
            }
        }
    }
}
