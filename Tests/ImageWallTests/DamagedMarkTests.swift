import Foundation
import ImageWall
import Synchronization
import Testing
import WallCodecs
import WallCore
import WallLayout
import WallReview
import WallSamples
import _WallTestSupport

@Suite("Damaged files, marked")
struct DamagedMarkTests {
    let folder = TemporaryFolder()

    /// A PNG with a valid header whose image data is zeros and junk: zlib's checksum fails,
    /// and what libpng inflates of it is black.
    static func garbagePNG() -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            }
            return ~crc
        }
        let header = bigEndian(200) + bigEndian(150) + [8, 2, 0, 0, 0]
        let junk = [UInt8](repeating: 0, count: 100) + (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", junk)
            + chunk("IEND", [])
    }

    @Test("a tile drawn from a damaged file carries a red frame and DAMAGED, is recorded and counted")
    func marked() throws {
        folder.write(Self.garbagePNG(), to: "a-garbage.png")
        folder.write(Fixtures.read(Fixtures.sample("png-rgb.png"))!, to: "b-whole.png")
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (600, 2)
        let manifest = try Wall(inputs: [folder.path]).render(to: folder.file("d.png"), options: options)
        let damaged = manifest.tiles[0], whole = manifest.tiles[1]
        #expect(damaged.damaged == true && damaged.placeholder == nil, "\(damaged)")
        #expect(damaged.warnings == ["IDAT: ADLER32 checksum mismatch"], "libpng's words, its chunk named once")
        #expect(whole.damaged == nil)
        let sheet = try SheetDiff.load(folder.file("d.png"))
        // The frame is red at every edge; inside, the picture (black) shows.
        for (x, y) in [
            (damaged.x, damaged.y + damaged.height / 2), (damaged.x + damaged.width - 1, damaged.y + 5),
            (damaged.x + damaged.width / 2, damaged.y), (damaged.x + damaged.width / 2, damaged.y + damaged.height - 1),
        ] {
            let pixel = sheet.pixel(x: x, y: y)
            #expect(pixel[0] > 150 && pixel[1] < 60 && pixel[2] < 60, "(\(x), \(y)): \(pixel)")
        }
        #expect(sheet.pixel(x: damaged.x + damaged.width / 2, y: damaged.y + damaged.height / 3) == [0, 0, 0])
        // "DAMAGED" in white in the bottom-left corner.
        var white = 0
        for y in damaged.y + damaged.height * 3 / 4..<damaged.y + damaged.height {
            for x in damaged.x..<damaged.x + damaged.width / 2 where sheet.pixel(x: x, y: y).allSatisfy({ $0 > 200 }) {
                white += 1
            }
        }
        #expect(white > 20, "the label's letters")
        // The whole file's tile has no frame.
        #expect(sheet.pixel(x: whole.x, y: whole.y + whole.height / 2) != sheet.pixel(x: damaged.x, y: damaged.y))
        // With --strict the damaged file is refused: a placeholder, not a marked picture.
        options.limits.strict = true
        let strict = try Wall(inputs: [folder.path]).render(to: folder.file("s.png"), options: options)
        #expect(strict.tiles[0].placeholder?.contains("damaged (--strict)") == true && strict.tiles[0].damaged == nil)
    }
}
