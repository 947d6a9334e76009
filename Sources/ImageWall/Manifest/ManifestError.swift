import Foundation
import WallCache
import WallCore
import WallJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A manifest that cannot be read, and why.
public struct ManifestError: WallError, Equatable {
    /// The manifest file.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    init(_ path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var message: String { "\(path): \(reason)" }
}
