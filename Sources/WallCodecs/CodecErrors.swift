import WallCore

/// The stage of the pipeline an input failed in.
public enum CodecStage: String, Sendable, Codable {
    /// Reading the header: format, size, orientation.
    case probe
    /// Decoding the pixels.
    case decode
    /// Writing an output file.
    case encode
}

/// A file whose header could not be read or is not a supported image.
public struct ProbeError: WallError, Equatable {
    /// The path as the user gave it.
    public var path: String
    /// What went wrong, in plain words.
    public var reason: String

    /// Creates an error for `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var message: String { "\(path): probe: \(reason)" }
}

/// A file whose pixels could not be decoded.
public struct DecodeError: WallError, Equatable {
    /// The path as the user gave it.
    public var path: String
    /// What went wrong: libjpeg's or libpng's own message where it has one.
    public var reason: String

    /// Creates an error for `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var message: String { "\(path): decode: \(reason)" }
}

/// An output file that could not be written.
public struct EncodeError: WallError, Equatable {
    /// The output path.
    public var path: String
    /// What went wrong: libpng's or the system's message.
    public var reason: String

    /// Creates an error for `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var message: String { "\(path): write: \(reason)" }
}
