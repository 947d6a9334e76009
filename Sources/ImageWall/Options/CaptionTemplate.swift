import WallCodecs
import WallCore
import WallFiles

/// A caption pattern such as `"{name} ({width}x{height})"`, checked when made; coded as the
/// pattern's text.
///
/// - `{field}` is replaced by the field's value (see ``CaptionField``); `{field|text}` by `text`
///   when the field has no value; `{date:%d %B %Y}` formats the date with `strftime`
///   conversions.
/// - `[ … ]` is an optional part: it is left out, brackets and all, when a field in it has no
///   value, so `{camera}[ · {exposure}][ · {aperture}]` leaves no dangling separator.
///   Optional parts may nest.
/// - `{{`, `}}`, `[[` and `]]` stand for the characters themselves.
public struct CaptionTemplate: Sendable, Hashable, Codable, CustomStringConvertible {
    indirect enum Part: Hashable, Sendable {
        case text(String)
        /// A field, what stands in for it when it has no value, and its format (`date` only).
        case field(CaptionField, fallback: String?, format: String?)
        case optional([Part])
    }

    let parts: [Part]
    /// The pattern as given.
    public let description: String

    /// A reason the pattern was refused.
    public struct Invalid: WallError {
        /// What is wrong with the template, naming the placeholder.
        public var message: String
    }

    /// Parses `pattern`; braces must enclose a ``CaptionField``, brackets must pair.
    public init(_ pattern: String) throws(Invalid) {
        description = pattern
        var characters = Array(pattern)[...]
        var groups: [[Part]] = [[]]
        var text = ""
        func flush() {
            if !text.isEmpty { groups[groups.count - 1].append(.text(text)) }
            text = ""
        }
        while let c = characters.popFirst() {
            switch c {
            case "{" where characters.first == "{", "}" where characters.first == "}",
                "[" where characters.first == "[", "]" where characters.first == "]":
                characters.removeFirst()
                text.append(c)
            case "{":
                guard let close = characters.firstIndex(of: "}") else {
                    throw Invalid(message: "unclosed { in caption \"\(pattern)\"")
                }
                let inside = String(characters[..<close])
                characters = characters[(close + 1)...]
                flush()
                groups[groups.count - 1].append(try CaptionTemplate.field(inside))
            case "}": throw Invalid(message: "unmatched } in caption \"\(pattern)\" (write }} for a brace)")
            case "[":
                flush()
                groups.append([])
            case "]":
                guard groups.count > 1 else {
                    throw Invalid(message: "unmatched ] in caption \"\(pattern)\" (write ]] for a bracket)")
                }
                flush()
                let group = groups.removeLast()
                groups[groups.count - 1].append(.optional(group))
            default: text.append(c)
            }
        }
        guard groups.count == 1 else { throw Invalid(message: "unclosed [ in caption \"\(pattern)\"") }
        flush()
        parts = groups[0]
    }

    /// Whether the template shows `field` anywhere (inside optional parts too).
    public func uses(_ field: CaptionField) -> Bool {
        func search(_ parts: [Part]) -> Bool {
            parts.contains { part in
                switch part {
                case .text: return false
                case .field(let name, _, _): return name == field
                case .optional(let inner): return search(inner)
                }
            }
        }
        return search(parts)
    }

    /// A field from the text between braces: `name`, `name|fallback` or `date:format`.
    private static func field(_ inside: String) throws(Invalid) -> Part {
        var name = inside
        var fallback: String?
        var format: String?
        if let bar = name.firstIndex(of: "|") {
            fallback = String(name[name.index(after: bar)...])
            name = String(name[..<bar])
        }
        if let colon = name.firstIndex(of: ":") {
            format = String(name[name.index(after: colon)...])
            name = String(name[..<colon])
        }
        guard let field = CaptionField(rawValue: name) else {
            throw Invalid(
                message: "unknown caption field {\(name)}; fields are "
                    + CaptionField.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", "))
        }
        if format != nil && !field.takesFormat {
            throw Invalid(message: "only {date:…} and {mtime:…} take a format (got {\(inside)})")
        }
        return .field(field, fallback: fallback, format: format)
    }

    /// Reads a pattern, refusing it as ``init(_:)`` does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            self = try CaptionTemplate(try container.decode(String.self))
        } catch let error as Invalid {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Writes the pattern as given.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// The caption of `image`, the `index`-th (0-based) tile of the sheet.
    func expand(_ image: ProbedImage, index: Int) -> String {
        CaptionTemplate.expand(parts, image, index: index, optional: false) ?? ""
    }

    /// The text of `parts`; in an `optional` part, `nil` when a field among them (outside
    /// nested optional parts) has no value and no fallback.
    private static func expand(_ parts: [Part], _ image: ProbedImage, index: Int, optional: Bool) -> String? {
        var out = ""
        for part in parts {
            switch part {
            case .text(let text): out += text
            case .optional(let inner): out += expand(inner, image, index: index, optional: true) ?? ""
            case .field(let field, let fallback, let format):
                let value = field.value(of: image, index: index, format: format)
                guard let shown = value.isEmpty ? fallback : value else {
                    if optional { return nil }
                    continue
                }
                out += shown
            }
        }
        return out
    }

    /// "1/250 s", "1/4 s", "0.3 s", "2 s", "1.5 s": a fraction up to 1/4 s, as ExifTool writes them.
    package static func readableExposure(_ time: CameraInfo.Fraction) -> String {
        let seconds = time.value
        if seconds <= 0.25 && seconds > 0 { return "1/\(Int((1 / seconds).rounded())) s" }
        return decimal(seconds) + " s"
    }

    /// A number with at most one decimal, none when whole: 2.8, 35, 0.3.
    package static func decimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
    }

    /// A file size as people read it: "812 B", "4.2 kB", "3.1 MB", "1.2 GB" (powers of 1000).
    package static func readableBytes(_ bytes: Int) -> String {
        guard bytes >= 1000 else { return "\(bytes) B" }
        var value = Double(bytes) / 1000
        for unit in ["kB", "MB", "GB"] {
            if value < 999.95 || unit == "GB" { return decimal(value) + " " + unit }
            value /= 1000
        }
        return decimal(value) + " TB"
    }

    /// A video's length as players show it: "0:07", "12:34", "1:02:03" (whole seconds, rounded).
    package static func readableDuration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let hours = total / 3600, minutes = total / 60 % 60, rest = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }
}
