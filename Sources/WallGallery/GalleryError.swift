import WallCore

/// A gallery that cannot be built as asked: the reason, naming the folder or file.
public struct GalleryError: WallError {
    /// What went wrong, in words.
    public var message: String

    init(_ message: String) {
        self.message = message
    }
}
