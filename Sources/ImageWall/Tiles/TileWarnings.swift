import WallCore

/// Decoder warnings and notes per tile, gathered from the decoding threads and passed on as
/// diagnostics.
final class TileWarnings: Sendable {
    private let store = Locked<[Int: (warnings: [String], notes: [String])]>([:])
    private let placeholders = Locked<[Int: String]>([:])
    private let images: [ProbedImage]
    private let diagnostics: @Sendable (Diagnostic) -> Void

    init(images: [ProbedImage], diagnostics: @escaping @Sendable (Diagnostic) -> Void) {
        self.images = images
        self.diagnostics = diagnostics
    }

    /// Records warning `message` for tile `index` and reports it, once however many decodes of
    /// the source (batch variants) meet it.
    func add(_ message: String, for index: Int) {
        let new = store.withLock { store in
            guard !(store[index]?.warnings.contains(message) ?? false) else { return false }
            store[index, default: ([], [])].warnings.append(message)
            return true
        }
        if new { diagnostics(.warning(source: images[index].path, message: message)) }
    }

    /// Records `note` (a decoder's remark that changes no pixel) for tile `index` and reports it.
    func add(note: String, for index: Int) {
        let new = store.withLock { store in
            guard !(store[index]?.notes.contains(note) ?? false) else { return false }
            store[index, default: ([], [])].notes.append(note)
            return true
        }
        if new { diagnostics(.note(source: images[index].path, message: note)) }
    }

    /// Records that tile `index` could not be decoded, for `reason`, and is drawn as a
    /// placeholder; reports it (once however many variants draw it).
    func addPlaceholder(_ reason: String, for index: Int) {
        let first = placeholders.withLock { $0.updateValue(reason, forKey: index) == nil }
        if first { add("not decoded, drawn as a placeholder: \(reason)", for: index) }
    }

    /// Why tile `index` is drawn as a placeholder, when it is.
    func placeholder(for index: Int) -> String? {
        placeholders.withLock { $0[index] }
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
