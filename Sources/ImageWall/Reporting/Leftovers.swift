import WallFiles

extension OutputFolders {
    /// Removes the temporary files and folders that interrupted runs of this host left in the
    /// folders of `paths` (see `TemporaryNames`) and says so through `diagnostics`: a run
    /// killed where no handler could run (`kill -9`, a power cut) leaves no trace past the
    /// next run's start, and none goes unmentioned.
    public static func removeLeftovers(besides paths: [String], diagnostics: (Diagnostic) -> Void) {
        for (path, process) in TemporaryNames.removeLeftovers(besides: paths) {
            diagnostics(.warning(source: path, message: "removed: left by an interrupted run (process \(process))"))
        }
    }
}
