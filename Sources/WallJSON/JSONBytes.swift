/// JSON text being built as UTF-8 bytes: what a manifest's million tiles are written into,
/// without a `String` for each.
package struct JSONBytes {
    /// The text so far.
    package var bytes: [UInt8] = []

    /// No text yet.
    package init() {}

    /// Appends text known at compile time.
    package mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` as it is.
    package mutating func append(text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `value` in decimal.
    package mutating func append(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: digits[start...])
        }
    }

    /// Appends `text` quoted and escaped (see ``JSONString/append(_:to:)``).
    package mutating func append(quoted text: String) {
        if JSONString.needsEscaping(text) {
            append(text: JSONString.quoted(text))
        } else {
            bytes.append(UInt8(ascii: "\""))
            append(text: text)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Appends the indent of `level` containers.
    package mutating func indent(_ level: Int) {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }
}
