/// A whole-pixel width and height.
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The same size with width and height exchanged.
    public var transposed: Size { Size(width: height, height: width) }

    /// Width × height, or `nil` when the product overflows `Int`.
    public var area: Int? {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? nil : product
    }

    /// This size scaled so that its long side is `longSide` when it is longer (never enlarged),
    /// each side rounded to the nearest whole pixel and at least 1: integer arithmetic only.
    public func fitted(withinLongSide longSide: Int) -> Size {
        let long = max(1, width, height)
        let side = min(long, longSide)
        return Size(width: max(1, (width * side + long / 2) / long), height: max(1, (height * side + long / 2) / long))
    }

    /// `true` when a side is zero or negative: no pixel at all.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// `WIDTHxHEIGHT`, e.g. `1200x800`.
    public var description: String { "\(width)x\(height)" }
}
