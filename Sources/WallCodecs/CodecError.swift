import WallCore
import WallFiles

/// The stage of the pipeline a file failed in.
public enum CodecStage: String, Sendable, Codable {
    /// Reading the header: format, size, orientation.
    case probe
    /// Decoding the pixels.
    case decode
    /// Writing an output file.
    case write
}

/// A file that could not be read or written: which file, at which stage, and why.
public struct CodecError: WallError, Equatable {
    /// The stage that failed.
    public var stage: CodecStage
    /// The path as the user gave it (the destination, for an output).
    public var path: String
    /// What went wrong, in plain words: the library's or the system's own message where it has one.
    public var reason: String

    /// Creates an error for `path` at `stage`.
    public init(_ stage: CodecStage, path: String, reason: String) {
        self.stage = stage
        self.path = path
        self.reason = reason
    }

    /// `PATH: STAGE: REASON`, as the command prints it.
    public var message: String { "\(path): \(stage.rawValue): \(reason)" }
}

extension CodecError {
    /// `error`, an output that could not be written (or a file read), as the codec writing it
    /// reports it: the same path and reason.
    public init(_ error: FileError) {
        self.init(error.operation == .read ? .probe : .write, path: error.path, reason: error.reason)
    }
}

extension CodecError {
    /// The value of `body`, a file operation, its failure reported as a codec's.
    static func reporting<T>(_ body: () throws(FileError) -> T) throws(CodecError) -> T {
        do {
            return try body()
        } catch {
            throw CodecError(error)
        }
    }
}
