/// Which part of an image a cover crop keeps: a fixed side, or (`attention`, `entropy`, `faces`)
/// the part its pixels show to be the most interesting, chosen when the image is drawn; the
/// layout places such a crop in the middle, and drawing moves it.
public enum Gravity: String, Sendable, Codable, CaseIterable {
    case center, north, south, east, west, northeast, northwest, southeast, southwest
    /// Where a viewer's eye goes: edges, skin tones, saturated colour (libvips' attention).
    case attention
    /// The part with the most variety of tones.
    case entropy
    /// The faces in it, found by a face detector (OpenCV), else as ``attention``.
    case faces

    /// Whether the crop is chosen from the pixels when the image is drawn.
    public var followsContent: Bool { self == .attention || self == .entropy || self == .faces }

    /// The horizontal and vertical position of the kept part, 0 = start, 0.5 = middle, 1 = end.
    var anchor: (x: Double, y: Double) {
        switch self {
        case .center, .attention, .entropy, .faces: return (0.5, 0.5)
        case .north: return (0.5, 0)
        case .south: return (0.5, 1)
        case .east: return (1, 0.5)
        case .west: return (0, 0.5)
        case .northeast: return (1, 0)
        case .northwest: return (0, 0)
        case .southeast: return (1, 1)
        case .southwest: return (0, 1)
        }
    }
}
