/// How a run reports back and is stopped: the parts of a render that are not settings.
public struct RunHooks: Sendable {
    /// Receives progress as the run goes; called from several threads.
    public var progress: ProgressReporter?
    /// Collects the time each stage takes, when set.
    public var profile: StageProfile?
    /// Asked between images and bands; `true` stops the run with ``WallRunError/cancelled``,
    /// leaving no output behind.
    public var isCancelled: @Sendable () -> Bool
    /// Receives skipped inputs and decoder warnings as they happen; called from several threads.
    public var diagnostics: @Sendable (Diagnostic) -> Void

    /// Hooks that report nothing and never cancel, unless given.
    public init(
        progress: ProgressReporter? = nil, profile: StageProfile? = nil,
        isCancelled: @escaping @Sendable () -> Bool = { false },
        diagnostics: @escaping @Sendable (Diagnostic) -> Void = { _ in }
    ) {
        self.progress = progress
        self.profile = profile
        self.isCancelled = isCancelled
        self.diagnostics = diagnostics
    }

    /// Throws ``WallRunError/cancelled`` when the run was asked to stop.
    func checkCancelled() throws(WallRunError) {
        if isCancelled() { throw .cancelled }
    }
}
