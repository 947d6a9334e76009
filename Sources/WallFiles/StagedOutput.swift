import Foundation
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An output written under a temporary name and not yet in place: a run writes every output
/// staged, then puts them all in place, or discards them all when one fails, so that what one
/// command writes is all there or none of it.
public protocol StagedOutput: AnyObject, Sendable {
    /// Puts the output in place (a rename, over whatever was there).
    func commit() throws
    /// Removes what was written; the destination stays as it was.
    func discard()
}

extension AtomicFile: StagedOutput {}

extension Array where Element == any StagedOutput {
    /// Puts every output in place, in order; when one cannot be, the rest are discarded and
    /// the error thrown.
    public func commitAll() throws {
        do {
            for output in self { try output.commit() }
        } catch {
            for output in self { output.discard() }
            throw error
        }
    }

    /// Discards every output.
    public func discardAll() {
        for output in self { output.discard() }
    }
}

/// A folder written beside its destination under a temporary name (see ``TemporaryNames``)
/// and put in place whole: ``commit()`` renames it over the folder that was there (moved aside
/// first and removed after), so a reader never sees half of one.
public final class StagedFolder: StagedOutput, @unchecked Sendable {
    /// Where the folder ends up.
    public let destination: String
    /// The folder being written.
    public let path: String
    private var finished = false

    /// Makes the temporary folder beside `destination`, with the permissions a folder made
    /// there would have (`mkdtemp` makes it private), since it is to be put in place.
    public init(destination: String) throws(FileError) {
        self.destination = destination
        path = try PrivateFolder(beside: destination).path
        chmod(path.systemPath, 0o777 & ~StagedFolder.creationMask)
    }

    /// The process's umask, read without changing it (`umask(2)` can only set it): from
    /// `/proc/self/status`, else the usual 022.
    static let creationMask: mode_t = {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        let value = line.flatMap { mode_t($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) }
        return value ?? 0o022
    }()

    /// Whether nothing was written into the folder.
    public var isEmpty: Bool { (directoryEntries(at: path) ?? []).isEmpty }

    /// Renames the folder over the one at the destination, if any.
    public func commit() throws {
        precondition(!finished, "StagedFolder committed twice")
        var old: String?
        if access(destination.systemPath, F_OK) == 0 {
            old = path + ".old"
            guard rename(destination.systemPath, old!.systemPath) == 0 else {
                throw FileError(.write, path: destination, reason: systemErrorText())
            }
        }
        guard rename(path.systemPath, destination.systemPath) == 0 else {
            let text = systemErrorText()
            if let old { rename(old.systemPath, destination.systemPath) }
            throw FileError(.write, path: destination, reason: text)
        }
        finished = true
        if let old { PrivateFolder.removeTree(old) }
    }

    /// Removes the folder and what was written in it.
    public func discard() {
        guard !finished else { return }
        finished = true
        PrivateFolder.removeTree(path)
    }

    deinit { discard() }
}
