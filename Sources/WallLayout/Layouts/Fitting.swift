import WallCore

/// Fitting a source of one shape into a cell of another.
public enum Fitting {
    /// The part of `source` that fills `cell` exactly, kept where `gravity` says, or `nil` when
    /// the shapes already match to within a source pixel (the whole image is shown).
    public static func cover(_ source: Size, in cell: Size, gravity: Gravity) -> Region? {
        let sw = Double(source.width), sh = Double(source.height)
        let scale = max(Double(cell.width) / sw, Double(cell.height) / sh)
        let width = min(sw, Double(cell.width) / scale)
        let height = min(sh, Double(cell.height) / scale)
        if sw - width < 1 && sh - height < 1 { return nil }
        let anchor = gravity.anchor
        return Region(x: (sw - width) * anchor.x, y: (sh - height) * anchor.y, width: width, height: height)
    }

    /// The largest rectangle of `source`'s shape inside `cell`, centred, at least 1×1.
    static func contain(_ source: Size, in cell: Rect) -> Rect {
        let scale = min(Double(cell.width) / Double(source.width), Double(cell.height) / Double(source.height))
        let width = min(cell.width, max(1, Int((Double(source.width) * scale).rounded())))
        let height = min(cell.height, max(1, Int((Double(source.height) * scale).rounded())))
        return Rect(
            x: cell.x + (cell.width - width) / 2, y: cell.y + (cell.height - height) / 2, width: width, height: height)
    }

    /// `height` scaled by `width / source.width`, rounded half up, at least 1.
    static func scaledHeight(of source: Size, toWidth width: Int) -> Int {
        // Header sizes fit 31 bits and widths are capped at a million: no overflow.
        max(1, (width * source.height * 2 + source.width) / (2 * source.width))
    }
}
