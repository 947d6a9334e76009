extension UnsafeRawBufferPointer {
    /// Whether the bytes are those of `text` (a key, say). Inlined where it is called and byte by
    /// byte, so that a literal's length and bytes are constants there: the texts are a few bytes
    /// long, and most differ in the first.
    @inlinable @inline(__always)
    package func holds(_ text: StaticString) -> Bool {
        guard count == text.utf8CodeUnitCount else { return false }
        let expected = text.utf8Start
        for index in 0..<count where self[index] != expected[index] { return false }
        return true
    }
}

/// A value of JSON text that a type can be read from member by member, without a `Decoder`,
/// from either reader: a ``JSONValueView`` of simdjson's parse, or a ``JSONScannedValue``.
/// Each reading gives `nil` when the value is not of that kind exactly (a number with a
/// fraction is no integer here), and its reader then falls back on the `Decoder`.
package protocol JSONMemberValue {
    /// The value as an integer, when it is written as one that fits an `Int`.
    var integer: Int? { get }
    /// The value as a `Double`, when it is a number: the `Double` a `Decoder` reads from it.
    var number: Double? { get }
    /// The value as text, when it is a string.
    var string: String? { get }
    /// The value as texts, when it is an array of strings only.
    var strings: [String]? { get }
    /// Whether the value is `null`.
    var isNull: Bool { get }
    /// Calls `body` with each member's key (its UTF-8 bytes) and value, in the order written
    /// (a key given twice, twice), while it returns `true`; `false` when the value is no object
    /// or `body` stopped.
    func members(_ body: (UnsafeRawBufferPointer, Self) -> Bool) -> Bool
}

/// A value as ``JSONScanner`` gives it: its kind and its text, valid while the call that gave
/// it runs; the text was checked, and is read only when asked.
package struct JSONScannedValue: JSONMemberValue {
    fileprivate enum Kind { case integer, fraction, string, escapedString, object, array, null, boolean }

    fileprivate let kind: Kind
    /// The value's text; a string's without its quotes.
    fileprivate let text: UnsafeRawBufferPointer
    /// A whole number's value.
    fileprivate var whole = 0

    package var integer: Int? { kind == .integer ? whole : nil }

    package var number: Double? {
        switch kind {
        case .integer: return Double(whole)
        case .fraction: return Double(String(decoding: text, as: UTF8.self))
        default: return nil
        }
    }

    package var string: String? {
        switch kind {
        case .string: return String(decoding: text, as: UTF8.self)
        case .escapedString: return String(decoding: JSONScanner.unescaped(text), as: UTF8.self)
        default: return nil
        }
    }

    package var strings: [String]? {
        guard kind == .array else { return nil }
        var texts: [String] = []
        let read = JSONScanner.elements(ofArray: text) { element in
            guard let text = element.string else { return false }
            texts.append(text)
            return true
        }
        return read ? texts : nil
    }

    package var isNull: Bool { kind == .null }

    package func members(_ body: (UnsafeRawBufferPointer, JSONScannedValue) -> Bool) -> Bool {
        kind == .object && JSONScanner.members(ofObject: text, body)
    }
}

