import WallCore

/// How an image fills a cell whose shape differs from its own.
public enum Fit: String, Sendable, Codable, CaseIterable {
    /// Fill the cell and crop what sticks out.
    case cover
    /// Show the whole image inside the cell, the rest left as background.
    case contain
}

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

/// Reading direction of the wall.
public enum Direction: String, Sendable, Codable, CaseIterable {
    /// Left to right.
    case ltr
    /// Right to left: the wall is mirrored, images are not.
    case rtl
}

/// How a justified wall's last row is set when it is not full.
public enum LastRow: String, Sendable, Codable, CaseIterable {
    /// At the target height, flush left.
    case left
    /// Stretched to the full width like the other rows.
    case justify
    /// At the target height, centred.
    case center
}

/// A cell shape, width:height.
public struct AspectRatio: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The width part.
    public var width: Int
    /// The height part.
    public var height: Int

    /// The shape `width`:`height`.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses "W:H" with positive whole numbers.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }

    /// `W:H`, as the option and the manifest write it.
    public var description: String { "\(width):\(height)" }

    /// Reads `"W:H"`.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = AspectRatio(parsing: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not W:H: \(text)"))
        }
        self = value
    }

    /// Writes `"W:H"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
