/// Reading direction of the wall.
public enum Direction: String, Sendable, Codable, CaseIterable {
    /// Left to right.
    case ltr
    /// Right to left: the wall is mirrored, images are not.
    case rtl
}
