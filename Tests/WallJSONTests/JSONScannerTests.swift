import Testing
import WallJSON
import _WallTestSupport

@Suite("JSON scanner")
struct JSONScannerTests {
    /// Member `key` of value `value` in words, either reader's: the value as a number, a text,
    /// texts, null or an object's own members, read again (`?` for anything else).
    func describe(_ key: UnsafeRawBufferPointer, _ value: some JSONMemberValue) -> String {
        let name = String(decoding: key, as: UTF8.self)
        if let number = value.integer { return "\(name)=\(number)" }
        if let number = value.number { return "\(name)=\(number)" }
        if let text = value.string { return "\(name)=\"\(text)\"" }
        if let texts = value.strings { return "\(name)=\(texts)" }
        if value.isNull { return "\(name)=null" }
        guard let inner = describedMembers(value) else { return "\(name)=?" }
        return "\(name)={\(inner)}"
    }

    /// The members of object `value` described in order, joined by commas; `nil` when it is
    /// not an object.
    func describedMembers(_ value: some JSONMemberValue) -> String? {
        var members: [String] = []
        guard
            value.members({ key, value in
                members.append(describe(key, value))
                return true
            })
        else { return nil }
        return members.joined(separator: ",")
    }

    /// The members of each object of the array `text` as the scanner reads them, one description
    /// per object; `nil` when it stops.
    func scanned(_ text: [UInt8]) -> [String]? {
        var objects: [String] = []
        var members: [String] = []
        let read = text.withUnsafeBytes { text in
            JSONScanner.objects(inArray: text) { key, value in
                members.append(describe(key, value))
                return true
            } objectEnd: {
                objects.append(members.joined(separator: ","))
                members = []
                return true
            }
        }
        return read ? objects : nil
    }

    /// The same descriptions from simdjson's parse of `text` (its ``JSONValueView``s), members in
    /// order, duplicates kept; the parser's error when it is not JSON.
    func parsed(_ text: [UInt8]) throws -> [String] {
        try JSONReader().decodeElements(String.self, from: text) { object in
            describedMembers(object) ?? "not an object"
        }
    }

    @Test("text in the narrow form is read as simdjson reads it, member by member")
    func narrowForm() throws {
        let texts = [
            #"[{"cell":{"height":244,"width":487,"x":10,"y":-10},"crop":null,"page":0,"source":"a/b.jpg","warnings":[]}]"#,
            #"[ { "page" : 3 , "n" : [ 1 , [ ] , { } , true , false , null , -2.5 , 0.125 ] } , {} ]"#,
            #"[{"s":"é 日本 𝄞 \" \\ \/ \b\f\n\r\t","big":123456789012345678,"neg":-123456789012345678,"z":0}]"#,
            "[\n\t{\"page\":1}\r\n]",
            "[]",
            "[{\"page\":1,\"page\":2}]",  // the scanner gives both; the reader decides
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            let scan = try #require(scanned(bytes), "\(text)")
            #expect(try scan == parsed(bytes), "\(text)")
        }
        #expect(
            scanned(Array(texts[0].utf8))?.first
                == #"cell={height=244,width=487,x=10,y=-10},crop=null,page=0,source="a/b.jpg",warnings=[]"#)
        #expect(scanned(Array(texts[2].utf8))?.first?.hasPrefix("s=\"é 日本 𝄞 \" \\ / \u{8}\u{C}\n\r\t\",") == true)
        #expect(scanned(Array(texts[1].utf8))?.first == "page=3,n=?")
    }

