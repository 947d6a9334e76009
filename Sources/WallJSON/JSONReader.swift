import CJSONShim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Decodes `Decodable` values from JSON text parsed by simdjson: the text becomes a flat list
/// of nodes in document order, which a `Decoder` walks without building a tree of its own.
/// Errors are `DecodingError`s with the coding path, as Foundation's `JSONDecoder` throws them.
/// A reader is used by one thread at a time; its parser's buffers are reused from text to text.
package final class JSONReader {
    private let reader: OpaquePointer

    /// A reader; only running out of memory keeps one from being made.
    package init() {
        guard let reader = iw_json_reader_new() else { fatalError("out of memory for a JSON parser") }
        self.reader = reader
    }

    deinit { iw_json_reader_free(reader) }

    /// The value of type `T` that the JSON text `bytes` holds.
    package func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        try T(from: NodeDecoder(document: JSONNodes(nodes: try parse(bytes)), at: 0, codingPath: []))
    }

    /// The nodes of the JSON text `bytes`, valid until the next text is parsed; a
    /// `DecodingError` saying why when it is not JSON.
    private func parse(_ bytes: UnsafeRawBufferPointer) throws(DecodingError) -> UnsafePointer<iw_json_node> {
        var nodes: UnsafePointer<iw_json_node>?
        var count = 0
        var message = [CChar](repeating: 0, count: 160)
        let status = iw_json_parse(
            reader, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, &nodes, &count, &message,
            message.count)
        guard status == 0, let nodes else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not JSON: " + reason))
        }
        return nodes
    }

    /// The value of type `T` that the JSON text `bytes` holds.
    package func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { try decode(type, from: $0) }
    }

    /// The elements of the JSON array `bytes` as `T`s, each read by `quickly` from a view of it
    /// when it can (a few common shapes of a type read without a `Decoder`), else by `T`'s
    /// `init(from:)`: the same values, and the same errors, as ``decode(_:from:)`` of `[T]`.
    package func decodeElements<T: Decodable>(
        _ type: T.Type, from bytes: [UInt8], quickly: (JSONValueView) -> T?
    ) throws -> [T] {
        try bytes.withUnsafeBytes { text -> [T] in
            let found = try parse(text)
            let document = JSONNodes(nodes: found)
            guard found[0].kind == IW_JSON_ARRAY else {
                return try [T](from: NodeDecoder(document: document, at: 0, codingPath: []))
            }
            var elements: [T] = []
            elements.reserveCapacity(found[0].length)
            var element = 1
            for n in 0..<found[0].length {
                if let quick = quickly(JSONValueView(nodes: found, at: element)) {
                    elements.append(quick)
                } else {
                    let decoder = NodeDecoder(document: document, at: element, codingPath: [IndexKey(intValue: n)])
                    elements.append(try T(from: decoder))
                }
                element = Int(found[element].end)
            }
            return elements
        }
    }
}

/// A value of a parsed text, read without a `Decoder` (see
/// ``JSONReader/decodeElements(_:from:quickly:)``); valid while the call that gave it runs.
/// Each reading gives `nil` when the value is not of that kind exactly (a number with a
/// fraction is no integer here), so a reader falls back on the `Decoder` and its errors.
package struct JSONValueView: JSONMemberValue {
    fileprivate let nodes: UnsafePointer<iw_json_node>
    fileprivate let at: Int

    /// The value as an integer, when it is written as one that fits an `Int`.
    package var integer: Int? { nodes[at].kind == IW_JSON_INTEGER ? Int(nodes[at].integer) : nil }

    /// The value as a `Double`, when it is a number: the `Double` a `Decoder` reads from it.
    package var number: Double? {
        switch nodes[at].kind {
        case IW_JSON_INTEGER: return Double(nodes[at].integer)
        case IW_JSON_UNSIGNED: return Double(nodes[at].unsigned_integer)
        case IW_JSON_NUMBER: return nodes[at].number
        default: return nil
        }
    }

    /// The value as text, when it is a string.
    package var string: String? {
        guard nodes[at].kind == IW_JSON_STRING else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: nodes[at].text, count: nodes[at].length), as: UTF8.self)
    }

    /// Whether the value is `null`.
    package var isNull: Bool { nodes[at].kind == IW_JSON_NULL }

    /// The value as texts, when it is an array of strings only.
    package var strings: [String]? {
        guard nodes[at].kind == IW_JSON_ARRAY else { return nil }
        var texts: [String] = []
        texts.reserveCapacity(nodes[at].length)
        for index in (at + 1)..<Int(nodes[at].end) {
            guard let text = JSONValueView(nodes: nodes, at: index).string else { return nil }
            texts.append(text)
        }
        return texts
    }

    /// Calls `body` with each member's key (its UTF-8 bytes) and value, in the order written,
    /// while it returns `true`; `false` when the value is no object or `body` stopped.
    package func members(_ body: (UnsafeRawBufferPointer, JSONValueView) -> Bool) -> Bool {
        guard nodes[at].kind == IW_JSON_OBJECT else { return false }
        var index = at + 1
        while index < Int(nodes[at].end) {
            let key = UnsafeRawBufferPointer(start: nodes[index].text, count: nodes[index].length)
            guard body(key, JSONValueView(nodes: nodes, at: index + 1)) else { return false }
            index = Int(nodes[index + 1].end)
        }
        return true
    }
}
