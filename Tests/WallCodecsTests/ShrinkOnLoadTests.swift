import Testing
import WallCore
import WallSamples
import _WallTestSupport

@testable import WallCodecs

@Suite("PNG and HEIF shrink-on-load")
struct ShrinkOnLoadTests {
    /// Box means of a full decode, premultiplied while averaging: the reference.
    func reference(_ full: Bitmap, kx: Int, ky: Int) -> Bitmap {
        let w = (full.size.width + kx - 1) / kx, h = (full.size.height + ky - 1) / ky
        let channels = full.channels
        var out = Bitmap(size: Size(width: w, height: h), alpha: full.alpha)
        for y in 0..<h {
            for x in 0..<w {
                var sums = [Double](repeating: 0, count: 4)
                var n = 0.0
                for sy in (y * ky)..<min(full.size.height, (y + 1) * ky) {
                    for sx in (x * kx)..<min(full.size.width, (x + 1) * kx) {
                        let p = full.pixel(x: sx, y: sy)
                        let a = channels == 4 ? Double(p[3]) : 255
                        for c in 0..<3 { sums[c] += Double(p[c]) * a }
                        sums[3] += a
                        n += 1
                    }
                }
                let at = (y * w + x) * channels
                for c in 0..<3 { out.pixels[at + c] = sums[3] == 0 ? 0 : UInt8((sums[c] / sums[3]).rounded()) }
                if channels == 4 { out.pixels[at + 3] = UInt8((sums[3] / n).rounded()) }
            }
        }
        return out
    }

    @Test(
        "rows are box-averaged as they arrive, matching a full decode averaged afterwards",
        arguments: [
            "png-rgb.png", "png-rgba.png", "png-rgb-16bit.png", "png-gray-alpha.png", "png-palette-trns.png",
            "heic-rotated-6.heic", "avif-alpha.avif",
        ])
    func matchesReference(name: String) throws {
        let path = Fixtures.sample(name)
        let info = try ImageProbe().probe(path: path)
        let full = try ImageDecoder().decode(path: path, info: info).bitmap
        let target = Size(width: info.displayedSize.width / 7, height: info.displayedSize.height / 7)
        let shrunk = try ImageDecoder().decode(path: path, info: info, target: target)
        #expect(shrunk.warnings.isEmpty)
        let kx = info.storedSize.width / (2 * target.width), ky = info.storedSize.height / (2 * target.height)
        #expect(kx >= 3 && ky >= 3)
        let expected = reference(full, kx: kx, ky: ky)
        #expect(shrunk.bitmap.size == expected.size)
        let worst = zip(shrunk.bitmap.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 99
        #expect(worst <= 1, "\(name): off by \(worst)")
    }

    @Test("a truncated PNG shrinks what arrived and greys the rest")
    func truncated() throws {
        let folder = TemporaryFolder()
        let png = Fixtures.read(Fixtures.sample("png-rgb.png"))!
        let path = folder.write(Array(png.prefix(png.count / 2)), to: "half.png")
        let info = try ImageProbe().probe(path: path)
        let decoded = try ImageDecoder().decode(path: path, info: info, target: Size(width: 42, height: 28))
        #expect(decoded.warnings.first?.contains("rows") == true)
        #expect(decoded.bitmap.size == Size(width: 84, height: 56))
        #expect(decoded.bitmap.pixel(x: 4, y: 4) == [204, 51, 51])  // the red corner
        #expect(decoded.bitmap.pixel(x: 42, y: 55) == [128, 128, 128])  // never arrived
    }
}
