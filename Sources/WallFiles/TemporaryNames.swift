import Foundation
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The names of the temporary files and folders written beside an output until it is put in
/// place: `.NAME.HOST-PID-RANDOM.tmp` for a file, `.NAME.HOST-PID-XXXXXX` for a folder. They
/// say which run made them, so a later run on the same host can tell one left by a run that
/// was killed (`kill -9`, a power cut: no handler ran) from one that another run is writing
/// now, and remove the first kind.
public enum TemporaryNames {
    /// This process as temporary names carry it: the host's short name and the process id.
    static let owner: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        let host = gethostname(&buffer, buffer.count) == 0 ? buffer.text : ""
        let short = host.split(separator: ".").first.map(String.init) ?? ""
        let safe = short.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        return "\(safe.isEmpty ? "host" : safe)-\(getpid())"
    }()

    /// The start of this process's temporary names for `destination`, its folder included:
    /// `FOLDER/.NAME.HOST-PID-`.
    static func prefix(for destination: String) -> String {
        let parent = FilePaths.parent(of: destination)
        let folder = parent.isEmpty ? "" : parent == "/" ? "/" : parent + "/"
        return "\(folder).\(FilePaths.name(of: destination)).\(owner)-"
    }

    /// Removes, from the folders of `destinations`, the temporary files and folders that runs
    /// of this host which are no longer running left there; returns what was removed, with
    /// the process that left it. Another host's (a shared folder) and a running process's are
    /// left alone.
    public static func removeLeftovers(besides destinations: [String]) -> [(path: String, process: Int32)] {
        var removed: [(String, Int32)] = []
        var folders = Set<String>()
        for destination in destinations {
            folders.insert(FilePaths.directory(of: destination))
        }
        let host = owner[..<owner.lastIndex(of: "-")!]
        for folder in folders.sorted() {
            for entry in directoryEntries(at: folder) ?? [] where entry.name.hasPrefix(".") {
                guard let process = leftBy(entry.name, host: String(host)), kill(process, 0) != 0, errno == ESRCH
                else { continue }
                let path = folder == "/" ? "/" + entry.name : folder + "/" + entry.name
                PrivateFolder.removeTree(path)
                removed.append((path, process))
            }
        }
        return removed
    }

    /// The process that made the temporary `name` on `host`, when `name` is one ImageWall makes
    /// (`.NAME.HOST-PID-RANDOM.tmp`, `.NAME.HOST-PID-XXXXXX`, or a folder's `….old` on its way out).
    static func leftBy(_ name: String, host: String) -> Int32? {
        var stem = Substring(name)
        for ending in [".tmp", ".old"] where stem.hasSuffix(ending) { stem = stem.dropLast(ending.count) }
        guard let dot = stem.lastIndex(of: "."), dot > stem.startIndex else { return nil }
        let tag = stem[stem.index(after: dot)...]
        guard tag.hasPrefix(host + "-") else { return nil }
        let rest = tag.dropFirst(host.count + 1).split(separator: "-", omittingEmptySubsequences: false)
        guard rest.count == 2, !rest[1].isEmpty, rest[1].count <= 13, let process = Int32(rest[0]), process > 0,
            rest[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return nil }
        return process
    }
}
