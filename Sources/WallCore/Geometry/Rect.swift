/// A whole-pixel rectangle: `x..<x+width` by `y..<y+height`.
public struct Rect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a rectangle from its top-left corner and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The right edge, exclusive.
    public var maxX: Int { x + width }
    /// The bottom edge, exclusive.
    public var maxY: Int { y + height }
    /// The size of the rectangle.
    public var size: Size { Size(width: width, height: height) }

    /// `true` when the two rectangles share at least one pixel.
    public func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// `true` when `other` lies wholly inside this rectangle.
    public func contains(_ other: Rect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// `WIDTHxHEIGHT+X+Y`, as ImageMagick writes a geometry.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
