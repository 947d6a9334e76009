import WallCore

/// Shortest-column masonry: columns of equal width; each image, in input order, goes to the
/// column whose bottom is highest up (the leftmost on ties) and keeps its aspect ratio.
public struct MasonryLayout: Hashable, Sendable, Codable {
    /// The canvas width, padding included.
    public var width: Int
    /// The number of columns.
    public var columns: Int
    /// Horizontal space between columns.
    public var columnGap: Int
    /// Vertical space between images in a column.
    public var rowGap: Int
    /// Space kept clear inside the canvas edges.
    public var padding: Insets

    /// Creates a masonry configuration.
    public init(width: Int, columns: Int, columnGap: Int, rowGap: Int, padding: Insets) {
        self.width = width
        self.columns = columns
        self.columnGap = columnGap
        self.rowGap = rowGap
        self.padding = padding
    }

    /// Checks every option on its own and the geometry they make together.
    public func validate() throws(LayoutError) {
        guard width >= 1 else { throw .invalid("width must be at least 1 px (got \(width))") }
        guard columnGap >= 0, rowGap >= 0 else { throw .invalid("gaps cannot be negative") }
        let sides = [padding.top, padding.right, padding.bottom, padding.left]
        guard sides.allSatisfy({ $0 >= 0 }) else { throw .invalid("padding cannot be negative") }
        _ = try ColumnGrid(
            width: width, columns: columns, gap: columnGap, left: padding.left,
            right: padding.right)
    }

    /// Places images of the given displayed sizes.
    ///
    /// Each image is scaled to its column's width; its height is rounded to the nearest
    /// whole pixel and is at least one pixel.
    public func arrange(_ sizes: [Size]) throws(LayoutError) -> Arrangement {
        try validate()
        let grid = try ColumnGrid(
            width: width, columns: columns, gap: columnGap, left: padding.left,
            right: padding.right)
        var bottoms = [Int](repeating: padding.top, count: columns)
        var used = [Bool](repeating: false, count: columns)
        var frames: [Rect] = []
        frames.reserveCapacity(sizes.count)
        for size in sizes {
            guard size.width > 0, size.height > 0 else {
                throw .invalid("image size \(size) has no area")
            }
            var column = 0
            for c in 1..<columns where bottoms[c] < bottoms[column] { column = c }
            let span = grid.spans[column]
            let height = MasonryLayout.scaledHeight(of: size, toWidth: span.width)
            frames.append(Rect(x: span.x, y: bottoms[column], width: span.width, height: height))
            bottoms[column] += height + rowGap
            used[column] = true
        }
        let contentBottom = (0..<columns).map { used[$0] ? bottoms[$0] - rowGap : padding.top }
            .max() ?? padding.top
        return Arrangement(
            canvas: Size(width: width, height: max(1, contentBottom + padding.bottom)),
            frames: frames)
    }

    /// `size.height` scaled by `width / size.width`, rounded half up, at least 1.
    static func scaledHeight(of size: Size, toWidth width: Int) -> Int {
        // Sizes come from 32-bit image headers and widths from the canvas, so the product
        // fits comfortably in 64 bits.
        let numerator = width * size.height * 2 + size.width
        return max(1, numerator / (2 * size.width))
    }
}
