import WallCore

/// What a format's library read of a file's structure when it was probed, kept for the file's
/// decode while ``ImageDecoder/keepingProbedFiles(_:)`` runs: libheif reads every item's data
/// to open a HEIF file (a phone photo's whole primary image, even for its 512 px thumbnail), so
/// a decode that follows the probe does not open it again. A kept reading holds no open file;
/// one whose file has another stamp at the decode is dropped, and all go when the last scope ends.
final class ProbedFiles: Sendable {
    /// The readings probes keep for decodes.
    static let shared = ProbedFiles()

    /// How many readings are kept at most: a phone photo's is about 15 KB and its EXIF.
    let capacity: Int

    private struct Kept {
        var stamp: FileStamp
        var reading: any AnyObject & Sendable
    }

    private struct State {
        var scopes = 0
        var kept: [String: Kept] = [:]
    }

    private let state = Locked(State())

    init(capacity: Int = 128) {
        self.capacity = capacity
    }

    /// Whether a reading of the file at `path` is kept.
    func holds(_ path: String) -> Bool { state.withLock { $0.kept[path] != nil } }

    /// How many readings are kept.
    var count: Int { state.withLock { $0.kept.count } }

    /// Keeps `reading` of the file at `path`, which has `stamp`, for its decode: inside a scope
    /// and while fewer than ``capacity`` are kept; otherwise it is dropped.
    func keep(_ reading: some AnyObject & Sendable, path: String, stamp: FileStamp) {
        let replaced: Kept? = state.withLock { state in
            guard state.scopes > 0, state.kept.count < capacity || state.kept[path] != nil else { return nil }
            return state.kept.updateValue(Kept(stamp: stamp, reading: reading), forKey: path)
        }
        _ = replaced  // released outside the lock
    }

    /// The reading kept of the file at `path`, taken out, when the file still has `stamp`.
    func take<Reading: AnyObject & Sendable>(_ type: Reading.Type, path: String, stamp: FileStamp) -> Reading? {
        let kept = state.withLock { $0.kept.removeValue(forKey: path) }
        guard let kept, kept.stamp == stamp else { return nil }
        return kept.reading as? Reading
    }

    /// Runs `body` with readings kept from probes for decodes; the last scope to end drops them.
    func scoped<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        state.withLock { $0.scopes += 1 }
        defer {
            let dropped: [String: Kept] = state.withLock { state in
                state.scopes -= 1
                guard state.scopes == 0 else { return [:] }
                defer { state.kept = [:] }
                return state.kept
            }
            _ = dropped  // released outside the lock
        }
        return try body()
    }
}
