import Testing
import WallCore

@Suite("Names as bytes")
struct SystemPathTests {
    @Test("every sequence of bytes has one String and gives its bytes back whole")
    func roundTrip() {
        var generator = SystemRandomNumberGenerator()
        var seen: [String: [UInt8]] = [:]
        for length in 0..<400 {
            let bytes = (0..<(length % 24)).map { _ in UInt8.random(in: 1...255, using: &generator) }
            let text = SystemPath.string(bytes)
            #expect(SystemPath.bytes(text) == bytes)
            #expect(Array(text.systemPath.dropLast().map { UInt8(bitPattern: $0) }) == bytes)
            if let other = seen[text] { #expect(other == bytes, "two byte sequences, one String") }
            seen[text] = bytes
        }
        // The private range's own scalars, written as UTF-8, are kept as bytes too.
        let own = Array("a\u{10FFFC}b".utf8)
        #expect(SystemPath.bytes(SystemPath.string(own)) == own)
        #expect(SystemPath.string(own) != SystemPath.string([0x61, 0xFC, 0x62]))
    }

    @Test("UTF-8 names are themselves; a Latin-1 byte is shown as U+FFFD")
    func shown() {
        #expect(SystemPath.string(Array("Urlaub_München.jpg".utf8)) == "Urlaub_München.jpg")
        let latin = SystemPath.string(Array("Urlaub_M".utf8) + [0xFC] + Array("nchen.jpg".utf8))
        #expect(latin != "Urlaub_M\u{FFFD}nchen.jpg")
        #expect(latin.displayed == "Urlaub_M\u{FFFD}nchen.jpg")
        #expect("Urlaub_München.jpg".displayed == "Urlaub_München.jpg")
        // Overlong and surrogate encodings are not UTF-8: kept as bytes.
        for bytes: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            #expect(SystemPath.bytes(SystemPath.string(bytes)) == bytes)
            #expect(SystemPath.string(bytes).displayed.unicodeScalars.allSatisfy { $0 == "\u{FFFD}" })
        }
    }
}
