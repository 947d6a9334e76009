import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Outputs checked before any work: a run that could not write one of its files says so before
/// it decodes anything, rather than after the sheet is written.
public enum OutputFolders {
    /// Throws for the first of `paths` whose folder does not exist, is not a folder, or cannot
    /// be written to (a page's `{page}` pattern is checked by the folder it names).
    public static func check(_ paths: [String]) throws(FileError) {
        for path in paths {
            let folder = FilePaths.directory(of: path)
            var status = stat()
            guard stat(folder.systemPath, &status) == 0 else {
                throw FileError(.write, path: path, reason: "its folder \(folder) does not exist")
            }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw FileError(.write, path: path, reason: "\(folder) is not a folder")
            }
            guard access(folder.systemPath, W_OK | X_OK) == 0 else {
                throw FileError(.write, path: path, reason: "its folder \(folder) cannot be written to")
            }
        }
    }
}
