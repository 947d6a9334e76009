/// Which part of an image a cover crop keeps.
public enum Gravity: String, Sendable, Codable, CaseIterable {
    case center, north, south, east, west, northeast, northwest, southeast, southwest

    /// The horizontal and vertical position of the kept part, 0 = start, 0.5 = middle, 1 = end.
    var anchor: (x: Double, y: Double) {
        switch self {
        case .center: return (0.5, 0.5)
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
