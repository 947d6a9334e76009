import WallCore

/// Decoder warnings and notes per tile, gathered from the decoding threads and passed on as
/// diagnostics.
final class TileWarnings: Sendable {
    private let store = Locked<[Int: (warnings: [String], notes: [String])]>([:])
    private let images: [ProbedImage]
    private let diagnostics: @Sendable (Diagnostic) -> Void

    init(images: [ProbedImage], diagnostics: @escaping @Sendable (Diagnostic) -> Void) {
        self.images = images
        self.diagnostics = diagnostics
    }

    /// Records warning `message` for tile `index` and reports it.
    func add(_ message: String, for index: Int) {
        store.withLock { $0[index, default: ([], [])].warnings.append(message) }
        diagnostics(.warning(source: images[index].path, message: message))
    }

    /// Records `note` (a decoder's remark that changes no pixel) for tile `index` and reports it.
    func add(note: String, for index: Int) {
        store.withLock { $0[index, default: ([], [])].notes.append(note) }
        diagnostics(.note(source: images[index].path, message: note))
    }

    /// The warnings recorded for tile `index`.
    func messages(for index: Int) -> [String] {
        store.withLock { $0[index]?.warnings ?? [] }
    }

    /// The notes recorded for tile `index`.
    func notes(for index: Int) -> [String] {
        store.withLock { $0[index]?.notes ?? [] }
    }
}
