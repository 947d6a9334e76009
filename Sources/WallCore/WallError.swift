/// An error the user can act on: one line naming what failed and why.
public protocol WallError: Error, CustomStringConvertible, Sendable {
    /// The whole line shown to the user.
    var message: String { get }
}

extension WallError {
    /// The message.
    public var description: String { message }
}
