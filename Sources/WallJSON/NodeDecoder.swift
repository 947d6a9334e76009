import CJSONShim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The nodes of one parsed text, valid while its reader has parsed nothing else: a pointer,
/// so that decoders and containers hold three words and no reference to count.
struct JSONNodes {
    let nodes: UnsafePointer<iw_json_node>

    subscript(_ index: Int) -> iw_json_node { nodes[index] }

    /// The bytes of string node `index`.
    func text(_ index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: nodes[index].text, count: nodes[index].length)
    }

    /// The value of member `key` of object node `object`, the first when it is given twice:
    /// keys are told apart by their fingerprints, and their bytes compared only when those match.
    func member(_ key: String, of object: Int) -> Int? {
        var key = key
        return key.withUTF8 { wanted in
            var print = UInt64(min(wanted.count, 255))
            for i in 0..<min(wanted.count, 7) { print |= UInt64(wanted[i]) << (8 * (i + 1)) }
            var index = object + 1
            let end = Int(nodes[object].end)
            while index < end {
                let name = nodes[index]
                if name.unsigned_integer == print, name.length == wanted.count,
                    wanted.count <= 7 || memcmp(name.text, wanted.baseAddress!, wanted.count) == 0
                {
                    return index + 1
                }
                index = Int(nodes[index + 1].end)
            }
            return nil
        }
    }

    /// What node `index` is, in the words of a decoding error ("a string").
    func describe(_ index: Int) -> String {
        switch nodes[index].kind {
        case IW_JSON_NULL: return "null"
        case IW_JSON_TRUE, IW_JSON_FALSE: return "a boolean"
        case IW_JSON_INTEGER, IW_JSON_UNSIGNED, IW_JSON_NUMBER: return "a number"
        case IW_JSON_STRING: return "a string"
        case IW_JSON_ARRAY: return "an array"
        default: return "an object"
        }
    }
}

/// A coding key for array positions and for `super`.
struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
    init(intValue: Int) { (stringValue, self.intValue) = ("Index \(intValue)", intValue) }
}

struct NodeDecoder: Decoder {
    let document: JSONNodes
    let at: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard document[at].kind == IW_JSON_OBJECT else {
            throw mismatch([String: Any].self, at: at, document) { codingPath }
        }
        let index = document[at].length > MemberIndex.smallest ? MemberIndex(document, object: at) : nil
        return KeyedDecodingContainer(
            KeyedNodes<Key>(document: document, at: at, codingPath: codingPath, index: index))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard document[at].kind == IW_JSON_ARRAY else { throw mismatch([Any].self, at: at, document) { codingPath } }
        return UnkeyedNodes(document: document, array: at, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleNode(document: document, at: at, codingPath: codingPath)
    }
}

private func mismatch(_ type: Any.Type, at index: Int, _ document: JSONNodes, path: () -> [any CodingKey])
    -> DecodingError
{
    DecodingError.typeMismatch(
        type,
        .init(
            codingPath: path(),
            debugDescription: "Expected to decode \(type) but found \(document.describe(index)) instead."))
}

/// Decodes node `index` as `T`: the standard library's scalars read directly, anything else
/// through its `init(from:)`. `path` gives the coding path, made only for an error or a
/// nested value.
private func value<T: Decodable>(
    _ type: T.Type, at index: Int, _ document: JSONNodes, path: () -> [any CodingKey]
) throws -> T {
    let node = document[index]
    func fail() -> DecodingError { mismatch(type, at: index, document, path: path) }
    if T.self == Int.self { return try whole(Int.self, node, fail) as! T }
    if T.self == String.self {
        guard node.kind == IW_JSON_STRING else { throw fail() }
        return String(decoding: document.text(index), as: UTF8.self) as! T
    }
    if T.self == Bool.self {
        guard node.kind == IW_JSON_TRUE || node.kind == IW_JSON_FALSE else { throw fail() }
        return (node.kind == IW_JSON_TRUE) as! T
    }
    if T.self == Double.self || T.self == Float.self {
        let number: Double
        switch node.kind {
        case IW_JSON_INTEGER: number = Double(node.integer)
        case IW_JSON_UNSIGNED: number = Double(node.unsigned_integer)
        case IW_JSON_NUMBER: number = node.number
        default: throw fail()
        }
        return (T.self == Float.self ? Float(number) as! T : number as! T)
    }
    if let integer = integerTypes.first(where: { $0 == T.self }) { return try whole(integer, node, fail) as! T }
    return try T(from: NodeDecoder(document: document, at: index, codingPath: path()))
}

/// The integer types, compared by identity: asking whether a type is some FixedWidthInteger
/// costs a conformance lookup on every value.
/// (Never mutated: metatypes of a non-Sendable protocol are not Sendable themselves.)
nonisolated(unsafe) private let integerTypes: [any FixedWidthInteger.Type] = [
    Int64.self, Int32.self, Int16.self, Int8.self, UInt.self, UInt64.self, UInt32.self, UInt16.self, UInt8.self,
]

