import WallCodecs
import WallCore

/// A caption pattern such as `"{name} ({width}x{height})"`, checked when made; coded as the
/// pattern's text.
public struct CaptionTemplate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The fields a template may use.
    public static let fields = ["name", "stem", "path", "index", "width", "height", "format", "date", "duration"]

    enum Part: Hashable, Sendable {
        case text(String)
        case field(String)
    }

    let parts: [Part]
    /// The pattern as given.
    public let description: String

    /// A reason the pattern was refused.
    public struct Invalid: WallError {
        /// What is wrong with the template, naming the placeholder.
        public var message: String
    }

    /// Parses `pattern`; braces must enclose one of ``fields``. `{{` and `}}` stand for braces.
    public init(_ pattern: String) throws(Invalid) {
        description = pattern
        var parts: [Part] = []
        var text = ""
        var field: String?
        var characters = pattern.makeIterator()
        var pending: Character?
        while let c = pending ?? characters.next() {
            pending = nil
            if var name = field {
                if c == "}" {
                    guard CaptionTemplate.fields.contains(name) else {
                        throw Invalid(
                            message: "unknown caption field {\(name)}; fields are "
                                + CaptionTemplate.fields.map { "{\($0)}" }.joined(separator: ", "))
                    }
                    parts.append(.field(name))
                    field = nil
                } else {
                    name.append(c)
                    field = name
                }
            } else if c == "{" {
                let next = characters.next()
                if next == "{" { text.append("{"); continue }
                if !text.isEmpty { parts.append(.text(text)); text = "" }
                field = ""
                pending = next
            } else if c == "}" {
                let next = characters.next()
                guard next == "}" else {
                    throw Invalid(message: "unmatched } in caption \"\(pattern)\" (write }} for a brace)")
                }
                text.append("}")
            } else {
                text.append(c)
            }
        }
        if field != nil { throw Invalid(message: "unclosed { in caption \"\(pattern)\"") }
        if !text.isEmpty { parts.append(.text(text)) }
        self.parts = parts
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
    func expand(path: String, index: Int, info: ImageInfo?, displayed: Size) -> String {
        parts.map { part in
            switch part {
            case .text(let text): return text
            case .field(let name):
                let fileName = path.split(separator: "/").last.map(String.init) ?? path
                switch name {
                case "name": return fileName
                case "stem": return fileName.lastIndex(of: ".").map { String(fileName[..<$0]) } ?? fileName
                case "path": return path
                case "index": return String(index + 1)
                case "width": return String(displayed.width)
                case "height": return String(displayed.height)
                case "format": return info?.format.rawValue.uppercased() ?? ""
                case "date": return info?.dateTaken.map(CaptionTemplate.readableDate) ?? ""
                case "duration": return info?.duration.map(CaptionTemplate.readableDuration) ?? ""
                default: return ""
                }
            }
        }.joined()
    }

    /// A video's length as players show it: "0:07", "12:34", "1:02:03" (whole seconds, rounded).
    static func readableDuration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let hours = total / 3600, minutes = total / 60 % 60, rest = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }

    /// "2024:05:01 14:03:22" → "2024-05-01 14:03".
    static func readableDate(_ exif: String) -> String {
        let parts = exif.split(separator: " ")
        guard parts.count == 2 else { return exif }
        let date = parts[0].replacingColons(with: "-")
        return date + " " + parts[1].prefix(5)
    }
}

extension Substring {
    fileprivate func replacingColons(with separator: Character) -> String {
        String(map { $0 == ":" ? separator : $0 })
    }
}
