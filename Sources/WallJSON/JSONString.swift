/// JSON strings and numbers written as Foundation writes them.
package enum JSONString {
    /// `text` quoted and escaped as Foundation does: `"`, `\`, the short escapes, other
    /// control characters as `\u00XX`; slashes and everything else as they are.
    package static func append(_ text: String, to out: inout String) {
        out += "\""
        if !needsEscaping(text) {
            out += text
            out += "\""
            return
        }
        var plain = text.unicodeScalars.startIndex
        let scalars = text.unicodeScalars
        var index = plain
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let escape: String?
            switch scalar {
            case "\"": escape = "\\\""
            case "\\": escape = "\\\\"
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            case "\u{8}": escape = "\\b"
            case "\u{C}": escape = "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    escape = nil
                }
            }
            if let escape {
                out.unicodeScalars += scalars[plain..<index]
                out += escape
                plain = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        out.unicodeScalars += scalars[plain..<scalars.endIndex]
        out += "\""
    }

    /// Whether `text` holds a character JSON escapes: `"`, `\` or a control character.
    package static func needsEscaping(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }

    /// `text` quoted and escaped.
    package static func quoted(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
    }

    /// A floating-point number as Foundation writes it: its shortest text, without `.0`.
    package static func number(_ value: Double) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
