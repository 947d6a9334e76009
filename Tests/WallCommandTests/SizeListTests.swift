import Testing
import WallCore

@testable import WallCommand

/// `layout --sizes`: the sizes a text file gives, read in one pass over its bytes.
@Suite("Sizes files")
struct SizeListTests {
    func sizes(_ text: String) throws -> [Size] { try SizeList.parse(Array(text.utf8), name: "s.txt") }

    /// The message of the error reading `text` gives.
    func problem(_ text: String) -> String {
        do {
            _ = try sizes(text)
            return "no error"
        } catch {
            return (error as? SizeList.ParseError)?.message ?? "\(error)"
        }
    }

    @Test("fields apart by spaces, tabs, commas and CRs; comments, blank lines and the last line ignored as empty")
    func read() throws {
        let text = "# width height\n4000 3000\r\n\n  3000,\t4000  # portrait\n+6000 1500\n\t\n#\n7 8"
        #expect(
            try sizes(text) == [
                Size(width: 4000, height: 3000), Size(width: 3000, height: 4000), Size(width: 6000, height: 1500),
                Size(width: 7, height: 8),
            ])
        #expect(try sizes("1 2\n") == [Size(width: 1, height: 2)])
        #expect(try sizes("2147483647 1") == [Size(width: 2_147_483_647, height: 1)])
    }

    @Test("every line that is not two positive numbers is named, with its number and its text")
    func problems() {
        #expect(problem("1 2\n4000 x\n") == #"s.txt: line 2: expected "WIDTH HEIGHT", got "4000 x""#)
        #expect(problem("1 2 3") == #"s.txt: line 1: expected "WIDTH HEIGHT", got "1 2 3""#)
        #expect(problem("\n\n5#6 7\n") == #"s.txt: line 3: expected "WIDTH HEIGHT", got "5#6 7""#)
        #expect(problem("1 2\r\n- 3\r\n") == "s.txt: line 2: expected \"WIDTH HEIGHT\", got \"- 3\r\"")
        #expect(
            problem("99999999999999999999 1")
                == #"s.txt: line 1: expected "WIDTH HEIGHT", got "99999999999999999999 1""#)
        #expect(problem("1 2\n0 5") == "s.txt: line 2: size 0x5 must be positive")
        #expect(problem("-3 5") == "s.txt: line 1: size -3x5 must be positive")
        #expect(problem("2147483648 5") == "s.txt: line 1: size 2147483648x5 must be positive")
        #expect(problem("# nothing\n\n") == "s.txt: no sizes")
        #expect(problem("") == "s.txt: no sizes")
    }
}
