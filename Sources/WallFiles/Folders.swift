import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Folders made as `mkdir -p` makes them, their names' bytes kept (see ``SystemPath``).
public enum Folders {
    /// Makes the folder `path` and those above it that are missing; a folder already there is
    /// left as it is.
    public static func make(_ path: String) throws(FileError) {
        var status = stat()
        if stat(path.systemPath, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw FileError(.write, path: path, reason: "a file is there, not a folder")
            }
            return
        }
        let parent = FilePaths.parent(of: path)
        if !parent.isEmpty, parent != "/", parent != path { try make(parent) }
        guard mkdir(path.systemPath, 0o777) == 0 || errno == EEXIST else {
            throw FileError(.write, path: path, reason: systemErrorText())
        }
    }

    /// Whether something is at `path` (a link is followed).
    public static func exists(_ path: String) -> Bool { access(path.systemPath, F_OK) == 0 }
}
