import Foundation
import WallCodecs
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The names of files a build is about to put in the site, written down before they are (in
/// `.imagewall-gallery.journal`), so that a build stopped part-way — interrupted, killed, out of
/// space — leaves no file the next build does not know to be its own. Each entry is a path, or
/// a prefix that every file of a sheet's pages starts with, NUL-terminated (names may hold line
/// feeds). The record written at the end of a build replaces it. Albums drawn at the same time
/// write to it one after another.
final class SiteJournal: @unchecked Sendable {
    private let path: String
    private var descriptor: Int32 = -1
    private let lock = NSLock()

    init(site: String) {
        path = site + "/" + SitePaths.journal
    }

    /// What an earlier build that did not finish wrote down: paths and prefixes.
    static func read(site: String) -> (paths: Set<String>, prefixes: [String]) {
        guard let data = try? FileContents.read(site + "/" + SitePaths.journal) else { return ([], []) }
        var paths: Set<String> = []
        var prefixes: [String] = []
        for entry in data.split(separator: 0) where entry.count > 1 {
            let text = String(decoding: entry.dropFirst(), as: UTF8.self)
            guard SitePaths.isInside(text) else { continue }
            if entry.first == UInt8(ascii: "p") { prefixes.append(text) } else { paths.insert(text) }
        }
        return (paths, prefixes)
    }

    /// Writes down `paths` (and `prefixes`) before the files are put in place.
    func note(_ paths: [String], prefixes: [String] = []) throws {
        lock.lock()
        defer { lock.unlock() }
        if descriptor < 0 {
            descriptor = open(path.systemPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else { throw FileError(.write, path: path, reason: systemErrorText()) }
        }
        var bytes: [UInt8] = []
        for path in paths { bytes += [UInt8(ascii: "f")] + Array(path.utf8) + [0] }
        for prefix in prefixes { bytes += [UInt8(ascii: "p")] + Array(prefix.utf8) + [0] }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw FileError(.write, path: path, reason: systemErrorText()) }
    }

    /// Removes the journal once the record holds what it said.
    func remove() {
        lock.lock()
        defer { lock.unlock() }
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(path.systemPath)
    }

    deinit { if descriptor >= 0 { close(descriptor) } }
}

/// One build at a time in a site: an exclusive `flock` on `.imagewall-gallery.lock`, held while
/// the build (or a watch) runs and released when the process ends, however it ends.
final class SiteLock {
    private let descriptor: Int32

    /// Takes the lock of `site`, or fails within a second naming the site when another build
    /// holds it. The second covers a process this one starts at that moment: between its fork
    /// and its exec it shares the lock of a build just ended.
    init(site: String) throws {
        let path = site + "/" + SitePaths.lock
        descriptor = open(path.systemPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw FileError(.write, path: path, reason: systemErrorText()) }
        var tries = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            tries += 1
            guard tries < 100 else {
                close(descriptor)
                throw GalleryError("\(site): another imagewall gallery is building this site")
            }
            usleep(10_000)
        }
    }

    deinit { close(descriptor) }
}
