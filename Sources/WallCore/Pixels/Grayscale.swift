/// An owned 8-bit one-channel image: a picture's brightness, what face detection looks at.
public struct Grayscale: Sendable, Equatable {
    /// Its size in pixels.
    public var size: Size
    /// The levels, row after row.
    public var levels: [UInt8]

    /// Wraps `levels`; `levels.count` must be the size's area.
    public init(size: Size, levels: [UInt8]) {
        precondition(levels.count == size.width * size.height)
        self.size = size
        self.levels = levels
    }
}
