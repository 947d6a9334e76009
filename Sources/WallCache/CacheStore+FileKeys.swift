import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Sources' content keys, remembered
extension CacheStore {
    /// The kind of the entries that remember a file's content key.
    static let fileKeyKind = "file"

    /// The key of the whole content of the file at `path`, as ``CacheKey/ofFile(atPath:)``
    /// gives it, read back from this store when the file is as it was when it was read: the
    /// same device and inode, size, and modification and change times to the nanosecond. A
    /// write to the file moves its change time, which no program can set back, so a file
    /// rewritten in place, whatever its size and modification time say, is read again.
    ///
    /// A key is remembered only for a file last changed over a second before it was read, as
    /// git trusts its index: a file changed again within the clock's tick after it was read
    /// keeps its times. Not counted among the lookups (``counts``).
    public func contentKey(ofFile path: String) -> CacheKey? {
        guard let before = CacheStore.status(path) else { return CacheKey.ofFile(atPath: path) }
        let note = CacheStore.noteKey(before)
        if let parts = load(CacheStore.fileKeyKind, note, counted: false), parts.count == 1, parts[0].count == 16 {
            let word = { (at: Int) in
                parts[0].withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
            }
            return CacheKey(high: word(0), low: word(8))
        }
        guard let key = CacheKey.ofFile(atPath: path) else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let settled = max(before.st_mtim.tv_sec, before.st_ctim.tv_sec) < now.tv_sec - 1
        if settled, let after = CacheStore.status(path), CacheStore.noteKey(after) == note {
            var bytes: [UInt8] = []
            for word in [key.high, key.low] { withUnsafeBytes(of: word.littleEndian) { bytes += $0 } }
            save(CacheStore.fileKeyKind, note, parts: [bytes], compressing: false)
        }
        return key
    }

    /// The status of the regular file at `path`, or `nil`.
    private static func status(_ path: String) -> stat? {
        var info = stat()
        guard stat(path.systemPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return info
    }

    /// The key of the note remembering the content key of the file whose status is `info`.
    private static func noteKey(_ info: stat) -> CacheKey {
        var hasher = KeyHasher()
        hasher.add("file content 1")
        for value in [
            Int(truncatingIfNeeded: info.st_dev), Int(truncatingIfNeeded: info.st_ino), Int(info.st_size),
            info.st_mtim.tv_sec, info.st_mtim.tv_nsec,
            info.st_ctim.tv_sec, info.st_ctim.tv_nsec,
        ] {
            hasher.add(value)
        }
        return hasher.finish()
    }
}
