import WallCore

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
