/// Encodable values as the exact text of Foundation's `JSONEncoder` with `.prettyPrinted`,
/// `.sortedKeys` and `.withoutEscapingSlashes` (two-space indents, `"key" : value`, keys in
/// byte order, empty containers as `[`, a blank line, `]`), made without Foundation's whole
/// tree of the document, so a manifest of a million tiles can be written one tile at a time.
enum JSONText {
    /// The text of `value`, as it appears nested `level` containers deep.
    static func text(of value: some Encodable, level: Int = 0) throws -> String {
        let encoder = NodeEncoder()
        try value.encode(to: encoder)
        var out = ""
        encoder.root.node.write(to: &out, level: level)
        return out
    }
}

/// A value being built: a leaf's text, or an array or object of further values.
private final class NodeBox {
    enum Node {
        case empty
        case leaf(String)
        case array([NodeBox])
        case object([(key: String, value: NodeBox)])
    }

    var node: Node = .empty
}

extension NodeBox.Node {
    func write(to out: inout String, level: Int) {
        switch self {
        case .empty: Self.object([]).write(to: &out, level: level)  // an Encodable that wrote nothing
        case .leaf(let text): out += text
        case .array(let items):
            guard !items.isEmpty else {
                out += "[\n\n" + Indent.of(level) + "]"
                return
            }
            out += "[\n"
            let indent = Indent.of(level + 1)
            for (n, item) in items.enumerated() {
                out += indent
                item.node.write(to: &out, level: level + 1)
                out += n == items.count - 1 ? "\n" : ",\n"
            }
            out += Indent.of(level) + "]"
        case .object(let entries):
            guard !entries.isEmpty else {
                out += "{\n\n" + Indent.of(level) + "}"
                return
            }
            out += "{\n"
            let indent = Indent.of(level + 1)
            let sorted = entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (n, entry) in sorted.enumerated() {
                out += indent
                JSONString.append(entry.key, to: &out)
                out += " : "
                entry.value.node.write(to: &out, level: level + 1)
                out += n == sorted.count - 1 ? "\n" : ",\n"
            }
            out += Indent.of(level) + "}"
        }
    }
}

enum Indent {
    static let levels = (0..<16).map { String(repeating: "  ", count: $0) }
    static func of(_ level: Int) -> String {
        level < levels.count ? levels[level] : String(repeating: "  ", count: level)
    }
}

enum JSONString {
    /// `text` quoted and escaped as Foundation does: `"`, `\`, the short escapes, other
    /// control characters as `\u00XX`; slashes and everything else as they are.
    static func append(_ text: String, to out: inout String) {
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
    static func needsEscaping(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }

    /// `text` quoted and escaped.
    static func quoted(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
    }

    /// A floating-point number as Foundation writes it: its shortest text, without `.0`.
    static func number(_ value: Double) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

private struct NodeEncoder: Encoder {
    let root: NodeBox
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(root: NodeBox = NodeBox(), codingPath: [any CodingKey] = []) {
        self.root = root
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = root.node {} else { root.node = .object([]) }
        return KeyedEncodingContainer(KeyedNodes<Key>(box: root, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = root.node {} else { root.node = .array([]) }
        return UnkeyedNodes(box: root, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNode(box: root, codingPath: codingPath) }
}

/// Leaf texts of the standard types.
enum Leaf {
    static func text(_ value: some Encodable) throws -> String? {
        switch value {
        case let value as String: return JSONString.quoted(value)
        case let value as Bool: return value ? "true" : "false"
        case let value as Int: return String(value)
        case let value as Int8: return String(value)
        case let value as Int16: return String(value)
        case let value as Int32: return String(value)
        case let value as Int64: return String(value)
        case let value as UInt: return String(value)
        case let value as UInt8: return String(value)
        case let value as UInt16: return String(value)
        case let value as UInt32: return String(value)
        case let value as UInt64: return String(value)
        case let value as Double: return try number(value)
        case let value as Float: return try number(Double(value))
        default: return nil
        }
    }

    static func number(_ value: Double) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "not a finite number"))
        }
        return JSONString.number(value)
    }

    /// `value` encoded into `box`.
    fileprivate static func encode(_ value: some Encodable, into box: NodeBox, codingPath: [any CodingKey]) throws {
        if let text = try text(value) {
            box.node = .leaf(text)
        } else {
            try value.encode(to: NodeEncoder(root: box, codingPath: codingPath))
        }
    }
}

private struct KeyedNodes<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: NodeBox
    var codingPath: [any CodingKey]

    private func child(_ key: Key) -> NodeBox {
        guard case .object(var entries) = box.node else { preconditionFailure("not an object") }
        let name = key.stringValue
        if let existing = entries.first(where: { $0.key == name }) { return existing.value }
        let child = NodeBox()
        box.node = .empty  // release the entries before changing them, so they are not copied
        entries.append((name, child))
        box.node = .object(entries)
        return child
    }

