/// JSON text being built as UTF-8 bytes: what a manifest's million tiles are written into,
/// without a `String` for each. Text is written through a ``Cursor`` straight into room kept
/// ahead of it: a bounds check a piece, where appending to an array costs a call, a uniqueness
/// check and a capacity check a piece (most of the time of writing a million tiles).
///
/// Public (its members are `package`) only so that the cursor's appends are inlined where
/// tiles are written, in another module: Swift 6.3 inlines no member of a `package` type there.
public struct JSONBytes: Sendable {
    /// Memory for text, not cleared first as an array's must be (a piece of a million-tile
    /// manifest is written into fresh room); changed only through a ``JSONBytes`` holding the
    /// only reference to it, copied first otherwise.
    private final class Room: @unchecked Sendable {
        let start: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            start = .allocate(capacity: capacity)
            self.capacity = capacity
        }

        deinit { start.deallocate() }

        /// New room of `capacity` bytes holding the first `count` bytes of this one.
        func copy(_ count: Int, capacity: Int) -> Room {
            let room = Room(capacity: capacity)
            room.start.update(from: start, count: count)
            return room
        }
    }

    private var room: Room
    /// How many bytes of text.
    package private(set) var count = 0

    /// No text yet, with room for `capacity` bytes before any grows.
    package init(capacity: Int = 4096) {
        room = Room(capacity: max(capacity, 64))
    }

    /// The text so far.
    package var bytes: [UInt8] { withText { Array($0) } }

    /// Calls `body` with the text so far.
    package func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(room) { try body(UnsafeBufferPointer(start: room.start, count: count)) }
    }

    /// Forgets the text, keeping the room.
    package mutating func removeAll() { count = 0 }

    /// Appends what `write` writes through a cursor. When the room runs out, the cursor stops
    /// writing; the room is doubled and `write` runs again from the same place, so it must write
    /// the same text each time it runs (the text of a value).
    package mutating func write(_ write: (inout Cursor) throws -> Void) rethrows {
        if !isKnownUniquelyReferenced(&room) { room = room.copy(count, capacity: room.capacity) }
        while true {
            var cursor = Cursor(start: room.start, end: room.capacity, at: count)
            try withExtendedLifetime(room) { try write(&cursor) }
            if !cursor.isFull {
                count = cursor.position
                return
            }
            room = room.copy(count, capacity: 2 * room.capacity)
        }
    }

    /// Appends text known at compile time.
    package mutating func append(_ literal: StaticString) { write { $0.append(literal) } }

    /// Appends `text` as it is.
    package mutating func append(text: String) { write { $0.append(text: text) } }

    /// Appends `value` in decimal.
    package mutating func append(_ value: Int) { write { $0.append(value) } }

    /// Appends `text` quoted and escaped (see ``JSONString/append(_:to:)``).
    package mutating func append(quoted text: String) { write { $0.append(quoted: text) } }

    /// Appends the indent of `level` containers.
    package mutating func indent(_ level: Int) { write { $0.indent(level) } }

    /// Where text is written into a ``JSONBytes``' room: each piece written whole when it fits,
    /// else nothing more (``isFull``).
    public struct Cursor {
        @usableFromInline let base: UnsafeMutablePointer<UInt8>
        @usableFromInline let end: Int
        /// Where the next byte goes.
        @usableFromInline var position: Int
        /// Whether a piece did not fit: it and everything after it were left out.
        @usableFromInline var isFull = false

        init(start: UnsafeMutablePointer<UInt8>, end: Int, at position: Int) {
            base = start
            self.end = end
            self.position = position
        }

        /// Room for `count` more bytes, taken; `nil` (and full) when there is not.
        @inlinable @inline(__always)
        mutating func take(_ count: Int) -> UnsafeMutablePointer<UInt8>? {
            guard !isFull, count <= end - position else {
                isFull = true
                return nil
            }
            defer { position += count }
            return base + position
        }

        /// Copies `count` bytes; a short run (a key, a number's digits) as two overlapping
        /// words or bytes rather than through a call to `memcpy`.
        @inlinable @inline(__always)
        static func copy(_ from: UnsafePointer<UInt8>, to: UnsafeMutablePointer<UInt8>, count: Int) {
            let source = UnsafeRawPointer(from)
            let target = UnsafeMutableRawPointer(to)
            if count >= 8 && count <= 16 {
                let head = source.loadUnaligned(as: UInt64.self)
                let tail = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                target.storeBytes(of: head, as: UInt64.self)
                target.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
            } else if count < 8 {
                for i in 0..<count { to[i] = from[i] }
            } else {
                to.update(from: from, count: count)
            }
        }

        /// Appends text known at compile time.
        @inlinable @inline(__always)
        package mutating func append(_ literal: StaticString) {
            guard literal.hasPointerRepresentation else {
                literal.withUTF8Buffer { append(utf8: $0) }
                return
            }
            let count = literal.utf8CodeUnitCount
            guard let to = take(count) else { return }
            Self.copy(literal.utf8Start, to: to, count: count)
        }

        /// Appends `bytes` as they are.
        @inlinable
        package mutating func append(utf8 bytes: UnsafeBufferPointer<UInt8>) {
            guard let to = take(bytes.count), let from = bytes.baseAddress else { return }
            Self.copy(from, to: to, count: bytes.count)
        }

        /// Appends `text` as it is.
        @inlinable
        package mutating func append(text: String) {
            var text = text
            text.withUTF8 { append(utf8: $0) }
        }

        /// The two digits of each number below 100, in order: a number is written two digits
        /// at a step.
        @inlinable static var digitPairs: StaticString {
            """
            00010203040506070809101112131415161718192021222324252627282930313233343536373839\
            40414243444546474849505152535455565758596061626364656667686970717273747576777879\
            8081828384858687888990919293949596979899
            """
        }

        /// How many decimal digits `magnitude` has: most numbers of a manifest have four or fewer.
        @inlinable @inline(__always)
        static func digitCount(_ magnitude: UInt) -> Int {
            if magnitude < 10_000 {
                return magnitude < 100 ? (magnitude < 10 ? 1 : 2) : (magnitude < 1000 ? 3 : 4)
            }
            var digits = 5
            var bound: UInt = 100_000
            while magnitude >= bound {
                digits += 1
                if digits == 20 { break }  // 10^20 is past UInt's range: no number has more
                bound &*= 10
            }
            return digits
        }

        /// Writes the two digits of `pair` (below 100) at `to`.
        @inlinable @inline(__always)
        static func put(pair: UInt, at to: UnsafeMutablePointer<UInt8>) {
            let digits = UnsafeRawPointer(digitPairs.utf8Start).loadUnaligned(
                fromByteOffset: 2 * Int(truncatingIfNeeded: pair), as: UInt16.self)
            UnsafeMutableRawPointer(to).storeBytes(of: digits, as: UInt16.self)
        }

        /// Appends `value` in decimal.
        @inlinable
        package mutating func append(_ value: Int) {
            var magnitude = value.magnitude
            let sign = value < 0 ? 1 : 0
            let digits = Self.digitCount(magnitude)
            guard let to = take(sign + digits) else { return }
            if sign == 1 { to[0] = UInt8(ascii: "-") }
            var end = to + sign + digits
            while magnitude >= 100 {
                let rest = magnitude / 100
                end -= 2
                Self.put(pair: magnitude &- rest &* 100, at: end)
                magnitude = rest
            }
            if magnitude >= 10 {
                Self.put(pair: magnitude, at: end - 2)
            } else {
                end[-1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
            }
        }

        /// Appends `text` quoted and escaped (see ``JSONString/append(_:to:)``).
        @inlinable
        package mutating func append(quoted text: String) {
            var text = text
            let plain = text.withUTF8 { utf8 -> Bool in
                guard !Self.needsEscaping(utf8) else { return false }
                guard let to = take(utf8.count + 2) else { return true }
                to[0] = UInt8(ascii: "\"")
                if let from = utf8.baseAddress { Self.copy(from, to: to + 1, count: utf8.count) }
                to[utf8.count + 1] = UInt8(ascii: "\"")
                return true
            }
            if !plain { append(text: Self.escaped(text)) }
        }

        /// Appends a finite number as Foundation writes it (see ``JSONString/number(_:)``); an
        /// `EncodingError` for infinities and NaN. Whole numbers and halves (most of a
        /// manifest's crops) are written from their digits, without the `String` of the
        /// shortest text.
        @inlinable
        package mutating func append(number value: Double) throws {
            // Below 2^52 every whole number and half is exact, and its shortest text is its
            // digits (and ".5"): no exponent until 2^53.
            let twice = value * 2
            if value.magnitude < 0x1p52, twice == twice.rounded(.towardZero) {
                let halves = Int(twice)
                if value < 0 || (value == 0 && value.sign == .minus) { append("-") }
                append(Int(halves.magnitude / 2))
                if halves % 2 != 0 { append(".5") }
                return
            }
            append(text: try Self.shortest(value))
        }

        /// Whether UTF-8 text holds a byte JSON escapes: `"`, `\` or a control character.
        @inlinable
        static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return true
            }
            return false
        }

        /// `text` quoted and escaped, as ``JSONString/quoted(_:)`` writes it (out of line: rare).
        @usableFromInline
        static func escaped(_ text: String) -> String { JSONString.quoted(text) }

        /// A finite number's shortest text, as ``JSONText/number(_:)`` writes it (out of line).
        @usableFromInline
        static func shortest(_ value: Double) throws -> String { try JSONText.number(value) }

        /// Appends the indent of `level` containers.
        @inlinable
        package mutating func indent(_ level: Int) {
            guard let to = take(2 * level) else { return }
            to.update(repeating: UInt8(ascii: " "), count: 2 * level)
        }
    }
}
