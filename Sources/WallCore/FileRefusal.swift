/// A file ImageWall refuses to use as what it was given for (a manifest, a part): which file,
/// the kind of problem (`Kind`, a case callers and tests branch on) and the reason in words.
public struct FileRefusal<Kind: Sendable & Hashable>: WallError, Hashable {
    /// The file refused.
    public var path: String
    /// What kind of problem it has.
    public var kind: Kind
    /// What is wrong with it, in words.
    public var reason: String

    /// `path` refused as `kind`, for `reason`.
    package init(_ path: String, _ kind: Kind, _ reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// `path: reason`, as the command prints it.
    public var message: String { "\(path): \(reason)" }
}
