import WallCodecs
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
    public static func check(_ paths: [String]) throws(CodecError) {
        for path in paths {
            let slash = path.lastIndex(of: "/")
            let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
            var status = stat()
            guard stat(folder, &status) == 0 else {
                throw CodecError(.write, path: path, reason: "its folder \(folder) does not exist")
            }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw CodecError(.write, path: path, reason: "\(folder) is not a folder")
            }
            guard access(folder, W_OK | X_OK) == 0 else {
                throw CodecError(.write, path: path, reason: "its folder \(folder) cannot be written to")
            }
        }
    }

    /// Removes the temporary files and folders that interrupted runs of this host left in the
    /// folders of `paths` (see ``TemporaryNames``) and says so through `diagnostics`: a run
    /// killed where no handler could run (`kill -9`, a power cut) leaves no trace past the
    /// next run's start, and none goes unmentioned.
    public static func removeLeftovers(besides paths: [String], diagnostics: (Diagnostic) -> Void) {
        for (path, process) in TemporaryNames.removeLeftovers(besides: paths) {
            diagnostics(.warning(source: path, message: "removed: left by an interrupted run (process \(process))"))
        }
    }
}
