/// A whole-pixel position; y grows downwards.
public struct Point: Hashable, Sendable, Codable {
    /// Horizontal position in pixels.
    public var x: Int
    /// Vertical position in pixels, from the top.
    public var y: Int

    /// Creates a point.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}
