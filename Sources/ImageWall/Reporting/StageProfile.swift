import WallCore

#if canImport(Glibc)
    import Glibc
#endif

/// Where a render's time goes: CPU seconds per stage, summed over threads (reading a manifest,
/// probe, layout and writing manifests in wall seconds), for `--profile`; a gallery adds its
/// pictures' renditions.
public final class StageProfile: Sendable {
    /// The stages measured.
    public enum Stage: String, Sendable, CaseIterable {
        case manifest, probe, stack, layout, decode, faces, resample, cells, spill, encode, cache
        /// Writing the manifests a render was asked for (`--manifest`).
        case manifestWrite = "manifest-write"
        case renditions

        /// Whether the stage is measured in wall seconds (else in CPU seconds).
        public var isWall: Bool { self == .manifest || self == .probe || self == .layout || self == .manifestWrite }
    }

    private let seconds = Locked<[Stage: Double]>([:])

    /// A profile with no time measured yet.
    public init() {}

    /// The time spent in each stage so far.
    public var totals: [Stage: Double] { seconds.withLock { $0 } }

    /// Runs `body`, adding the calling thread's CPU time (or wall time with `wall`) to `stage`.
    public func measure<T, E: Error>(_ stage: Stage, wall: Bool = false, _ body: () throws(E) -> T) throws(E) -> T {
        let clock = wall ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID
        let start = StageProfile.now(clock)
        defer {
            let spent = StageProfile.now(clock) - start
            seconds.withLock { $0[stage, default: 0] += spent }
        }
        return try body()
    }

    static func now(_ clock: clockid_t) -> Double {
        var t = timespec()
        clock_gettime(clock, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

extension Optional where Wrapped == StageProfile {
    /// Measures `body` when profiling, runs it plainly otherwise.
    public func measure<T, E: Error>(
        _ stage: StageProfile.Stage, wall: Bool = false, _ body: () throws(E) -> T
    ) throws(E) -> T {
        switch self {
        case .some(let profile): return try profile.measure(stage, wall: wall, body)
        case .none: return try body()
        }
    }
}
