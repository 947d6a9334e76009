import WallCache
import WallCodecs
import WallCore

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
    /// Receives each source as it is decoded (or read back decoded from the cache) for its tiles,
    /// with the size it was decoded for, while the render holds it: what a gallery makes its
    /// renditions from (see ``TileSettings/decodeFloor``). It may give back the decode halved
    /// both ways, premultiplied, as `Resampler.halved(_:)` makes it, when it made
    /// that: a tile whose resampling begins with that halving then starts from it. Called from
    /// several threads; not called for a source whose tiles all come from the cache.
    public var decoded: (@Sendable (_ source: ProbedImage, _ decodedFor: Size, _ image: DecodedImage) -> Bitmap?)?
    /// The key of a source's whole content (as `CacheKey.ofFile(atPath:)` makes it)
    /// when the caller has it already, to spare the cache reading the file again; `nil` for a
    /// source it does not know, or one changed since it was read.
    public var contentKey: (@Sendable (_ path: String) -> CacheKey?)?

    /// Hooks that report nothing and never cancel, unless given.
    public init(
        progress: ProgressReporter? = nil, profile: StageProfile? = nil,
        isCancelled: @escaping @Sendable () -> Bool = { false },
        diagnostics: @escaping @Sendable (Diagnostic) -> Void = { _ in },
        decoded: (@Sendable (_ source: ProbedImage, _ decodedFor: Size, _ image: DecodedImage) -> Bitmap?)? = nil,
        contentKey: (@Sendable (_ path: String) -> CacheKey?)? = nil
    ) {
        self.progress = progress
        self.profile = profile
        self.isCancelled = isCancelled
        self.diagnostics = diagnostics
        self.decoded = decoded
        self.contentKey = contentKey
    }

    /// Throws ``WallRunError/cancelled`` when the run was asked to stop.
    func checkCancelled() throws(WallRunError) {
        if isCancelled() { throw .cancelled }
    }
}