    @Test("anything outside the narrow form stops it, JSON or not, so the full parser reads it")
    func strays() throws {
        let valid = [
            #"[{"s":"\u00e9"}]"#, #"[{"n":1e3}]"#, #"[{"n":1.5E-3}]"#, #"[{"n":-0}]"#, #"[{"n":1234567890123456789}]"#,
            #"[{"p\u0061ge":1}]"#, #"[{"a\"b":1}]"#, "[1]", "[\"x\"]",
            "[{\"a\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}]",
        ]
        for text in valid {
            #expect(scanned(Array(text.utf8)) == nil, "\(text)")
            #expect(throws: Never.self, "\(text)") {
                _ = try JSONReader().decode([JSONAny].self, from: Array(text.utf8))
            }
        }
        let broken: [[UInt8]] =
            [
                #"[{"n":01}]"#, #"[{"n":1.}]"#, #"[{"n":-}]"#, #"[{"n":+1}]"#, #"[{"s":"\x"}]"#, #"[{"n":1,}]"#,
                #"[{"n":1}"#, #"[{"n":1}]x"#, #"[{"n" 1}]"#, #"[{n:1}]"#, #"[{"n":tru}]"#, #"[{"n":1}{"n":2}]"#,
            ].map { Array($0.utf8) } + [
                [0x5B, 0x7B, 0x22, 0x73, 0x22, 0x3A, 0x22, 0x01, 0x22, 0x7D, 0x5D],  // a control character
                [0x5B, 0x7B, 0x22, 0x73, 0x22, 0x3A, 0x22, 0xC0, 0x80, 0x22, 0x7D, 0x5D],  // overlong
                [0x5B, 0x7B, 0x22, 0x73, 0x22, 0x3A, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x7D, 0x5D],  // a surrogate
                [0x5B, 0x7B, 0x22, 0x73, 0x22, 0x3A, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x7D, 0x5D],  // past U+10FFFF
                [0x5B, 0x7B, 0x22, 0x73, 0x22, 0x3A, 0x22, 0xE6, 0x97, 0x22, 0x7D, 0x5D],  // cut short
            ]
        for text in broken {
            #expect(scanned(text) == nil, "\(String(decoding: text, as: UTF8.self))")
            #expect(throws: (any Error).self) { _ = try JSONReader().decode([JSONAny].self, from: text) }
        }
    }

    @Test("text at random, whole or damaged: what the scanner reads, simdjson reads the same")
    func random() throws {
        var random = SeededGenerator(seed: 0x9E37_79B9_7F4A_7C15)
        func next(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
        let keys = ["page", "cell", "x", "y", "width", "height", "", "é", "a b"]
        let numbers = [
            "0", "7", "-12", "4096", "123456789012345678", "1234567890123456789", "0.5", "-3.25", "0.1",
            "3.141592653589793238", "-0.0", "1e2", "-0", "01",
        ]
        let strings = [#""""#, #""a/b.jpg""#, #""q\"uote""#, #""\\""#, #""\u00e9""#, #""日本""#, #""tab\t""#, #""x\q""#]
        func value(_ depth: Int) -> String {
            switch next(depth > 3 ? 3 : 6) {
            case 0: return numbers[next(numbers.count)]
            case 1: return strings[next(strings.count)]
            case 2: return ["true", "false", "null"][next(3)]
            case 3: return "[" + (0..<next(3)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
            default: return object(depth + 1)
            }
        }
        func object(_ depth: Int) -> String {
            let space = next(4) == 0 ? " " : ""
            let members = (0..<next(5)).map { _ in "\"\(keys[next(keys.count)])\"\(space):\(space)\(value(depth))" }
            return "{" + members.joined(separator: "," + space) + "}"
        }
        let damage: [[UInt8]] = [
            [], Array(",".utf8), Array("\"".utf8), Array("}".utf8), Array("[".utf8), [0x01], [0xFF], [0xC3],
        ]
        var (read, stopped, damagedRead) = (0, 0, 0)
        for round in 0..<3_000 {
            var text = Array(("[" + (0..<(1 + next(3))).map { _ in object(0) }.joined(separator: ",") + "]").utf8)
            let damaged = round % 3 == 0
            if damaged {
                let at = next(text.count)
                text.replaceSubrange(at..<min(text.count, at + next(2)), with: damage[next(damage.count)])
            }
            guard let scan = scanned(text) else {
                stopped += 1
                continue
            }
            read += 1
            if damaged { damagedRead += 1 }
            let parse: [String]
            do { parse = try parsed(text) } catch {
                Issue.record("scanned but not JSON: \(String(decoding: text, as: UTF8.self)): \(error)")
                continue
            }
            #expect(scan == parse, "\(String(decoding: text, as: UTF8.self))")
        }
        // Both ways were taken, damaged texts read too (a byte changed inside a string, say).
        #expect(
            read > 300 && stopped > 300 && damagedRead > 10, "read \(read), stopped \(stopped), damaged \(damagedRead)")
    }
}

/// Any JSON value, for checking that a text parses.
private enum JSONAny: Decodable {
    case value

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() || (try? single.decode(Bool.self)) != nil || (try? single.decode(Double.self)) != nil
            || (try? single.decode(String.self)) != nil || (try? single.decode([JSONAny].self)) != nil
        {
            self = .value
            return
        }
        _ = try single.decode([String: JSONAny].self)
        self = .value
    }
}
