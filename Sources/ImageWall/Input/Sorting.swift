import WallCodecs
import WallFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The order of the images on the wall.
public enum SortOrder: String, Sendable, Codable, CaseIterable {
    /// As given: arguments in order, each folder's files by name.
    case none
    /// By file name, byte order.
    case name
    /// By file name with numbers compared by value: img2 before img10.
    case natural
    /// By the path as given.
    case path
    /// By modification time.
    case mtime
    /// By the date taken: EXIF DateTimeOriginal, else a date in the file's name, else the
    /// modification time (see ``CaptureDate``).
    case date
    /// By file size in bytes.
    case size
    /// By displayed width / height.
    case aspect
    /// Shuffled, the same way for the same seed whatever the input order.
    case random
}

/// What an image was sorted by, recorded in the manifest.
public enum SortKey: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    case text(String)
    case number(Double)

    /// The key as text: the string, or the number.
    public var description: String {
        switch self {
        case .text(let text): return text
        case .number(let value): return String(value)
        }
    }

    /// Numbers before text; numbers by value, text by its UTF-8 bytes.
    public static func < (a: SortKey, b: SortKey) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x < y
        case (.text(let x), .text(let y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.number, .text): return true
        case (.text, .number): return false
        }
    }

    /// Reads a number, else a string.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let value = try? c.decode(Double.self) {
            self = .number(value)
        } else {
            self = .text(try c.decode(String.self))
        }
    }

    /// Writes the number or the string as it is.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .text(let text): try c.encode(text)
        case .number(let value): try c.encode(value)
        }
    }
}

extension SortOrder {
    /// The key of `image` under this order; `seed` drives `random`.
    func key(for image: ProbedImage, seed: UInt64) -> SortKey? {
        let name = FilePaths.name(of: image.path)
        switch self {
        case .none: return nil
        case .name: return .text(name)
        case .natural: return .text(SortOrder.naturalKey(name))
        case .path: return .text(image.path)
        case .mtime: return .number(image.modified)
        case .date: return .text(CaptureDate(of: image).dateTime)
        case .size: return .number(Double(image.fileSize))
        case .aspect:
            let size = image.info.displayedSize
            return .number(Double(size.width) / Double(size.height))
        case .random: return .number(Double(SortOrder.mix(seed, image.path) >> 11))
        }
    }

    /// `images` in this order (ties broken by path, so the order is total), with each key.
    public func sorted(_ images: [ProbedImage], reverse: Bool = false, seed: UInt64 = 0) -> [(
        image: ProbedImage, key: SortKey?
    )] {
        let keyed = images.map { ($0, key(for: $0, seed: seed)) }
        guard self != .none else { return reverse ? keyed.reversed() : keyed }
        let sorted = keyed.sorted { a, b in
            if a.1 != b.1 { return a.1! < b.1! }
            return a.0.path.utf8.lexicographicallyPrecedes(b.0.path.utf8)
        }
        return reverse ? sorted.reversed() : sorted
    }

    /// Digit runs padded to a fixed width so that text comparison orders them by value;
    /// letters compared without case.
    static func naturalKey(_ name: String) -> String {
        var key = ""
        var digits = ""
        func flush() {
            guard !digits.isEmpty else { return }
            let trimmed = String(digits.drop { $0 == "0" })
            key += String(repeating: "0", count: max(0, 20 - trimmed.count)) + trimmed
            digits = ""
        }
        for c in name {
            if c.isASCII && c.isNumber { digits.append(c) } else { flush(); key += c.lowercased() }
        }
        flush()
        return key
    }

    /// SplitMix64 of the seed and the path's bytes: a shuffle stable for a seed.
    static func mix(_ seed: UInt64, _ path: String) -> UInt64 {
        var h = seed &+ 0x9E37_79B9_7F4A_7C15
        for byte in path.utf8 {
            h = (h ^ UInt64(byte)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
        }
        h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 31)
    }
}
