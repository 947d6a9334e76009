extension Array where Element == CChar {
    /// The NUL-terminated text a C function wrote into this buffer.
    var text: String { String(decoding: prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
}
