import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Keeping the folder within its bounds: the usage file, the walk, the least recently used first.
extension CacheStore {
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
