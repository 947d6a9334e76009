/// What ImageWall makes of a file from its signature: an image one of its codecs reads, or
/// why it is not read.
public enum FileClaim: Sendable, Equatable {
    /// A codec reads it, as this format.
    case image(ImageFormat)
    /// No codec reads it, for this reason.
    case unread(UnreadReason)
}

/// Why a file is not read, told apart so that callers decide by kind, never by a message's text.
public enum UnreadReason: Sendable, Equatable, CustomStringConvertible {
    /// An image of another format ("BMP", "JPEG XL").
    case unsupported(format: String)
    /// One of our formats whose very start is damaged ("PNG", "damaged signature").
    case damaged(format: String, what: String)
    /// Not an image at all, as far as its start and name tell.
    case notAnImage

    /// Whether the file is an image (of a format not read, or damaged), so that leaving it out
    /// must be reported; a file that is not an image is only counted.
    public var isImage: Bool { self != .notAnImage }

    /// The reason as the probe reports it: "BMP is not a supported format".
    public var description: String {
        switch self {
        case .unsupported(let format): return "\(format) is not a supported format"
        case .damaged(let format, let what): return "corrupt \(format): \(what)"
        case .notAnImage: return "not an image ImageWall reads (\(ImageFormat.names))"
        }
    }
}
