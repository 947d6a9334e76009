/// A folder among the inputs whose images were not taken, and why: never left out in silence.
public struct FolderNotRead: Codable, Sendable, Equatable {
    /// Why a folder was not read.
    public enum Reason: String, Codable, Sendable {
        /// A sub-folder of a folder given without `-r`.
        case notRecursive = "sub-folder, not read without -r"
        /// A folder already read through another path (a link back to a parent, or to a
        /// folder read before): read once.
        case alreadyRead = "already read through another path (a link), not read again"
    }

    /// The folder, as reached from the input given.
    public var path: String
    /// Why it was not read.
    public var reason: Reason

    /// The note for `path`.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }
}

extension Array where Element == FolderNotRead {
    /// The sub-folders left out because `-r` was not given.
    public var notRecursive: [FolderNotRead] { filter { $0.reason == .notRecursive } }
}
