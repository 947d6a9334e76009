import WallJSON

/// A value read from a JSON object member by member, without a `Decoder`, from either JSON
/// reader (see ``JSONMemberValue``): each member is handed to ``take(_:_:)``, and ``finish()``
/// gives the value when all it needs was there.
protocol MemberReading {
    associatedtype Value
    /// Nothing read yet.
    init()
    /// Takes member `key`; `false` when the value cannot be read this way (a member it does not
    /// know, of another kind, or given twice), and the `Decoder` is to read it.
    mutating func take<Member: JSONMemberValue>(_ key: UnsafeRawBufferPointer, _ value: Member) -> Bool
    /// The value read, when every member it needs was taken.
    func finish() -> Value?
}

/// Sets `field` to `value` when it is not set yet and `value` is one; else `false`.
func setOnce<Field>(_ field: inout Field?, _ value: Field?) -> Bool {
    guard field == nil, let value else { return false }
    field = value
    return true
}

extension JSONMemberValue {
    /// The value `Reading` reads from this object, when it reads it.
    func read<Reading: MemberReading>(_ reading: Reading.Type) -> Reading.Value? {
        var reader = Reading()
        guard members({ reader.take($0, $1) }) else { return nil }
        return reader.finish()
    }
}

extension JSONScanner {
    /// Reads each object of the JSON array `text` with a new `Reading`, its members handed to it
    /// as they are scanned; `nil` when the text is no array of objects in the scanner's narrow
    /// form, or a reading failed.
    static func read<Reading: MemberReading>(_ reading: Reading.Type, inArray text: UnsafeRawBufferPointer)
        -> [Reading.Value]?
    {
        var values: [Reading.Value] = []
        var reader = Reading()
        let read = objects(inArray: text) {
            reader.take($0, $1)
        } objectEnd: {
            guard let value = reader.finish() else { return false }
            values.append(value)
            reader = Reading()
            return true
        }
        return read ? values : nil
    }
}
