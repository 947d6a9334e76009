/// The EXIF orientation of a stored image: how its stored rows and columns map onto the
/// picture as it should be displayed (TIFF tag 0x0112, values 1–8).
public enum Orientation: Int, Sendable, Codable, CaseIterable {
    /// Stored as displayed.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Rotated 180°.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the main diagonal (rows become columns).
    case leftMirrored = 5
    /// Displayed by turning the stored image 90° clockwise.
    case right = 6
    /// Mirrored along the anti-diagonal.
    case rightMirrored = 7
    /// Displayed by turning the stored image 90° counter-clockwise.
    case left = 8

    /// `true` for orientations 5–8, whose displayed width is the stored height.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The displayed size of an image stored at `stored` size.
    public func displayedSize(ofStored stored: Size) -> Size {
        swapsAxes ? stored.transposed : stored
    }

    /// The stored pixel shown at displayed position (`x`, `y`) of an image whose displayed
    /// size is `displayed`.
    @inlinable
    public func storedPosition(ofDisplayedX x: Int, y: Int, displayed: Size) -> (x: Int, y: Int) {
        let lastX = displayed.width - 1
        let lastY = displayed.height - 1
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (lastX - x, y)
        case .down: return (lastX - x, lastY - y)
        case .downMirrored: return (x, lastY - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, lastX - x)
        case .rightMirrored: return (lastY - y, lastX - x)
        case .left: return (lastY - y, x)
        }
    }
}
