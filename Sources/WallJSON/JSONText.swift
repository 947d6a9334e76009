/// Encodable values as the exact text of Foundation's `JSONEncoder` with `.prettyPrinted`,
/// `.sortedKeys` and `.withoutEscapingSlashes` (two-space indents, `"key" : value`, keys in
/// byte order, empty containers as `[`, a blank line, `]`), made without Foundation's whole
/// tree of the document, so a manifest of a million tiles can be written one tile at a time.
/// `compact` gives the text without `.prettyPrinted` (no spaces or line breaks): a tile's line.
package enum JSONText {
    /// The text of `value`, as it appears nested `level` containers deep, or on one line.
    package static func text(of value: some Encodable, level: Int = 0, compact: Bool = false) throws -> String {
        let encoder = NodeEncoder()
        try value.encode(to: encoder)
        var out = ""
        if compact {
            encoder.root.node.writeCompact(to: &out)
        } else {
            encoder.root.node.write(to: &out, level: level)
        }
        return out
    }

    /// A finite number's text (an `EncodingError` for infinities and NaN), as Foundation writes it.
    package static func number(_ value: Double) throws -> String { try Leaf.number(value) }
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

extension NodeBox.Node {
    func writeCompact(to out: inout String) {
        switch self {
        case .empty: out += "{}"
        case .leaf(let text): out += text
        case .array(let items):
            out += "["
            for (n, item) in items.enumerated() {
                if n > 0 { out += "," }
                item.node.writeCompact(to: &out)
            }
            out += "]"
        case .object(let entries):
            out += "{"
            let sorted = entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (n, entry) in sorted.enumerated() {
                if n > 0 { out += "," }
                JSONString.append(entry.key, to: &out)
                out += ":"
                entry.value.node.writeCompact(to: &out)
            }
            out += "}"
        }
    }
}

enum Indent {
    static let levels = (0..<16).map { String(repeating: "  ", count: $0) }
    static func of(_ level: Int) -> String {
        level < levels.count ? levels[level] : String(repeating: "  ", count: level)
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
