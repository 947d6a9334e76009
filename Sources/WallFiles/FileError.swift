import WallCore

/// A file or folder that could not be read or written, and why: the error of everything that
/// handles files rather than images (outputs put in place, folders made, records and pages).
public struct FileError: WallError, Equatable {
    /// What was being done.
    public enum Operation: String, Sendable {
        /// Reading a file or listing a folder.
        case read
        /// Writing, renaming or removing.
        case write
    }

    /// What was being done.
    public var operation: Operation
    /// The path as the user gave it (the destination, for an output).
    public var path: String
    /// What went wrong, in plain words: the system's own message where it has one.
    public var reason: String

    /// The error for `path`, while doing `operation`, for `reason`.
    public init(_ operation: Operation, path: String, reason: String) {
        (self.operation, self.path, self.reason) = (operation, path, reason)
    }

    /// `PATH: OPERATION: REASON`, as the command prints it.
    public var message: String { "\(path): \(operation.rawValue): \(reason)" }
}
