import WallCore

/// Decoder warnings and notes per tile, gathered from the decoding threads and passed on as
/// diagnostics.
final class TileWarnings: Sendable {
    /// What one tile's decodes said.
    fileprivate struct Messages {
        var warnings: [String] = []
        var notes: [String] = []
        /// Why the tile is drawn as a placeholder, when it is: the first reason met.
        var placeholder: String?
        /// Whether its decoder said the file is damaged (see ``DecodedImage/isDamaged``).
        var damaged = false
        /// The crops chosen from its pixels (`--gravity attention`), by the size each is drawn at,
        /// and the measure that chose them.
        var crops: [Size: Region] = [:]
        var cropBy: String?
    }

    private let store = Locked<[Int: Messages]>([:])
    private let images: [ProbedImage]
    private let diagnostics: @Sendable (Diagnostic) -> Void

    init(images: [ProbedImage], diagnostics: @escaping @Sendable (Diagnostic) -> Void) {
        self.images = images
        self.diagnostics = diagnostics
    }

    /// Records warning `message` for tile `index` and reports it, once however many decodes of
    /// the source (batch variants) meet it.
    func add(_ message: String, for index: Int) {
        if record(message, in: \.warnings, for: index) {
            diagnostics(.warning(source: images[index].path, message: message))
        }
    }

    /// Records `note` (a decoder's remark that changes no pixel) for tile `index` and reports it,
    /// once.
    func add(note: String, for index: Int) {
        if record(note, in: \.notes, for: index) { diagnostics(.note(source: images[index].path, message: note)) }
    }

    /// Records that tile `index` could not be decoded, for `reason`, and is drawn as a
    /// placeholder; reports it once however many variants draw it, keeping the first reason.
    func addPlaceholder(_ reason: String, for index: Int) {
        let first = store.withLock { store in
            guard store[index]?.placeholder == nil else { return false }
            store[index, default: Messages()].placeholder = reason
            return true
        }
        if first { add("not decoded, drawn as a placeholder: \(reason)", for: index) }
    }

    /// Appends `text` to tile `index`'s list at `list` unless it is there; whether it was new.
    private func record(_ text: String, in list: WritableKeyPath<Messages, [String]>, for index: Int) -> Bool {
        store.withLock { store in
            guard !(store[index]?[keyPath: list].contains(text) ?? false) else { return false }
            store[index, default: Messages()][keyPath: list].append(text)
            return true
        }
    }

    /// Records `crop`, chosen by `measure` from tile `index`'s pixels for its tile of `size`.
    func setCrop(_ crop: Region, by measure: String, for index: Int, drawnAt size: Size) {
        store.withLock { store in
            store[index, default: Messages()].crops[size] = crop
            store[index, default: Messages()].cropBy = measure
        }
    }

    /// Records that tile `index` is drawn from a damaged file.
    func addDamage(for index: Int) {
        store.withLock { $0[index, default: Messages()].damaged = true }
    }

    /// Whether tile `index` is drawn from a damaged file.
    func isDamaged(_ index: Int) -> Bool {
        store.withLock { $0[index]?.damaged ?? false }
    }

    /// Why tile `index` is drawn as a placeholder, when it is.
    func placeholder(for index: Int) -> String? {
        store.withLock { $0[index]?.placeholder }
    }

    /// What has been recorded so far, read without a lock: what a manifest is made from once
    /// every tile is drawn (a million tiles' lookups, on every thread that writes them).
    var recorded: Recorded { Recorded(store.withLock { $0 }) }

    /// What the decodes of every tile said, as recorded when it was taken.
    struct Recorded: Sendable {
        private let tiles: [Int: Messages]

        fileprivate init(_ tiles: [Int: Messages]) { self.tiles = tiles }

        /// What tile `index`'s decodes said: its crop chosen for `size` and by what, why it is a
        /// placeholder, whether it is damaged, its warnings and notes.
        func tile(_ index: Int, drawnAt size: Size) -> TileSaid {
            guard let messages = tiles[index] else { return TileSaid() }
            let crop = messages.crops[size].flatMap { crop in messages.cropBy.map { (crop, $0) } }
            return TileSaid(
                crop: crop, placeholder: messages.placeholder, damaged: messages.damaged,
                warnings: messages.warnings, notes: messages.notes)
        }
    }

    /// What one tile's decodes said (see ``Recorded/tile(_:drawnAt:)``).
    struct TileSaid {
        var crop: (Region, String)?
        var placeholder: String?
        var damaged = false
        var warnings: [String] = []
        var notes: [String] = []
    }
}