/// A whole number of type `type` from `node`, when it holds one that fits.
private func whole<I: FixedWidthInteger>(_ type: I.Type, _ node: iw_json_node, _ fail: () -> DecodingError) throws
    -> I
{
    let fitted: I?
    switch node.kind {
    case IW_JSON_INTEGER: fitted = I(exactly: node.integer)
    case IW_JSON_UNSIGNED: fitted = I(exactly: node.unsigned_integer)
    case IW_JSON_NUMBER: fitted = I(exactly: node.number)
    default: throw fail()
    }
    guard let fitted else { throw fail() }
    return fitted
}

/// The members of a large object by their keys' bytes, the first of a key given twice. A
/// `Dictionary` decoded from an object looks up each of its keys, and a search along the members
/// for each made the record of a 10,000-picture gallery quadratic to read.
private final class MemberIndex {
    /// Objects of up to this many members are searched: most are a few members long.
    static let smallest = 32

    private let values: [[UInt8]: Int]

    init(_ document: JSONNodes, object: Int) {
        var values: [[UInt8]: Int] = [:]
        values.reserveCapacity(document[object].length)
        var index = object + 1
        while index < Int(document[object].end) {
            let key = Array(document.text(index))
            if values[key] == nil { values[key] = index + 1 }
            index = Int(document[index + 1].end)
        }
        self.values = values
    }

    /// The value node of member `key`.
    func member(_ key: String) -> Int? { values[Array(key.utf8)] }
}

private struct KeyedNodes<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let document: JSONNodes
    let at: Int
    let codingPath: [any CodingKey]
    /// The members by key, for an object of many.
    let index: MemberIndex?

    /// The value node of member `key`, the first when it is given twice.
    private func lookUp(_ key: any CodingKey) -> Int? {
        if let index { return index.member(key.stringValue) }
        return document.member(key.stringValue, of: at)
    }

    var allKeys: [Key] {
        var keys: [Key] = []
        var index = at + 1
        while index < Int(document[at].end) {
            if let key = Key(stringValue: String(decoding: document.text(index), as: UTF8.self)) { keys.append(key) }
            index = Int(document[index + 1].end)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { lookUp(key) != nil }

    private func member(_ key: any CodingKey) throws -> Int {
        guard let index = lookUp(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue).")
            )
        }
        return index
    }

    func decodeNil(forKey key: Key) throws -> Bool { document[try member(key)].kind == IW_JSON_NULL }

    // Int and String, the bulk of a manifest, get witnesses of their own (specialised); each
    // kind of call has one body.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try required(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try required(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try present(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(type, key) }

    private func required<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try value(type, at: try member(key), document) { codingPath + [key] }
    }

    /// The value of `key`, or nil when it is missing or null, with one lookup.
    private func present<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let index = lookUp(key), document[index].kind != IW_JSON_NULL else {
            return nil
        }
        return try value(type, at: index, document) { codingPath + [key] }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try NodeDecoder(document: document, at: try member(key), codingPath: codingPath + [key]).container(
            keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try NodeDecoder(document: document, at: try member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { try superDecoder(IndexKey(stringValue: "super")) }

    func superDecoder(forKey key: Key) throws -> any Decoder { try superDecoder(key as any CodingKey) }

    private func superDecoder(_ key: any CodingKey) throws -> any Decoder {
        NodeDecoder(document: document, at: try member(key), codingPath: codingPath + [key])
    }
}

private struct UnkeyedNodes: UnkeyedDecodingContainer {
    let document: JSONNodes
    let array: Int
    let codingPath: [any CodingKey]
    /// The node of the next value.
    var next: Int
    var currentIndex = 0

    init(document: JSONNodes, array: Int, codingPath: [any CodingKey]) {
        (self.document, self.array, self.codingPath, next) = (document, array, codingPath, array + 1)
    }

    var count: Int? { document[array].length }
    var isAtEnd: Bool { currentIndex >= document[array].length }

    private var here: [any CodingKey] { codingPath + [IndexKey(intValue: currentIndex)] }

    private func nextValue<T>(_ type: T.Type) throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: here, debugDescription: "Unkeyed container is at end."))
        }
        return next
    }

    private mutating func advance() {
        next = Int(document[next].end)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        guard document[try nextValue(Any?.self)].kind == IW_JSON_NULL else { return false }
        advance()
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoded = try value(type, at: try nextValue(type), document) { here }
        advance()
        return decoded
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let container = try NodeDecoder(document: document, at: try nextValue([String: Any].self), codingPath: here)
            .container(keyedBy: type)
        advance()
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try NodeDecoder(document: document, at: try nextValue([Any].self), codingPath: here)
            .unkeyedContainer()
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = NodeDecoder(document: document, at: try nextValue(Any.self), codingPath: here)
        advance()
        return decoder
    }
}

private struct SingleNode: SingleValueDecodingContainer {
    let document: JSONNodes
    let at: Int
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { document[at].kind == IW_JSON_NULL }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type, at: at, document) { codingPath } }
    func decode(_ type: String.Type) throws -> String { try value(type, at: at, document) { codingPath } }
    func decode(_ type: Int.Type) throws -> Int { try value(type, at: at, document) { codingPath } }
}
