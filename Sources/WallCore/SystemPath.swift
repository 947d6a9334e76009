#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// File names are bytes, and not always UTF-8 (a Latin-1 `Urlaub_M\xfcnchen.jpg` from an old
/// camera card or archive). A name read from the system keeps its bytes in a `String`: each byte
/// of a sequence that is not UTF-8 is held as one scalar of a private range (U+10FF80 to
/// U+10FFFF, the byte plus U+10FF00), and a real scalar of that range is held byte by byte in the
/// same way, so that every sequence of bytes has one `String` and gives its bytes back whole.
/// Hand such a path to the system with ``Swift/String/systemPath``; show it with
/// ``Swift/String/displayed``. Text that is UTF-8, the usual case, is itself.
public enum SystemPath {
    /// The first scalar of the private range that holds bytes.
    static let first: UInt32 = 0x10FF80

    /// `bytes` (a name or path as the system gave it) as a `String`.
    public static func string<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        let array = Array(bytes)
        if !array.contains(0xF4), let text = String(validating: array, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        var at = 0
        while at < array.count {
            if let (scalar, length) = decodeScalar(array, at: at), scalar.value < first {
                scalars.append(scalar)
                at += length
            } else {
                scalars.append(Unicode.Scalar(0x10FF00 + UInt32(array[at]))!)
                at += 1
            }
        }
        return String(scalars)
    }

    /// The C text at `text` (a name the system gave) as a `String`, its bytes kept.
    public static func string(cString text: UnsafePointer<CChar>) -> String {
        string(UnsafeRawBufferPointer(start: text, count: strlen(text)))
    }

    /// The one UTF-8 scalar starting at `at`, and its length in bytes, or `nil` when the bytes
    /// there are not UTF-8 (overlong, a surrogate, past U+10FFFF, cut short).
    private static func decodeScalar(_ bytes: [UInt8], at: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[at]
        let length: Int
        switch lead {
        case 0..<0x80: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return nil
        }
        guard at + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for k in 1..<length {
            let byte = bytes[at + k]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let least: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= least, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// The bytes `text` stands for (see ``SystemPath``).
    public static func bytes(_ text: String) -> [UInt8] {
        guard text.utf8.contains(0xF4) else { return Array(text.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.value >= first {
                bytes.append(UInt8(scalar.value - 0x10FF00))
            } else {
                bytes += String(scalar).utf8
            }
        }
        return bytes
    }

    /// Whether `text` holds a byte that is not UTF-8.
    public static func holdsBytes(_ text: String) -> Bool {
        text.utf8.contains(0xF4) && text.unicodeScalars.contains { $0.value >= first }
    }
}

extension String {
    /// The path's bytes as the system takes them, ended by a zero: pass it where C wants a
    /// `const char *` (`open(path.systemPath, O_RDONLY)`). See ``SystemPath``.
    public var systemPath: [CChar] {
        var bytes = SystemPath.bytes(self).map { CChar(bitPattern: $0) }
        bytes.append(0)
        return bytes
    }

    /// The text as a person reads it: each byte that is not UTF-8 shown as U+FFFD (�).
    public var displayed: String {
        guard SystemPath.holdsBytes(self) else { return self }
        return String(
            String.UnicodeScalarView(unicodeScalars.map { $0.value >= SystemPath.first ? "\u{FFFD}" : $0 }))
    }
}
