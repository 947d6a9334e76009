import WallCore

/// A manifest that cannot be read or drawn, and why.
public typealias ManifestError = FileRefusal<ManifestProblem>

/// What kind of problem a manifest has (see ``ManifestError``).
public enum ManifestProblem: String, Sendable, Hashable, CaseIterable {
    /// The file cannot be read (it is missing, unreadable, or changed while read).
    case unreadable
    /// The file is not JSON, or not a manifest ImageWall writes (a member missing, of another
    /// kind, or given twice).
    case notAManifest
    /// A manifest, but with a value no render can draw (a version from the future, a tile
    /// outside its page, a crop outside its source).
    case notDrawable
}
