import WallCore

/// A part file that cannot be used, and why.
public struct PartError: WallError, Equatable {
    /// The part file.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    init(_ path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `PATH: REASON`, as the command prints it.
    public var message: String { "\(path): \(reason)" }
}
