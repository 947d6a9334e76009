/// One byte of coverage a pixel (255 = fully covered): rasterised text or shapes to be
/// blended in a colour; and where the text holds glyphs in colour of their own (colour
/// emoji), their pixels, drawn as they are.
public struct CoverageMask: Sendable, Equatable {
    /// Size of the mask.
    public var size: Size
    /// Coverage, row after row.
    public var coverage: [UInt8]
    /// The pixels of colour glyphs, premultiplied RGBA (4 bytes a pixel, row after row):
    /// where their alpha is above 0 they are drawn as they are, elsewhere the coverage in the
    /// text's colour; `nil` when the mask has none.
    public var paint: [UInt8]?

    /// A mask of `size`, empty or from `coverage`.
    public init(size: Size, coverage: [UInt8]? = nil) {
        self.size = size
        self.coverage = coverage ?? [UInt8](repeating: 0, count: size.width * size.height)
        precondition(self.coverage.count == size.width * size.height)
    }

    /// Coverage at (`x`, `y`), 0 outside the mask.
    public func coverage(x: Int, y: Int) -> UInt8 {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return 0 }
        return coverage[y * size.width + x]
    }
}