    mutating func encodeNil(forKey key: Key) throws { child(key).node = .leaf("null") }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try Leaf.encode(value, into: child(key), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        NodeEncoder(root: child(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(root: child(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(root: NodeBox(), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { NodeEncoder(root: child(key), codingPath: codingPath) }
}

private struct UnkeyedNodes: UnkeyedEncodingContainer {
    let box: NodeBox
    var codingPath: [any CodingKey]
    var count: Int {
        guard case .array(let items) = box.node else { return 0 }
        return items.count
    }

    private func next() -> NodeBox {
        guard case .array(var items) = box.node else { preconditionFailure("not an array") }
        let child = NodeBox()
        box.node = .empty
        items.append(child)
        box.node = .array(items)
        return child
    }

    mutating func encodeNil() throws { next().node = .leaf("null") }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try Leaf.encode(value, into: next(), codingPath: codingPath)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        NodeEncoder(root: next(), codingPath: codingPath).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        NodeEncoder(root: next(), codingPath: codingPath).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { NodeEncoder(root: next(), codingPath: codingPath) }
}

private struct SingleNode: SingleValueEncodingContainer {
    let box: NodeBox
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws { box.node = .leaf("null") }
    mutating func encode<T: Encodable>(_ value: T) throws { try Leaf.encode(value, into: box, codingPath: codingPath) }
}

/// JSON text being built as UTF-8 bytes: what a manifest's million tiles are written into,
/// without a `String` for each.
struct JSONBytes {
    /// The text so far.
    var bytes: [UInt8] = []

    /// Appends text known at compile time.
    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` as it is.
    mutating func append(text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `value` in decimal.
    mutating func append(_ value: Int) {
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
    mutating func append(quoted text: String) {
        if JSONString.needsEscaping(text) {
            append(text: JSONString.quoted(text))
        } else {
            bytes.append(UInt8(ascii: "\""))
            append(text: text)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Appends the indent of `level` containers.
    mutating func indent(_ level: Int) {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }
}

extension Manifest.Tile {
    /// Appends the tile's JSON text nested `level` deep, written directly (the bulk of a big
    /// manifest): the same text as ``JSONText/text(of:level:)`` gives for it, keys in byte
    /// order. Rare fields (a sort key, a recipe, notes) go through the general encoder.
    func writeJSON(to out: inout JSONBytes, level: Int) throws {
        func key(_ name: StaticString) {
            out.indent(level + 1)
            out.append("\"")
            out.append(name)
            out.append("\" : ")
        }
        func field(_ name: StaticString, _ value: Int) {
            key(name)
            out.append(value)
            out.append(",\n")
        }
        func field(_ name: StaticString, quoted text: String) {
            key(name)
            out.append(quoted: text)
            out.append(",\n")
        }
        func encoded(_ name: StaticString, _ value: some Encodable) throws {
            key(name)
            out.append(text: try JSONText.text(of: value, level: level + 1))
            out.append(",\n")
        }
        /// A box's fields (height, width, x, y, as sorted), each written by `write`.
        func box<Value>(_ values: (Value, Value, Value, Value), _ write: (inout JSONBytes, Value) throws -> Void)
            throws
        {
            func member(_ name: StaticString, _ value: Value, last: Bool = false) throws {
                out.indent(level + 2)
                out.append("\"")
                out.append(name)
                out.append("\" : ")
                try write(&out, value)
                out.append(last ? "\n" : ",\n")
            }
            out.append("{\n")
            try member("height", values.0)
            try member("width", values.1)
            try member("x", values.2)
            try member("y", values.3, last: true)
            out.indent(level + 1)
            out.append("}")
        }
        func box(_ b: Manifest.Box) throws {
            try box((b.height, b.width, b.x, b.y)) { $0.append($1) }
        }
        out.append("{\n")
        if let caption {
            key("caption")
            try box(caption)
            out.append(",\n")
        }
        key("cell")
        try box(cell)
        out.append(",\n")
        key("crop")
        if let crop {
            try box((crop.height, crop.width, crop.x, crop.y)) { $0.append(text: try Leaf.number($1)) }
        } else {
            out.append("null")
        }
        out.append(",\n")
        if let decodedFor { try encoded("decodedFor", decodedFor) }
        if let format { field("format", quoted: format) }
        field("height", height)
        field("index", index)
        if let notes { try encoded("notes", notes) }
        field("orientation", orientation)
        field("page", page)
        if let path { field("path", quoted: path) }
        if let root { field("root", root) }
        field("section", section)
        if let sortKey { try encoded("sortKey", sortKey) }
        field("source", quoted: source)
        field("sourceHeight", sourceHeight)
        field("sourceWidth", sourceWidth)
        if let via { try encoded("via", via) }
        if warnings.isEmpty {
            key("warnings")
            out.append("[\n\n")
            out.indent(level + 1)
            out.append("],\n")
        } else {
            try encoded("warnings", warnings)
        }
        field("width", width)
        field("x", x)
        key("y")
        out.append(y)
        out.append("\n")
        out.indent(level)
        out.append("}")
    }
}
