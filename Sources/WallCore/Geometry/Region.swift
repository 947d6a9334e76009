/// A rectangle in fractional pixels: the part of a source image a tile shows (a crop), in the
/// coordinates of whatever image it refers to.
public struct Region: Hashable, Sendable, Codable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// Creates a region.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The same region in an image scaled by `sx` across and `sy` down.
    public func scaled(x sx: Double, y sy: Double) -> Region {
        Region(x: x * sx, y: y * sy, width: width * sx, height: height * sy)
    }
}
