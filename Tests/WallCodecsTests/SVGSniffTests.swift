import Foundation
import Testing
import _WallTestSupport

@testable import WallCodecs

/// Telling an SVG from its first bytes: the quick answer from the first 256 bytes gives what the
/// whole head read as text gives, for every file at hand and for heads made to sit on its edges.
@Suite("SVG sniffing")
struct SVGSniffTests {
    /// Heads on the edges of the quick answer: a byte-order mark, white space up to and past the
    /// bytes it reads, a wide white-space character cut by its 256-byte window, binary bytes.
    static let edges: [(name: String, head: [UInt8], svg: Bool)] = {
        func spaces(_ n: Int) -> [UInt8] { [UInt8](repeating: 0x20, count: n) }
        let svg = Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)
        let lineSeparator: [UInt8] = [0xE2, 0x80, 0xA8]  // U+2028, white space, three bytes
        return [
            ("plain", svg, true),
            ("byte-order mark", [0xEF, 0xBB, 0xBF] + svg, true),
            ("190 spaces", spaces(190) + svg, true),
            ("250 spaces", spaces(250) + svg, true),
            ("400 spaces", spaces(400) + svg, true),
            ("U+2028 cut by the window", spaces(254) + lineSeparator + svg, true),
            ("U+2028 inside it", spaces(100) + lineSeparator + svg, true),
            ("a letter after 190 spaces", spaces(190) + Array("x<svg/>".utf8), false),
            ("a letter after 195 spaces", spaces(195) + Array("x<svg/>".utf8), false),
            ("a stray byte after 253 spaces", spaces(253) + [0xE2] + svg, false),
            ("text", Array("hello <svg/>".utf8), false),
            ("HTML", Array("<html><svg/></html>".utf8), false),
            ("empty", [], false),
            ("zeros", [UInt8](repeating: 0, count: 4096), false),
            ("a HEIF box", [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 100), false),
        ]
    }()

    @Test("heads on the quick answer's edges: the same answer as the whole reading, and the right one")
    func edges() {
        for edge in Self.edges {
            #expect(VectorCodec.isSVGDocument(edge.head) == edge.svg, "\(edge.name)")
            #expect(VectorCodec.isSVG(edge.head) == edge.svg, "\(edge.name)")
        }
    }

    @Test("every file of SampleImages and the corpora: the same answer as the whole reading")
    func everyFile() throws {
        let folders = [Fixtures.sampleImages] + (Fixtures.corpora.map { [$0] } ?? [])
        var read = 0
        for folder in folders {
            // Every file of SampleImages, and the corpora's first 300 (read whole as text, a
            // binary file's head is slow to read in a debug build).
            let files = (FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []).sorted()
            for name in files.prefix(folder == Fixtures.sampleImages ? files.count : 300) {
                let path = folder + "/" + name
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                    let bytes = FileManager.default.contents(atPath: path)
                else { continue }
                let head = [UInt8](bytes.prefix(65536))
                #expect(VectorCodec.isSVG(head) == VectorCodec.isSVGDocument(head), "\(path)")
                read += 1
            }
        }
        #expect(read > 50, "SampleImages holds more files than \(read)")
    }
}
