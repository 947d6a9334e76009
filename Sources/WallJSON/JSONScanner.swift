#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension UnsafeRawBufferPointer {
    /// Whether the bytes are those of `text` (a key, say).
    package func holds(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && (count == 0 || memcmp(baseAddress!, text.utf8Start, count) == 0)
    }
}

/// A member's value as ``JSONScanner`` gives it: a whole number it read, an object's text, or
/// something else (checked, not read).
package enum JSONScannedValue {
    /// A whole number of at most 18 digits, written without a fraction or an exponent.
    case integer(Int)
    /// An object, its text from `{` to `}`.
    case object(UnsafeRawBufferPointer)
    /// Any other value: a string, an array, a literal, another number.
    case other
}

/// A checking pass over JSON text in the narrow form a render writes, that reads the members of
/// objects without a parser's tree: the bulk of a million-tile manifest is read this way when
/// only a few of each tile's members are wanted. It accepts only text that every parser reads
/// alike and that simdjson accepts: strings of valid UTF-8 without `\u` escapes or control
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
        guard scanner.take(UInt8(ascii: "[")) else { return false }
        if !scanner.take(UInt8(ascii: "]")) {
            repeat {
                guard scanner.object(member), objectEnd() else { return false }
            } while scanner.take(UInt8(ascii: ","))
            guard scanner.take(UInt8(ascii: "]")) else { return false }
        }
        return scanner.atEnd
    }

    /// Calls `member` with each member (key bytes, value) of the JSON object `text`, in order;
    /// `false` when the text is no object in the narrow form, or a call returned `false`.
    package static func members(
        ofObject text: UnsafeRawBufferPointer, _ member: (UnsafeRawBufferPointer, JSONScannedValue) -> Bool
    ) -> Bool {
        var scanner = JSONScanner(text)
        return scanner.object(member) && scanner.atEnd
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

    /// Reads an object, handing its members to `member`.
    private mutating func object(_ member: (UnsafeRawBufferPointer, JSONScannedValue) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            skipSpace()
            guard let key = string(asKey: true), take(UInt8(ascii: ":")) else { return false }
            skipSpace()
            guard let value = value(depth: 1), member(key, value) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// Reads the value that begins here (at `depth` within the object being read).
    private mutating func value(depth: Int) -> JSONScannedValue? {
        guard at < end, depth <= 32 else { return nil }
        switch base[at] {
        case UInt8(ascii: "\""):
            return string(asKey: false) == nil ? nil : .other
        case UInt8(ascii: "{"):
            let start = at
            at += 1
            if !take(UInt8(ascii: "}")) {
                repeat {
                    skipSpace()
                    guard string(asKey: true) != nil, take(UInt8(ascii: ":")) else { return nil }
                    skipSpace()
                    guard value(depth: depth + 1) != nil else { return nil }
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "}")) else { return nil }
            }
            return .object(UnsafeRawBufferPointer(start: base + start, count: at - start))
        case UInt8(ascii: "["):
            at += 1
            if !take(UInt8(ascii: "]")) {
                repeat {
                    skipSpace()
                    guard value(depth: depth + 1) != nil else { return nil }
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "]")) else { return nil }
            }
            return .other
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    private mutating func literal(_ word: StaticString) -> JSONScannedValue? {
        let count = word.utf8CodeUnitCount
        guard end - at >= count, memcmp(base + at, word.utf8Start, count) == 0 else { return nil }
        at += count
        return .other
    }

    /// A number: a whole one of up to 18 digits is read, one with a fraction is checked; one
    /// with an exponent, more digits or `-0` strays (parsers read those differently).
    private mutating func number() -> JSONScannedValue? {
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
            return .other
        }
        guard at == end || base[at] | 0x20 != UInt8(ascii: "e") else { return nil }
        guard !(negative && magnitude == 0) else { return nil }
        return .integer(negative ? -magnitude : magnitude)
    }

    /// A string that begins here: its bytes between the quotes, when it is valid UTF-8 without
    /// control characters or `\u` escapes (and, for a key, without any escape).
    private mutating func string(asKey: Bool) -> UnsafeRawBufferPointer? {
        guard at < end, base[at] == UInt8(ascii: "\"") else { return nil }
        at += 1
        let start = at
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
                return UnsafeRawBufferPointer(start: base + start, count: at - 1 - start)
            case UInt8(ascii: "\\"):
                guard !asKey, end - at >= 2 else { return nil }
                switch base[at + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    at += 2
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
