import Foundation
import WallCore

/// A folder made for one run's files on the way (`mkdtemp`, mode 0700): hidden beside the
/// output it prepares, so that it can be renamed into place on the same file system, or under
/// the system's temporary folder.
public struct PrivateFolder: Sendable {
    /// The folder's path.
    public let path: String

    /// A hidden folder beside `destination`: `.NAME.HOST-PID-XXXXXX`, or `.NAME.TAG.HOST-PID-XXXXXX`
    /// with `tag` (see ``TemporaryNames``).
    public init(beside destination: String, tag: String? = nil) throws(FileError) {
        let named = destination + (tag.map { ".\($0)" } ?? "")
        try self.init(template: TemporaryNames.prefix(for: named) + "XXXXXX", naming: destination)
    }

    /// A folder under the system's temporary folder: `PREFIX.XXXXXX`.
    public init(temporaryNamed prefix: String) throws(FileError) {
        let folder = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
        try self.init(template: "\(folder)\(prefix).XXXXXX", naming: NSTemporaryDirectory())
    }

    private init(template: String, naming subject: String) throws(FileError) {
        var characters = template.systemPath
        guard let made = mkdtemp(&characters) else {
            throw FileError(.write, path: subject, reason: systemErrorText())
        }
        path = SystemPath.string(cString: made)
    }

    /// Removes the folder and everything in it.
    public func remove() { PrivateFolder.removeTree(path) }

    /// Removes `path` and everything under it, if it is there.
    public static func removeTree(_ path: String) {
        var status = stat()
        guard lstat(path.systemPath, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR {
            for entry in directoryEntries(at: path) ?? [] { removeTree(path + "/" + entry.name) }
            rmdir(path.systemPath)
        } else {
            unlink(path.systemPath)
        }
    }
}
