extension Array where Element == CChar {
    /// The NUL-terminated text a C function wrote into this buffer.
    public var text: String { String(decoding: prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
}

/// The NUL-terminated text in a fixed-size C character array (a tuple in Swift), such as a
/// `char name[32]` field of a C struct.
public func cText<T>(_ field: T) -> String {
    withUnsafeBytes(of: field) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
