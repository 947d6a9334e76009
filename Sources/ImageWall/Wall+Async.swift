import Dispatch
import Synchronization

/// Something an asynchronous render reports.
public enum RenderEvent: Sendable {
    /// How far the render is.
    case progress(ProgressUpdate)
    /// A skipped input or a decoder warning.
    case diagnostic(Diagnostic)
    /// The render is done; the sheet and manifest are written.
    case finished(Manifest)
}

extension Wall {
    /// Renders the sheet without blocking the caller; cancelling the task stops the render
    /// and leaves no output behind (``WallRunError/cancelled``).
    ///
    /// ```swift
    /// let manifest = try await Wall(inputs: ["Photos"]).render(
    ///     to: "sheet.png", options: WallOptions(), progress: { print($0.phase, $0.done, $0.total) })
    /// ```
    public func render(
        to output: String, manifest: String? = nil, options: WallOptions,
        progress: @escaping @Sendable (ProgressUpdate) -> Void,
        diagnostics: @escaping @Sendable (Diagnostic) -> Void = { _ in }
    ) async throws -> Manifest {
        let cancelled = Atomic<Bool>.Box(false)
        let hooks = RunHooks(
            progress: ProgressReporter(progress), isCancelled: { cancelled.value.load(ordering: .relaxed) },
            diagnostics: diagnostics)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(
                        with: Result { try self.render(to: output, manifest: manifest, options: options, hooks: hooks) }
                    )
                }
            }
        } onCancel: {
            cancelled.value.store(true, ordering: .relaxed)
        }
    }

    /// The events of a render as an asynchronous sequence: progress, diagnostics, and finally
    /// the manifest. Ending the iteration early cancels the render.
    ///
    /// ```swift
    /// for try await event in Wall(inputs: ["Photos"]).events(rendering: "sheet.png", options: WallOptions()) {
    ///     if case .progress(let update) = event { print(update.phase, update.done, "/", update.total) }
    /// }
    /// ```
    public func events(rendering output: String, manifest: String? = nil, options: WallOptions) -> AsyncThrowingStream<
        RenderEvent, any Error
    > {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let result = try await render(
                        to: output, manifest: manifest, options: options,
                        progress: { continuation.yield(.progress($0)) },
                        diagnostics: { continuation.yield(.diagnostic($0)) })
                    continuation.yield(.finished(result))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension Atomic where Value == Bool {
    /// An atomic flag that closures can share.
    final class Box: Sendable {
        let value: Atomic<Bool>
        init(_ initial: Bool) { value = Atomic(initial) }
    }
}
