/// A file given more than once — named twice, named and found in a folder given, or reached
/// through another link or hard link (the same device and inode) — drawn once, where it first
/// came; the repeats are named, never dropped in silence.
public struct RepeatedInput: Codable, Sendable, Equatable {
    /// The path of the repeat, as given or found.
    public var path: String
    /// The path the file is drawn under: its first.
    public var sameAs: String

    /// The repeat `path` of `sameAs`.
    public init(path: String, sameAs: String) {
        self.path = path
        self.sameAs = sameAs
    }
}
