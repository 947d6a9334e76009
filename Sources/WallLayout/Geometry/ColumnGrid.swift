import WallCore

/// The horizontal split of a canvas into columns: whole-pixel edges whose widths differ by at
/// most one pixel, so that padding + columns + gaps add up to the width exactly.
public struct ColumnGrid: Sendable {
    /// The left edge and width of each column.
    public let spans: [(x: Int, width: Int)]

    /// Splits `width` minus the side insets and `columns - 1` gaps of `gap` pixels.
    ///
    /// Each edge is rounded on its own and widths are taken as differences, so no rounding
    /// error accumulates across the row.
    public init(width: Int, columns: Int, gap: Int, left: Int, right: Int) throws(LayoutError) {
        guard columns >= 1 else { throw .option("columns", reason: "columns must be at least 1 (got \(columns))") }
        let available = width - left - right - (columns - 1) * gap
        guard available >= columns else {
            throw .option(
                "columns",
                reason: "\(columns) columns with \(gap) px gaps and \(left)+\(right) px padding "
                    + "do not fit in \(width) px: each column would be under 1 px")
        }
        spans = (0..<columns).map { c in
            let start = c * available / columns
            let end = (c + 1) * available / columns
            return (left + c * gap + start, end - start)
        }
    }
}
