/// The release this build of ImageWall is: what the command line prints, what the PNG's
/// Software text names, and part of every cache key, so a new release never reads an old
/// release's entries.
public enum ImageWallRelease {
    /// The version number, e.g. "0.2.0".
    public static let version = "0.2.0"
}
