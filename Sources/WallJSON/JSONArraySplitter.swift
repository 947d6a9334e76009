import CKernels

/// JSON text split as it streams past, without parsing it: the elements of the array under one
/// key of the top-level object are gathered into batches of `batchSize` (each a JSON array of
/// them, to be decoded apart), everything else is kept, that array left empty, to be decoded at
/// the end. Only strings and brackets are followed here; parsing is the decoder's. A manifest's
/// million tiles are read this way, a few thousand at a time.
package struct JSONArraySplitter {
    /// What is wrong with the text's shape around the split array.
    package enum Problem: Error, Equatable {
        /// The key holds an array twice.
        case twoArrays
        /// A comma with no element before it.
        case emptyElement
        /// A comma after the last element.
        case trailingComma
        /// Two elements without a comma between them.
        case missingComma
        /// The text ends inside a string or with brackets open.
        case unbalanced
    }

    /// The text without the array's elements.
    package private(set) var rest: [UInt8] = []
    /// Where each element lay in the text, when the splitter records them.
    package private(set) var spans: [Range<Int>] = []

    private let key: [UInt8]
    private let batchSize: Int
    private let recordsSpans: Bool
    /// Full batches not yet taken.
    private var ready: [[UInt8]] = []
    /// The elements in `batch`.
    private var batched = 0
    /// Elements waiting, as a JSON array without its closing bracket.
    private var batch: [UInt8] = [UInt8(ascii: "[")]
    /// How many bytes were fed before the present piece.
    private var fed = 0
    /// Where the element being read began in the text.
    private var elementStart = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// The last string closed at the top level, while it is short enough to be the key.
    private var lastString: [UInt8]? = nil
    private var keyMatches = false
    private var inArray = false
    private var sawArray = false
    /// An element has begun and not ended.
    private var inElement = false
    /// A comma was passed and the next element has not begun.
    private var expectingElement = false
    private var elements = 0
    /// The element's brackets have closed: only a comma or the array's end may follow.
    private var elementClosed = false

    private static var quote: UInt8 { UInt8(ascii: "\"") }
    private static var backslash: UInt8 { UInt8(ascii: "\\") }

    /// A splitter of the array under `key` into batches of `batchSize` elements, recording
    /// where each lay in the text when `recordsSpans`.
    package init(key: String, batchSize: Int, recordsSpans: Bool = false) {
        (self.key, self.batchSize, self.recordsSpans) = (Array(key.utf8), max(1, batchSize), recordsSpans)
    }

    private enum Target { case rest, batch, none }

    /// Feeds the next piece of the text; the batches it fills are then ``takeBatches()``'s.
    package mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) throws(Problem) {
        var runStart = 0
        var runTarget: Target = inArray && depth >= 2 ? (inElement ? .batch : .none) : .rest
        /// Moves the bytes from `runStart` up to `end` to where they go.
        func flush(upTo end: Int) {
            if end > runStart {
                switch runTarget {
                case .rest: rest.append(contentsOf: bytes[runStart..<end])
                case .batch: batch.append(contentsOf: bytes[runStart..<end])
                case .none: break
                }
            }
            runStart = end
        }
        func route(_ index: Int, to target: Target) {
            if target != runTarget {
                flush(upTo: index)
                runTarget = target
            }
        }
        var index = -1
        while index + 1 < bytes.count {
            index += 1
            if inArray, depth > 2 {
                // Inside an element (most of the text): only its strings and brackets matter,
                // followed in a loop of their own up to the bracket that closes it.
                index = passElement(in: bytes, from: index)
                continue
            }
            // Inside a string (but the key's), the bytes other than a quote or a backslash
            // change nothing: they are passed over sixteen at a time, and go where the run they
            // are in goes.
            if inString, !escaped, !(depth == 1 && lastString != nil) {
                index = Self.next(in: bytes, from: index, stringsOnly: true)
                if index == bytes.count { break }
            }
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == Self.backslash {
                    escaped = true
                    if depth == 1 { lastString = nil }
                } else if byte == Self.quote {
                    inString = false
                } else if depth == 1, lastString != nil {
                    lastString!.append(byte)
                    if lastString!.count > key.count { lastString = nil }
                }
                continue
            }
            guard inArray else {
                // Outside the array's elements.
                switch byte {
                case Self.quote:
                    inString = true
                    if depth == 1 { lastString = [] }
                case UInt8(ascii: ":"):
                    if depth == 1 { keyMatches = lastString == key }
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    if depth == 1, keyMatches, byte == UInt8(ascii: "[") {
                        guard !sawArray else { throw Problem.twoArrays }
                        (inArray, sawArray, expectingElement) = (true, true, false)
                        route(index + 1, to: .none)
                    }
                    depth += 1
                    keyMatches = false
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    keyMatches = false
                case UInt8(ascii: ","):
                    keyMatches = false
                default: break
                }
                continue
            }
            // In the array, between elements or at an element's first byte.
            switch byte {
            case UInt8(ascii: ","):
                guard inElement else { throw Problem.emptyElement }
                route(index, to: .none)
                endElement(at: fed + index)
                expectingElement = true
            case UInt8(ascii: "]"):
                guard inElement || !expectingElement else { throw Problem.trailingComma }
                route(index, to: .rest)
                endElement(at: fed + index)
                (inArray, depth) = (false, 1)
            case 0x20, 0x09, 0x0A, 0x0D:
                break  // goes with the element when inside one, else nowhere
            default:
                if !inElement || elementClosed {
                    guard !elementClosed, elements == 0 || expectingElement else { throw Problem.missingComma }
                    route(index, to: .batch)
                    if batched > 0 { batch.append(UInt8(ascii: ",")) }
                    (inElement, expectingElement) = (true, false)
                    elementStart = fed + index
                }
                switch byte {
                case Self.quote: inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                default: break
                }
            }
        }
        flush(upTo: bytes.count)
        fed += bytes.count
    }

    /// Passes over the bytes of an element from `start`, following its strings and brackets, up
    /// to the bracket that closes it or the piece's end; gives the index of the last byte passed.
    /// The pass is ``passElement(in:from:state:)``'s C twin, sixty-four bytes at a time.
    private mutating func passElement(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var state = iw_json_state(depth: Int64(depth), in_string: inString ? 1 : 0, escaped: escaped ? 1 : 0)
        var index = start
        let closed = iw_json_pass(IW_KERNEL_BEST, bytes.baseAddress!, &index, bytes.count, &state, 2) != 0
        (depth, inString, escaped) = (Int(state.depth), state.in_string != 0, state.escaped != 0)
        if closed {
            elementClosed = true
            return index
        }
        return bytes.count - 1
    }

    /// Where a text is followed: the depth of its brackets, within a string, just after a
    /// backslash in one.
    struct PassState: Equatable {
        var depth: Int
        var inString = false
        var escaped = false
    }

    /// The bytes of an element passed from `start`, its strings and brackets followed from and
    /// into `state`: the definition of the splitter's pass, whose C twin (`iw_json_pass`, plain
    /// or SSE2) the splitter runs and the tests hold to it. Gives the index of the closing
    /// bracket outside a string that brings the depth to 2 (the element's end), or nil when the
    /// piece ends first.
    static func passElement(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, state: inout PassState) -> Int? {
        for index in start..<bytes.count {
            let byte = bytes[index]
            if state.inString {
                if state.escaped {
                    state.escaped = false
                } else if byte == backslash {
                    state.escaped = true
                } else if byte == quote {
                    state.inString = false
                }
            } else if byte == quote {
                state.inString = true
            } else if byte | 0x20 == UInt8(ascii: "{") {  // `[` or `{`
                state.depth += 1
            } else if byte | 0x20 == UInt8(ascii: "}") {  // `]` or `}`
                state.depth -= 1
                if state.depth == 2 { return index }
            }
        }
        return nil
    }

    /// The index of the first byte from `start` on that may change the splitter's state: a quote
    /// or a backslash with `stringsOnly`, else a quote or a bracket (`[`, `]`, `{`, `}`: each
    /// `0x7B` or `0x7D` with bit 5 set); `bytes.count` when there is none.
    @inline(__always)
    private static func next(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, stringsOnly: Bool) -> Int {
        func matters(_ byte: UInt8) -> Bool {
            stringsOnly
                ? byte == quote || byte == backslash : byte == quote || byte | 0x20 == 0x7B || byte | 0x20 == 0x7D
        }
        var index = start
        let base = UnsafeRawPointer(bytes.baseAddress!)
        while index + 16 <= bytes.count {
            let v = base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            let found: SIMDMask<SIMD16<Int8>>
            if stringsOnly {
                found = v .== SIMD16(repeating: quote) .| v .== SIMD16(repeating: backslash)
            } else {
                let folded = v | SIMD16(repeating: 0x20)
                found =
                    v .== SIMD16(repeating: quote) .| folded .== SIMD16(repeating: 0x7B)
                    .| folded .== SIMD16(repeating: 0x7D)
            }
            if any(found) {
                // The first byte found: its lane's bits are all ones, the others' zeros.
                let lanes = unsafeBitCast(
                    SIMD16<UInt8>(repeating: 0).replacing(with: 0xFF, where: found), to: SIMD2<UInt64>.self)
                let first = lanes[0] != 0 ? lanes[0].trailingZeroBitCount : 64 + lanes[1].trailingZeroBitCount
                return index + first / 8
            }
            index += 16
        }
        while index < bytes.count, !matters(bytes[index]) { index += 1 }
        return index
    }

    /// Counts the element just ended before `end` in the text, and closes the batch when it is full.
    private mutating func endElement(at end: Int) {
        guard inElement else { return }
        (inElement, elementClosed) = (false, false)
        if recordsSpans { spans.append(elementStart..<end) }
        elements += 1
        batched += 1
        if batched >= batchSize { closeBatch() }
    }

    private mutating func closeBatch() {
        guard batched > 0 else { return }
        batch.append(UInt8(ascii: "]"))
        ready.append(batch)
        batch.removeAll(keepingCapacity: true)
        batch.append(UInt8(ascii: "["))
        batched = 0
    }

    /// The full batches so far, oldest first, each a JSON array of `batchSize` elements.
    package mutating func takeBatches() -> [[UInt8]] {
        defer { ready.removeAll() }
        return ready
    }

    /// Checks that the text ended whole (no string or bracket left open) and gives the last
    /// batches, the last one short.
    package mutating func finish() throws(Problem) -> [[UInt8]] {
        guard !inString, depth == 0, !inArray else { throw Problem.unbalanced }
        closeBatch()
        return takeBatches()
    }
}
