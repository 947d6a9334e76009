/// The paper a PDF sheet is printed on: its size and margins in millimetres and the resolution
/// its pictures are made for. It decides the sheet's width and page height in pixels (see
/// ``sheetWidth`` and ``pageHeight``); each PDF page holds one page of the sheet, a header
/// line (the title) above it and a footer line ("page 3 of 12") below it.
public struct Paper: Sendable, Hashable, Codable, LosslessStringConvertible {
    /// The paper's size, in millimetres (portrait: width ≤ height, unless given otherwise).
    public var width: Double, height: Double
    /// Pixels per inch of the pictures.
    public var dpi: Int
    /// The blank border on every side, in millimetres.
    public var margin: Double

    /// The height of the header's and of the footer's band, in millimetres.
    public static let bandHeight = 7.0
    /// The size of their text, in points.
    public static let fontSize = 9.0

    /// A paper of `width` × `height` mm at `dpi`, with `margin` mm around.
    public init(width: Double, height: Double, dpi: Int = 300, margin: Double = 10) {
        (self.width, self.height, self.dpi, self.margin) = (width, height, dpi, margin)
    }

    /// ISO A4 at 300 dpi, 10 mm margins.
    public static let a4 = Paper(width: 210, height: 297)

    /// Parses `a4`, `a3`, `a5`, `letter`, `legal` or `WxHmm` (`210x297mm`); the size only
    /// (300 dpi, 10 mm margins).
    public init?(_ description: String) {
        let named: [String: (Double, Double)] = [
            "a3": (297, 420), "a4": (210, 297), "a5": (148, 210), "letter": (215.9, 279.4), "legal": (215.9, 355.6),
        ]
        let text = description.lowercased()
        if let size = named[text] {
            self.init(width: size.0, height: size.1)
            return
        }
        guard text.hasSuffix("mm") else { return nil }
        let parts = text.dropLast(2).split(separator: "x").compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 >= 50 && $0 <= 5000 }) else { return nil }
        self.init(width: parts[0], height: parts[1])
    }

    /// `WxHmm`.
    public var description: String {
        func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
        return "\(number(width))x\(number(height))mm"
    }

    /// Millimetres as pixels at the paper's resolution.
    public func pixels(_ millimetres: Double) -> Int { Int((millimetres * Double(dpi) / 25.4).rounded(.down)) }

    /// The sheet's width: the paper's between its margins.
    public var sheetWidth: Int { pixels(width - 2 * margin) }

    /// The tallest page of the sheet: the paper's height between its margins, less the header
    /// and footer bands.
    public var pageHeight: Int { pixels(height - 2 * margin - 2 * Self.bandHeight) }

    /// Whether the margins leave room for a picture.
    public var isUsable: Bool { sheetWidth >= 16 && pageHeight >= 16 && dpi >= 18 && dpi <= 2400 && margin >= 0 }
}
