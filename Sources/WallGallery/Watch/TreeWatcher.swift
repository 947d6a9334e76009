import ImageWall
import WallCore

#if canImport(Glibc)
    import Glibc
#endif

/// Follows a tree's changes: every folder watched through inotify (folders made or moved in are
/// watched as they appear), and where the system's limit of watches is reached, that folder
/// looked at every ``pollInterval`` instead. ``wait(quiet:isCancelled:)`` returns once something
/// changed and then nothing more for a quiet period, with no file still open for writing: a file
/// being copied is taken when the copy is done, once.
final class TreeWatcher {
    private let tree: String
    private let site: FileStamp?
    private let descriptor: Int32
    /// The folder each watch is on, by its descriptor, and the other way.
    private var folders: [Int32: String] = [:]
    private var watches: [String: Int32] = [:]
    /// Folders the limit kept from being watched, with what they held when last looked at.
    private var polled: [String: [String: FileStamp]] = [:]
    private var lastPoll = 0.0
    /// Files written to and not yet closed (a copy under way), by path.
    private var open: [String: Double] = [:]
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// What to say about watching: the limit reached, a folder polled instead.
    private let warning: @Sendable (String) -> Void
    private var warnedLimit = false

    /// How often folders past the watch limit are looked at, in seconds.
    static let pollInterval = 2.0
    /// How long a file may stay open for writing with nothing written before it is taken as it
    /// is (a program that left it open), in seconds.
    static let stalled = 30.0

    /// Folders watched at most, below the system's own limit (tests stand in for a full one).
    private let limit: Int?

    /// Watches `tree` (absolute), leaving out the site's folder when it is in the tree; past
    /// `limit` folders (or the system's limit) a folder is polled instead.
    init(tree: String, skipping site: FileStamp?, limit: Int? = nil, warning: @escaping @Sendable (String) -> Void)
        throws
    {
        self.tree = tree
        self.site = site
        self.limit = limit
        self.warning = warning
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw GalleryError("\(tree): cannot watch it (inotify: \(systemErrorText()))") }
        resync()
    }

    deinit { close(descriptor) }

    /// The events a folder is watched for: anything that changes what it holds.
    private static let mask = UInt32(
        IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_DELETE_SELF
            | IN_MOVE_SELF | IN_ONLYDIR)

    /// Watches every folder of the tree as it is now, and no other: folders moved in are added,
    /// watches on folders deleted or moved out are dropped, and each watch knows its folder's
    /// current path after renames.
    func resync() {
        let walk = LibraryWalk.walk(tree, skipping: site)
        var seen: [String: Int32] = [:]
        var nowPolled: Set<String> = []
        for folder in walk.folders {
            let path = folder.path.isEmpty ? tree : tree + "/" + folder.path
            if let limit, seen.count >= limit {
                nowPolled.insert(path)
                continue
            }
            let wd = inotify_add_watch(descriptor, path.systemPath, TreeWatcher.mask)
            if wd >= 0 {
                seen[path] = wd
            } else if errno == ENOSPC {
                nowPolled.insert(path)
            }
        }
        let kept = Set(seen.values)
        for wd in watches.values where !kept.contains(wd) { inotify_rm_watch(descriptor, wd) }
        watches = seen
        folders = Dictionary(seen.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        if !nowPolled.isEmpty && !warnedLimit {
            warnedLimit = true
            let limit =
                self.limit.map(String.init)
                ?? (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            warning(
                "the system's limit of watched folders is reached (fs.inotify.max_user_watches = \(limit)): \(nowPolled.count) folder\(nowPolled.count == 1 ? "" : "s") looked at every \(Int(TreeWatcher.pollInterval)) s instead (\(nowPolled.sorted().first!)\(nowPolled.count > 1 ? ", …" : ""))"
            )
        }
        polled = Dictionary(uniqueKeysWithValues: nowPolled.map { ($0, polled[$0] ?? TreeWatcher.contents(of: $0)) })
    }

    /// What a polled folder holds: its entries' stamps by name.
    private static func contents(of folder: String) -> [String: FileStamp] {
        var found: [String: FileStamp] = [:]
        for entry in directoryEntries(at: folder) ?? [] where !entry.name.hasPrefix(".") {
            if let stamp = FileStamp(path: folder + "/" + entry.name) { found[entry.name] = stamp }
        }
        return found
    }

    /// Waits for a change: returns `true` once something in the tree changed and then nothing
    /// more for `quiet` seconds, with no file still being written; `false` when `isCancelled`
    /// says to stop.
    func wait(quiet: Double, isCancelled: () -> Bool) -> Bool {
        var changed = false
        var lastChange = 0.0
        while !isCancelled() {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, 200)
            let now = ProgressDisplayClock.now()
            if readEvents(at: now) {
                changed = true
                lastChange = now
            }
            if !polled.isEmpty && now - lastPoll >= TreeWatcher.pollInterval {
                lastPoll = now
                for (folder, before) in polled {
                    let after = TreeWatcher.contents(of: folder)
                    if after != before {
                        polled[folder] = after
                        changed = true
                        lastChange = now
                    }
                }
            }
            open = open.filter { now - $0.value < TreeWatcher.stalled }
            if changed && now - lastChange >= quiet && open.isEmpty { return true }
        }
        return false
    }

    /// Reads the events waiting; returns whether any says the tree changed. Folders made or
    /// moved in, removed or moved away, and an overflowed queue, resync the watches.
    private func readEvents(at now: Double) -> Bool {
        var changed = false
        var needsResync = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            buffer.withUnsafeBytes { bytes in
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = bytes[nameStart..<min(count, nameStart + Int(event.len))]
                    let name = SystemPath.string(nameBytes.prefix { $0 != 0 })
                    offset = nameStart + Int(event.len)
                    let mask = Int32(bitPattern: event.mask)
                    if mask & Int32(IN_Q_OVERFLOW) != 0 {
                        (changed, needsResync) = (true, true)
                        continue
                    }
                    guard let folder = folders[event.wd] else { continue }
                    if name.hasPrefix(".") && mask & Int32(IN_ISDIR) == 0 { continue }  // hidden files are no pictures
                    let path = name.isEmpty ? folder : folder + "/" + name
                    if let site, mask & Int32(IN_ISDIR) != 0, let stamp = FileStamp(path: path),
                        stamp.device == site.device && stamp.inode == site.inode
                    {
                        continue  // the site's own folder
                    }
                    if mask & Int32(IN_IGNORED) != 0 { continue }
                    changed = true
                    if mask & Int32(IN_MODIFY) != 0 { open[path] = now }
                    if mask & Int32(IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM) != 0 { open[path] = nil }
                    if mask & Int32(IN_ISDIR | IN_DELETE_SELF | IN_MOVE_SELF) != 0 { needsResync = true }
                }
            }
        }
        if needsResync { resync() }
        return changed
    }
}
