import CKernels
import Foundation
import Testing
import _WallTestSupport

@testable import WallJSON

/// The writer: Foundation's exact text, made without its tree; and the splitter that reads a big
/// array's elements apart as the text streams past.
@Suite("JSON writer and array splitter")
struct JSONWriterTests {
    struct Item: Codable, Equatable {
        var name: String
        var size: [Int]
        var ratio: Double
        var note: String?
        var tags: [String: Bool]
        var empty: [Int]
    }

    static let items = [
        Item(name: "a/b \"quoted\"\n\u{1}é", size: [4000, 3000], ratio: 1.5, note: nil, tags: ["x": true], empty: []),
        Item(name: "", size: [], ratio: 0.1 + 0.2, note: "[not] {a} \\bracket,", tags: [:], empty: []),
    ]

    @Test("the text of values is Foundation's, pretty at any depth and compact")
    func foundationText() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let pretty = String(decoding: try encoder.encode(Self.items), as: UTF8.self)
        #expect(try JSONText.text(of: Self.items) == pretty)
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let compact = String(decoding: try encoder.encode(Self.items[0]), as: UTF8.self)
        #expect(try JSONText.text(of: Self.items[0], compact: true) == compact)
        #expect(JSONString.quoted("tab\there") == "\"tab\\there\"")
        #expect(throws: EncodingError.self) { try JSONText.number(.nan) }
        var bytes = JSONBytes()
        bytes.append(-12_345)
        bytes.append(quoted: "a\"b")
        #expect(String(decoding: bytes.bytes, as: UTF8.self) == "-12345\"a\\\"b\"")
    }

    @Test("the cursor writes numbers as Foundation does: whole numbers, halves and the rest")
    func cursorNumbers() throws {
        var random = SeededGenerator(seed: 71)
        var doubles: [Double] = [
            0, -0.0, 0.5, -0.5, 1, -1, 818.5, 1e-7, 0.1 + 0.2, 1234.000000001, 2547.0000000000005, 0x1p52 - 0.5,
            0x1p52, 0x1p52 + 1, 0x1p53, 1e15, 1e16, -1e16, 123_456_789_012_345_680_000, .leastNonzeroMagnitude,
            .greatestFiniteMagnitude, 1e-5, 0.0001,
        ]
        for _ in 0..<3_000 {
            let whole = Double(Int.random(in: -10_000_000...10_000_000, using: &random))
            doubles += [whole, whole + 0.5, whole / 3, whole * 1e-3, Double.random(in: -1e20...1e20, using: &random)]
        }
        var ints = [0, 9, 10, 99, 100, 999, 1000, 9999, 10_000, 99_999, 100_000, Int.max, Int.min, -1, -10, -10_000]
        ints += (0..<3_000).map { _ in
            Int.random(in: Int.min...Int.max, using: &random) >> Int.random(in: 0..<64, using: &random)
        }
        for value in doubles {
            var bytes = JSONBytes(capacity: 64)
            try bytes.write { try $0.append(number: value) }
            #expect(String(decoding: bytes.bytes, as: UTF8.self) == (try JSONText.number(value)), "\(value)")
        }
        for value in ints {
            var bytes = JSONBytes(capacity: 64)
            bytes.append(value)
            #expect(String(decoding: bytes.bytes, as: UTF8.self) == String(value))
        }
        var bytes = JSONBytes()
        #expect(throws: EncodingError.self) { try bytes.write { try $0.append(number: .infinity) } }
    }

    @Test("text longer than the room grows it and is written again whole; a copy keeps its own text")
    func cursorRoom() {
        var bytes = JSONBytes(capacity: 64)
        var expected = ""
        for n in 0..<2_000 {
            let text = n % 7 == 0 ? "tab\there \"\(n)\"" : String(repeating: "é", count: n % 50)
            // One write of several pieces, often past the end of the room.
            bytes.write { cursor in
                cursor.append(",")
                cursor.append(quoted: text)
                cursor.append(n)
                cursor.indent(n % 3)
            }
            expected += "," + JSONString.quoted(text) + String(n) + String(repeating: "  ", count: n % 3)
        }
        #expect(String(decoding: bytes.bytes, as: UTF8.self) == expected)
        let kept = bytes
        bytes.append("more")
        bytes.removeAll()
        bytes.append("other")
        #expect(String(decoding: kept.bytes, as: UTF8.self) == expected)
        #expect(String(decoding: bytes.bytes, as: UTF8.self) == "other")
    }

    /// `text` split at `piece` bytes a feed: its batches and what is left.
    static func split(_ text: String, piece: Int, batchSize: Int) throws -> (batches: [String], rest: String) {
        var splitter = JSONArraySplitter(key: "items", batchSize: batchSize, recordsSpans: true)
        let bytes = Array(text.utf8)
        var batches: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + piece)
            try bytes[start..<end].withUnsafeBufferPointer { try splitter.feed($0) }
            batches += splitter.takeBatches()
            start = end
        }
        batches += try splitter.finish()
        return (batches.map { String(decoding: $0, as: UTF8.self) }, String(decoding: splitter.rest, as: UTF8.self))
    }

    @Test("the array's elements come in batches, the rest without them, however the text is cut")
    func splitting() throws {
        let text = """
            {"before": {"items": [1, 2]}, "items" : [ {"a": "x,]\\"}"}, [1, [2]], "s" ,3 ], "after": "items"}
            """
        for piece in [1, 2, 3, 7, 1000] {
            let (batches, rest) = try Self.split(text, piece: piece, batchSize: 2)
            #expect(batches == ["[{\"a\": \"x,]\\\"}\"},[1, [2]]]", "[\"s\" ,3 ]"], "piece \(piece)")
            #expect(rest == "{\"before\": {\"items\": [1, 2]}, \"items\" : [], \"after\": \"items\"}", "piece \(piece)")
        }
        var splitter = JSONArraySplitter(key: "items", batchSize: 10, recordsSpans: true)
        let spanned = Array(#"{"items":[ 10 ,"ab"]}"#.utf8)
        try spanned.withUnsafeBufferPointer { try splitter.feed($0) }
        _ = try splitter.finish()
        #expect(splitter.spans.map { String(decoding: spanned[$0], as: UTF8.self) } == ["10 ", "\"ab\""])
    }

    @Test("long strings and elements, passed over sixteen bytes at a time, split as short ones do")
    func longElements() throws {
        // Escaped quotes and backslashes and brackets in strings at every offset around the
        // 16-byte blocks, nested brackets after long runs of plain bytes.
        var elements: [String] = []
        for n in 0..<40 {
            let plain = String(repeating: "a", count: n)
            elements.append(
                #"{"source":"/photos/\#(plain)\"quoted\\ [x] {y}.jpg","cell":{"x":\#(n),"y":[\#(plain.count),[2]]}}"#)
            elements.append(#""\#(plain)\\""#)
            elements.append("[\(n), {\"k\": \"\(plain)]\"}]")
        }
        let text =
            #"{"key\"s": "a [ string", "items": ["# + elements.joined(separator: ",") + #"], "after": {"b": "]"}}"#
        let expected = stride(from: 0, to: elements.count, by: 7).map {
            "[" + elements[$0..<min($0 + 7, elements.count)].joined(separator: ",") + "]"
        }
        for piece in [1, 5, 16, 17, 31, 64, 1000, text.utf8.count] {
            let (batches, rest) = try Self.split(text, piece: piece, batchSize: 7)
            #expect(batches == expected, "piece \(piece)")
            #expect(rest == #"{"key\"s": "a [ string", "items": [], "after": {"b": "]"}}"#, "piece \(piece)")
        }
    }

    @Test("the splitter's pass in C, plain and SSE2, stops where its Swift definition does, in the same state")
    func passTwins() {
        // Texts thick with quotes, backslashes and brackets of both kinds (strings among them
        // over the 64-byte blocks' edges, a backslash last in a block), other bytes, ASCII or
        // not, in runs between them; each followed from a random state in random pieces.
        var random = SeededGenerator(seed: 46)
        let marks = Array("\"\\[]{}".utf8) + [UInt8(ascii: "a"), 0x20, 0x5B | 0x80, 0x7D | 0x80, 0xFB]
        var stops = 0
        for round in 0..<400 {
            let length = Int.random(in: 0...700, using: &random)
            let text: [UInt8] = (0..<length).map { _ in
                Int.random(in: 0..<4, using: &random) == 0
                    ? marks.randomElement(using: &random)!
                    : UInt8(ascii: "a") + UInt8.random(in: 0..<26, using: &random)
            }
            let inString = Bool.random(using: &random)
            var state = JSONArraySplitter.PassState(
                depth: Int.random(in: 3...5, using: &random), inString: inString,
                escaped: inString && Int.random(in: 0..<8, using: &random) == 0)
            var twins = [IW_KERNEL_PLAIN, IW_KERNEL_SSE2, IW_KERNEL_AVX2, IW_KERNEL_BEST].map { _ in
                iw_json_state(
                    depth: Int64(state.depth), in_string: state.inString ? 1 : 0, escaped: state.escaped ? 1 : 0)
            }
            var start = 0
            while start < length {
                let end = min(length, start + Int.random(in: 1...300, using: &random))
                let stop = text[..<end].withUnsafeBufferPointer {
                    JSONArraySplitter.passElement(in: $0, from: start, state: &state)
                }
                for (k, kernel) in [IW_KERNEL_PLAIN, IW_KERNEL_SSE2, IW_KERNEL_AVX2, IW_KERNEL_BEST].enumerated() {
                    var index = start
                    let closed = iw_json_pass(kernel, text, &index, end, &twins[k], 2) != 0
                    #expect(
                        closed == (stop != nil) && index == (stop ?? end), "round \(round), kernel \(kernel.rawValue)")
                    #expect(
                        twins[k].depth == state.depth && (twins[k].in_string != 0) == state.inString
                            && (twins[k].escaped != 0) == state.escaped, "round \(round), kernel \(kernel.rawValue)")
                }
                if let stop {
                    stops += 1
                    start = stop + 1
                    // Into the next element, as the splitter goes on after a comma.
                    state.depth = 3
                    for k in twins.indices { twins[k].depth = 3 }
                } else {
                    start = end
                }
            }
        }
        #expect(stops > 400, "the texts close elements often enough to test the stops")
    }

    @Test("a list of the wrong shape is a problem named, never a crash")
    func problems() {
        let cases: [(String, JSONArraySplitter.Problem)] = [
            (#"{"items":[1],"items":[2]}"#, .twoArrays),
            (#"{"items":[1,,2]}"#, .emptyElement),
            (#"{"items":[1,2,]}"#, .trailingComma),
            (#"{"items":[{} {}]}"#, .missingComma),
            (#"{"items":[1,2"#, .unbalanced),
            (#"{"items":["1]}"#, .unbalanced),
        ]
        for (text, problem) in cases {
            #expect(throws: problem, "\(text)") { _ = try Self.split(text, piece: 3, batchSize: 1) }
        }
    }
}
