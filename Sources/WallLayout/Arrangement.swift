import WallCore

/// The result of a layout: the canvas and one frame per input, in input order.
public struct Arrangement: Hashable, Sendable {
    /// The whole sheet.
    public var canvas: Size
    /// Where each image is drawn, indexed like the input sizes.
    public var frames: [Rect]

    /// Creates an arrangement.
    public init(canvas: Size, frames: [Rect]) {
        self.canvas = canvas
        self.frames = frames
    }
}