/// A checking pass over JSON text in the narrow form a render writes, that hands over the
/// members of objects as it reads them, without a parser's tree: the bulk of a million-tile
/// manifest is read this way. It accepts only text that every parser reads alike and that
/// simdjson accepts: strings of valid UTF-8 without `\u` escapes or control
/// characters, numbers without exponents, keys without escapes, values nested at most 32 deep.
/// Anything else makes it stop and say so, and the caller parses the text the full way, which
/// reads it or says what is wrong with it.
package struct JSONScanner {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var at = 0

    private init(_ text: UnsafeRawBufferPointer) {
        base = text.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 1)!
        end = text.count
    }

    /// Calls `member` with each member (key bytes, value) of each object of the JSON array
    /// `text`, in order, and `objectEnd` after each object's last; `false` when the text is no
    /// array of objects in the narrow form, or a call returned `false`.
    package static func objects(
        inArray text: UnsafeRawBufferPointer, member: (UnsafeRawBufferPointer, JSONScannedValue) -> Bool,
        objectEnd: () -> Bool
    ) -> Bool {
        var scanner = JSONScanner(text)
        return scanner.array { $0.object(depth: 1, member) && objectEnd() } && scanner.atEnd
    }

    /// Calls `member` with each member (key bytes, value) of the JSON object `text`, in order;
    /// `false` when the text is no object in the narrow form, or a call returned `false`.
    package static func members(
        ofObject text: UnsafeRawBufferPointer, _ member: (UnsafeRawBufferPointer, JSONScannedValue) -> Bool
    ) -> Bool {
        var scanner = JSONScanner(text)
        return scanner.object(depth: 1, member) && scanner.atEnd
    }

    /// Calls `element` with each element of the JSON array `text`, in order; `false` when the
    /// text is no array in the narrow form, or a call returned `false`.
    package static func elements(ofArray text: UnsafeRawBufferPointer, _ element: (JSONScannedValue) -> Bool)
        -> Bool
    {
        var scanner = JSONScanner(text)
        return scanner.array { $0.value(depth: 1).map(element) ?? false } && scanner.atEnd
    }

    /// The bytes of the checked string text `text` with its escapes (none of them `\u`) undone.
    fileprivate static func unescaped(_ text: UnsafeRawBufferPointer) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            var byte = text[index]
            if byte == UInt8(ascii: "\\") {
                index += 1
                switch text[index] {
                case UInt8(ascii: "b"): byte = 0x08
                case UInt8(ascii: "f"): byte = 0x0C
                case UInt8(ascii: "n"): byte = 0x0A
                case UInt8(ascii: "r"): byte = 0x0D
                case UInt8(ascii: "t"): byte = 0x09
                default: byte = text[index]  // a quote, a backslash or a slash
                }
            }
            bytes.append(byte)
            index += 1
        }
        return bytes
    }

    /// Whether only whitespace is left.
    private var atEnd: Bool {
        mutating get {
            skipSpace()
            return at == end
        }
    }

    private mutating func skipSpace() {
        while at < end {
            switch base[at] {
            case 0x20, 0x09, 0x0A, 0x0D: at += 1
            default: return
            }
        }
    }

    /// Takes `byte`, after any whitespace, when it comes next.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < end, base[at] == byte else { return false }
        at += 1
        return true
    }

    /// Reads an object whose members are at `depth`, handing them to `member`.
    private mutating func object(depth: Int, _ member: (UnsafeRawBufferPointer, JSONScannedValue) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            skipSpace()
            guard let (key, _) = string(asKey: true), take(UInt8(ascii: ":")) else { return false }
            skipSpace()
            guard let value = value(depth: depth), member(key, value) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// Reads an array, each element (after any whitespace) by `element`.
    private mutating func array(_ element: (inout JSONScanner) -> Bool) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        if take(UInt8(ascii: "]")) { return true }
        repeat {
            skipSpace()
            guard element(&self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]"))
    }

    /// Reads the value that begins here (at `depth` within the object being read).
    private mutating func value(depth: Int) -> JSONScannedValue? {
        guard at < end, depth <= 32 else { return nil }
        switch base[at] {
        case UInt8(ascii: "\""):
            guard let (text, escaped) = string(asKey: false) else { return nil }
            return JSONScannedValue(kind: escaped ? .escapedString : .string, text: text)
        case UInt8(ascii: "{"):
            let start = at
            guard object(depth: depth + 1, { _, _ in true }) else { return nil }
            return JSONScannedValue(kind: .object, text: UnsafeRawBufferPointer(start: base + start, count: at - start))
        case UInt8(ascii: "["):
            let start = at
            guard array({ $0.value(depth: depth + 1) != nil }) else { return nil }
            return JSONScannedValue(kind: .array, text: UnsafeRawBufferPointer(start: base + start, count: at - start))
        case UInt8(ascii: "t"): return literal("true", .boolean)
        case UInt8(ascii: "f"): return literal("false", .boolean)
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func literal(_ word: StaticString, _ kind: JSONScannedValue.Kind) -> JSONScannedValue? {
        let count = word.utf8CodeUnitCount
        guard end - at >= count else { return nil }
        let text = UnsafeRawBufferPointer(start: base + at, count: count)
        guard text.holds(word) else { return nil }
        at += count
        return JSONScannedValue(kind: kind, text: text)
    }

    /// A number: a whole one of up to 18 digits is read, one with a fraction is checked; one
    /// with an exponent, more digits or `-0` strays (parsers read those differently).
    private mutating func number() -> JSONScannedValue? {
        let start = at
        let negative = base[at] == UInt8(ascii: "-")
        if negative { at += 1 }
        let digitsStart = at
        var magnitude = 0
        while at < end, base[at] &- UInt8(ascii: "0") < 10 {
            magnitude = magnitude &* 10 &+ Int(base[at] &- UInt8(ascii: "0"))
            at += 1
        }
        let digits = at - digitsStart
        guard digits > 0, digits <= 18, digits == 1 || base[digitsStart] != UInt8(ascii: "0") else { return nil }
        if at < end, base[at] == UInt8(ascii: ".") {
            at += 1
            let fractionStart = at
            while at < end, base[at] &- UInt8(ascii: "0") < 10 { at += 1 }
            guard at > fractionStart else { return nil }
            guard at == end || base[at] | 0x20 != UInt8(ascii: "e") else { return nil }
            return JSONScannedValue(
                kind: .fraction, text: UnsafeRawBufferPointer(start: base + start, count: at - start))
        }
        guard at == end || base[at] | 0x20 != UInt8(ascii: "e") else { return nil }
        guard !(negative && magnitude == 0) else { return nil }
        let text = UnsafeRawBufferPointer(start: base + start, count: at - start)
        return JSONScannedValue(kind: .integer, text: text, whole: negative ? -magnitude : magnitude)
    }

    /// A string that begins here: its bytes between the quotes, and whether it has escapes, when
    /// it is valid UTF-8 without control characters or `\u` escapes (and, for a key, without any
    /// escape).
    private mutating func string(asKey: Bool) -> (text: UnsafeRawBufferPointer, escaped: Bool)? {
        guard at < end, base[at] == UInt8(ascii: "\"") else { return nil }
        at += 1
        let start = at
        var escaped = false
        while true {
            // Printable ASCII but the quote and the backslash, sixteen bytes at a time: a byte
            // with none of its top three bits set is a control character, one with the top bit
            // set is no ASCII.
            while end - at >= 16 {
                let v = UnsafeRawPointer(base + at).loadUnaligned(as: SIMD16<UInt8>.self)
                let control: SIMDMask<SIMD16<Int8>> = v & SIMD16(repeating: 0xE0) .== SIMD16(repeating: 0)
                let high: SIMDMask<SIMD16<Int8>> = v & SIMD16(repeating: 0x80) .== SIMD16(repeating: 0x80)
                let quote: SIMDMask<SIMD16<Int8>> = v .== SIMD16(repeating: 0x22)
                let backslash: SIMDMask<SIMD16<Int8>> = v .== SIMD16(repeating: 0x5C)
                let stops = control .| high .| quote .| backslash
                let lanes = unsafeBitCast(
                    SIMD16<UInt8>(repeating: 0).replacing(with: 0xFF, where: stops), to: SIMD2<UInt64>.self)
                if lanes[0] | lanes[1] != 0 {
                    // To the first of them: its lane's bits are all ones, the others' zeros.
                    at += (lanes[0] != 0 ? lanes[0].trailingZeroBitCount : 64 + lanes[1].trailingZeroBitCount) / 8
                    break
                }
                at += 16
            }
            guard at < end else { return nil }
            let byte = base[at]
            switch byte {
            case UInt8(ascii: "\""):
                at += 1
                return (UnsafeRawBufferPointer(start: base + start, count: at - 1 - start), escaped)
            case UInt8(ascii: "\\"):
                guard !asKey, end - at >= 2 else { return nil }
                switch base[at + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    at += 2
                    escaped = true
                default: return nil
                }
            case 0..<0x20: return nil
            case 0x20..<0x80: at += 1
            default:
                guard let length = utf8Sequence() else { return nil }
                at += length
            }
        }
    }

    /// The length of the UTF-8 sequence of more than one byte that begins here, when it is a
    /// valid one (no overlong form, no surrogate, nothing past U+10FFFF).
    private func utf8Sequence() -> Int? {
        let lead = base[at]
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            at + offset < end && range.contains(base[at + offset])
        }
        switch lead {
        case 0xC2...0xDF: return continuation(1) ? 2 : nil
        case 0xE0: return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF: return continuation(1) && continuation(2) ? 3 : nil
        case 0xED: return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : nil
        case 0xF0: return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF4: return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : nil
        default: return nil
        }
    }
}
