import Foundation
import Testing
import WallJSON

@Suite("JSON reader")
struct JSONReaderTests {
    enum Shade: String, Codable, Equatable { case light, dark }

    struct Point: Codable, Equatable {
        var x: Double
        var y: Double
    }

    struct Record: Codable, Equatable {
        var name: String
        var count: Int
        var small: Int8
        var big: UInt64
        var ratio: Double
        var flag: Bool
        var shade: Shade
        var note: String?
        var points: [Point]
        var nested: [[Int]]
        var table: [String: Point]
        var maybe: [Int?]
    }

    func read<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONReader().decode(type, from: Array(text.utf8))
    }

    @Test("values Foundation's encoder wrote read back equal, escapes, Unicode and big numbers included")
    func roundTrip() throws {
        var records: [Record] = []
        for n in 0..<200 {
            records.append(
                Record(
                    name: ["plain", "é \"quoted\" \\ back/slash", "tab\tnew\nline", "☃ 𝄞 日本", ""][n % 5] + "\(n)",
                    count: n * 7919 - 500_000, small: Int8(n % 127), big: UInt64.max - UInt64(n),
                    ratio: Double(n) / 7 - 3, flag: n % 2 == 0, shade: n % 3 == 0 ? .light : .dark,
                    note: n % 4 == 0 ? nil : "note \(n)",
                    points: (0..<(n % 4)).map { Point(x: Double($0), y: -1e-7 * Double(n)) },
                    nested: [[], [n], [n, -n]],
                    table: n % 5 == 0 ? [:] : ["a": Point(x: 1, y: 2), "b\u{0}": Point(x: 0.5, y: 1e300)],
                    maybe: [nil, n, nil]))
        }
        let text = try JSONEncoder().encode(records)
        let reader = JSONReader()
        #expect(try reader.decode([Record].self, from: Array(text)) == records)
        // A reader is used again for the next text.
        #expect(try reader.decode([Record].self, from: Array(text.prefix(0)) + Array("[]".utf8)) == [])
        #expect(try read(Int.self, " 42 ") == 42)
        #expect(try read(Double.self, "42") == 42)
        #expect(try read(Int.self, "4.0") == 4)
        #expect(try read(String.self, #""\u00e9\ud834\udd1e""#) == "é𝄞")
    }

    /// The member `dup` of an object, and whether it has `absent`.
    struct Duplicated: Decodable {
        var dup: Int
        var hasAbsent: Bool

        enum Keys: String, CodingKey { case dup, absent }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            dup = try container.decode(Int.self, forKey: .dup)
            hasAbsent = container.contains(.absent)
        }
    }

    @Test(
        "objects of thousands of members read by key as small ones are: each value its key's, the first of a key given twice"
    )
    func largeObjects() throws {
        for count in [3, 32, 33, 5000] {
            let members = (0..<count).map { "\"2000/000 album/IMG_\($0).jpg\":\($0 * 3)" }
            let table = try read([String: Int].self, "{" + members.joined(separator: ",") + "}")
            #expect(table.count == count && (0..<count).allSatisfy { table["2000/000 album/IMG_\($0).jpg"] == $0 * 3 })
            // A key given twice is the first; keys are told apart by their bytes (é written two ways).
            let others = (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
            let duplicated = try read(Duplicated.self, "{\"dup\":1," + others + ",\"dup\":2}")
            #expect(duplicated.dup == 1 && !duplicated.hasAbsent, "\(count) members")
            let accents = try read(
                [String: Int].self, "{" + others + ",\"\u{E9}\":1,\"e\u{301}\":2,\"\u{E9}\":3}")
            #expect(accents.count == count + 1 && accents["\u{E9}"] != nil, "\(count) members")
        }
        #expect(throws: DecodingError.self) {
            try read(Duplicated.self, "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}")
        }
    }

    @Test("errors say what was expected and where, as Foundation's do")
    func errors() throws {
        func failure<T: Decodable>(_ type: T.Type, _ text: String) -> DecodingError? {
            do {
                _ = try read(type, text)
                return nil
            } catch let error as DecodingError {
                return error
            } catch {
                return nil
            }
        }
        func path(_ error: DecodingError?) -> String {
            let context: DecodingError.Context?
            switch error {
            case .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
                context = c
            default: context = nil
            }
            return context?.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined() ?? "?"
        }
        // A key missing inside the third point.
        let missing = failure([Point].self, #"[{"x":1,"y":2},{"x":1,"y":2},{"x":3}]"#)
        guard case .keyNotFound(let key, _) = missing else {
            Issue.record("not keyNotFound: \(String(describing: missing))")
            return
        }
        #expect(key.stringValue == "y")
        #expect(path(missing) == "[2]")
        // A string where a number goes.
        let mismatch = failure([String: Point].self, #"{"a":{"x":"one","y":2}}"#)
        guard case .typeMismatch(_, let context) = mismatch else {
            Issue.record("not typeMismatch: \(String(describing: mismatch))")
            return
        }
        #expect(path(mismatch) == ".a.x")
        #expect(context.debugDescription.contains("a string"))
        // Numbers that do not fit, an enum's unknown case, too few values, not JSON.
        #expect(failure(Int8.self, "300") != nil)
        #expect(failure(Int.self, "1.5") != nil)
        #expect(failure(UInt.self, "-1") != nil)
        #expect(failure(Shade.self, #""grey""#) != nil)
        #expect(failure(Point.self, "null") != nil)
        #expect(failure([Int].self, "[1,") != nil)
        #expect(failure(Int.self, "") != nil)
        guard case .dataCorrupted(let context) = failure([Int].self, "[1,,2]") else {
            Issue.record("not JSON is dataCorrupted")
            return
        }
        #expect(context.debugDescription.hasPrefix("not JSON"))
    }
}
