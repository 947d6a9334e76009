/// The release this build of ImageWall is: what the command line prints, what the PNG's
/// Software text names, and part of every cache key, so a new release never reads an old
/// release's entries.
public enum ImageWallRelease {
    /// The version number, e.g. "0.2.0".
    public static let version = "0.2.0"
}

extension ImageWallRelease {
    /// The name of the software every sheet carries where its format holds one ("ImageWall
    /// 0.2.0"), by which a later render of the folder knows its own outputs.
    public static var software: String { "ImageWall \(version)" }

    /// Whether `text`, a file's software name, is ImageWall's.
    public static func isSoftware(_ text: String?) -> Bool { text?.hasPrefix("ImageWall ") == true }
}
