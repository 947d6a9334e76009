/// An 8-bit straight-alpha colour.
public struct RGBAColor: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Red.
    public var red: UInt8
    /// Green.
    public var green: UInt8
    /// Blue.
    public var blue: UInt8
    /// Opacity, 255 = opaque.
    public var alpha: UInt8

    /// Creates a colour.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `true` when alpha is 255.
    public var isOpaque: Bool { alpha == 255 }

    /// Opaque white.
    public static let white = RGBAColor(red: 255, green: 255, blue: 255)
    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Fully transparent black.
    public static let transparent = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// Names accepted by ``init(parsing:)`` besides hex notation.
    public static let named: [String: RGBAColor] = [
        "white": .white, "black": .black, "transparent": .transparent,
        "gray": RGBAColor(red: 128, green: 128, blue: 128),
        "grey": RGBAColor(red: 128, green: 128, blue: 128),
        "silver": RGBAColor(red: 192, green: 192, blue: 192),
        "charcoal": RGBAColor(red: 32, green: 32, blue: 32),
        "red": RGBAColor(red: 255, green: 0, blue: 0),
        "green": RGBAColor(red: 0, green: 128, blue: 0),
        "blue": RGBAColor(red: 0, green: 0, blue: 255),
        "yellow": RGBAColor(red: 255, green: 255, blue: 0),
        "navy": RGBAColor(red: 0, green: 0, blue: 128),
    ]

    /// Parses `#rgb`, `#rrggbb`, `#rrggbbaa` or a name from ``named`` (case-insensitive).
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        if let color = RGBAColor.named[lowered] {
            self = color
            return
        }
        guard lowered.hasPrefix("#") else { return nil }
        let hex = Array(lowered.dropFirst())
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        func byte(_ digits: [Character]) -> UInt8 { UInt8(String(digits), radix: 16) ?? 0 }
        switch hex.count {
        case 3:
            let v = hex.map { byte([$0, $0]) }
            self.init(red: v[0], green: v[1], blue: v[2])
        case 6, 8:
            let v = stride(from: 0, to: hex.count, by: 2).map { byte([hex[$0], hex[$0 + 1]]) }
            self.init(red: v[0], green: v[1], blue: v[2], alpha: v.count == 4 ? v[3] : 255)
        default:
            return nil
        }
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var description: String {
        func hex(_ v: UInt8) -> String {
            let digits = String(v, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + hex(red) + hex(green) + hex(blue) + (isOpaque ? "" : hex(alpha))
    }
}

extension RGBAColor {
    /// Reads the colour as text, as ``init(parsing:)`` accepts it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let color = RGBAColor(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a colour: \(text)")
        }
        self = color
    }

    /// Writes the colour as its ``description``: `#rrggbb` or `#rrggbbaa`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
