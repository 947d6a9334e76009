import CXXHash
import CZstd
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The store's files
extension CacheStore {
    /// Removes the empty folders `depth` levels below `folder` (kinds and their key prefixes).
    static func removeEmptyFolders(_ folder: String, depth: Int) {
        guard depth > 0 else { return }
        for name in names(in: folder) {
            var info = stat()
            let path = folder + "/" + name
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            removeEmptyFolders(path, depth: depth - 1)
            rmdir(path)
        }
    }

    /// The names in `folder` (WallCore's listing, read whole before any entry is acted on, so
    /// entries may be deleted meanwhile); the kind of each is asked of `lstat`, which every file
    /// system answers.
    static func names(in folder: String) -> [String] {
        (directoryEntries(at: folder) ?? []).map(\.name)
    }

    enum Read {
        case missing, damaged
        case whole([[UInt8]])
    }

    /// The parts of the entry in `path`, checked against `key`, its lengths and its checksum.
    static func entry(at path: String, key: CacheKey) -> Read {
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
            let fields = readExactly(fd, count: Int(count) * 16 + 8)
        else { return .damaged }
        let lengths = (0..<Int(count)).map { (stored: word(fields, $0 * 16), whole: word(fields, $0 * 16 + 8)) }
        guard UInt64(info.st_size) >= UInt64(head.count + fields.count) else { return .damaged }
        var remaining = UInt64(info.st_size) - UInt64(head.count + fields.count)
        var parts: [[UInt8]] = []
        for length in lengths {
            guard length.stored <= remaining, let part = readExactly(fd, count: Int(length.stored)) else {
                return .damaged
            }
            remaining -= length.stored
            if length.whole & compressedFlag == 0 {
                guard length.whole == length.stored else { return .damaged }
                parts.append(part)
            } else {
                let whole = length.whole & ~compressedFlag
                guard whole <= largestPart, let unpacked = decompress(part, length: Int(whole)) else { return .damaged }
                parts.append(unpacked)
            }
        }
        guard remaining == 0, checksum(parts) == word(fields, Int(count) * 16) else { return .damaged }
        return .whole(parts)
    }

    /// `count` bytes read from `fd` into a new array, or `nil` when the file ends first.
    static func readExactly(_ fd: Int32, count: Int) -> [UInt8]? {
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
    static func makeFolders(_ folder: String) -> String? {
        var made = ""
        for part in folder.split(separator: "/", omittingEmptySubsequences: false) {
            made += made.isEmpty && part.isEmpty ? "/" : (made.isEmpty || made == "/" ? "" : "/") + part
            guard !part.isEmpty else { continue }
            if mkdir(made, 0o755) != 0 && errno != EEXIST { return "\(made): \(systemErrorText())" }
        }
        return nil
    }

    /// What writing an entry did.
    enum Written {
        /// The entry is new.
        case added
        /// An entry of the same key was there already (the same content, written by another
        /// render at the same time): it is kept.
        case alreadyThere
        /// It could not be written, for this reason.
        case failed(String)
        /// The folder it goes in is not there.
        case missingFolder
    }

    /// Writes `parts` to a temporary file and links it to `path` only where no entry is (a
    /// link is made or refused atomically), so two renders writing the same entry at once add
    /// it once, and the recorded size counts it once; where the file system has no links, the
    /// temporary file is renamed over `path`.
    static func writeAtomically(_ parts: [[UInt8]], to path: String) -> Written {
        let temporary = "\(path).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return errno == ENOENT ? .missingFolder : .failed(systemErrorText()) }
        defer { unlink(temporary) }
        for bytes in parts {
            var done = 0
            while done < bytes.count {
                let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    let reason = systemErrorText()
                    close(fd)
                    return .failed(reason)
                }
                done += count
            }
        }
        close(fd)
        if link(temporary, path) == 0 { return .added }
        if errno == EEXIST { return .alreadyThere }
        return rename(temporary, path) == 0 ? .added : .failed(systemErrorText())
    }

    /// Calls `body` for every regular file `depth` folders below `folder`.
    static func walk(_ folder: String, depth: Int, _ body: (String, stat) -> Void) {
        for name in names(in: folder) {
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
