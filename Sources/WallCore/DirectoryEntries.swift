#if canImport(Glibc)
    import Glibc
#endif

/// One entry of a folder.
public struct DirectoryEntry: Sendable, Hashable {
    /// The entry's name, its bytes kept (see ``SystemPath``).
    public var name: String
    /// `true` when the folder says it is a sub-folder (links are not followed).
    public var isDirectory: Bool
    /// `true` when the folder says it is a symbolic link.
    public var isLink = false
}

/// The entries of the folder at `path`, "." and ".." left out, in the order the system gives;
/// `nil` when it cannot be opened.
public func directoryEntries(at path: String) -> [DirectoryEntry]? {
    guard let directory = opendir(path.systemPath) else { return nil }
    defer { closedir(directory) }
    var entries: [DirectoryEntry] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            SystemPath.string(raw.prefix { $0 != 0 })
        }
        if name == "." || name == ".." { continue }
        var type = entry.pointee.d_type
        if type == UInt8(DT_UNKNOWN) {  // file systems that do not say (some NFS and FUSE mounts)
            var status = stat()
            if lstat((path + "/" + name).systemPath, &status) == 0 {
                let kind = status.st_mode & S_IFMT
                type = kind == S_IFDIR ? UInt8(DT_DIR) : kind == S_IFLNK ? UInt8(DT_LNK) : UInt8(DT_REG)
            }
        }
        entries.append(DirectoryEntry(name: name, isDirectory: type == UInt8(DT_DIR), isLink: type == UInt8(DT_LNK)))
    }
    return entries
}
