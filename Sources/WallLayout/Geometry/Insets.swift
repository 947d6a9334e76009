import WallCore

/// Space kept clear inside the canvas edges.
public struct Insets: Hashable, Sendable, Codable {
    /// Space above the first row.
    public var top: Int
    /// Space right of the last column.
    public var right: Int
    /// Space below the last row.
    public var bottom: Int
    /// Space left of the first column.
    public var left: Int

    /// Creates insets from each side.
    public init(top: Int, right: Int, bottom: Int, left: Int) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }

    /// The same inset on every side.
    public init(all: Int) {
        self.init(top: all, right: all, bottom: all, left: all)
    }
}
