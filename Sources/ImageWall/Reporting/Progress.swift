import WallCore

/// The stages of a render, in order.
public enum Phase: String, Sendable, Codable, CaseIterable {
    case probe, stack, layout, render, write
}

/// A snapshot of a render's progress.
public struct ProgressUpdate: Sendable, Equatable {
    /// The stage under way.
    public var phase: Phase
    /// Items done in this stage.
    public var done: Int
    /// Items this stage has.
    public var total: Int
}

/// Collects progress from the pipeline's threads and passes snapshots to a handler, at most
/// one at a time and in order.
public final class ProgressReporter: Sendable {
    private let state = Locked<ProgressUpdate>(ProgressUpdate(phase: .probe, done: 0, total: 0))
    private let handler: @Sendable (ProgressUpdate) -> Void

    /// A reporter calling `handler` with each change.
    public init(_ handler: @escaping @Sendable (ProgressUpdate) -> Void) {
        self.handler = handler
    }

    /// The latest snapshot.
    public var current: ProgressUpdate { state.withLock { $0 } }

    package func begin(_ phase: Phase, total: Int) {
        state.withLock { update in
            update = ProgressUpdate(phase: phase, done: 0, total: total)
            handler(update)
        }
    }

    package func advance(_ phase: Phase, by count: Int = 1) {
        state.withLock { update in
            guard update.phase == phase else { return }
            update.done += count
            handler(update)
        }
    }
}
