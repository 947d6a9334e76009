import WallCore

/// Decoder warnings per tile, gathered from the decoding threads and passed on as diagnostics.
final class TileWarnings: Sendable {
    private let store = Locked<[Int: [String]]>([:])
    private let images: [ProbedImage]
    private let diagnostics: @Sendable (Diagnostic) -> Void

    init(images: [ProbedImage], diagnostics: @escaping @Sendable (Diagnostic) -> Void) {
        self.images = images
        self.diagnostics = diagnostics
    }

    /// Records `message` for tile `index` and reports it.
    func add(_ message: String, for index: Int) {
        store.withLock { $0[index, default: []].append(message) }
        diagnostics(.warning(source: images[index].path, message: message))
    }

    /// The messages recorded for tile `index`.
    func messages(for index: Int) -> [String] {
        store.withLock { $0[index] ?? [] }
    }
}
