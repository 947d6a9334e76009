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

@Suite("Progressive JPEG at 1/8")
struct ProgressiveDCTests {
    @Test(
        "stopping once the DC coefficients are complete matches a full 1/8 decode",
        arguments: [
            "portrait-progressive-420.jpg", "tall-1x3-progressive-444.jpg", "orientation-3.jpg", "orientation-6.jpg",
        ])
    func dcOnly(name: String) throws {
        let path = Fixtures.sample(name)
        let info = try ImageProbe().probe(path: path)
        let target = Size(width: info.displayedSize.width / 16, height: info.displayedSize.height / 16)
        let storedTarget = info.orientation.swapsAxes ? target.transposed : target
        #expect(JPEGCodec.scaleNumerator(stored: info.storedSize, target: storedTarget) == 1)
        var full = ImageDecoder()
        full.stopsProgressiveAtDC = false
        let reference = try full.decode(path: path, info: info, target: target).bitmap
        let shortcut = try ImageDecoder().decode(path: path, info: info, target: target)
        #expect(shortcut.warnings.isEmpty)
        #expect(shortcut.bitmap.size == reference.size)
        let differences = zip(shortcut.bitmap.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        #expect(mean <= 0.5, "\(name): mean difference \(mean)")
        #expect(differences.max()! <= 8)
    }
}

@Suite("Fast decoding")
struct FastDecodingTests {
    @Test("fast decodes to at least the target, not twice it")
    func margin() {
        let stored = Size(width: 4000, height: 3000), target = Size(width: 500, height: 375)
        #expect(JPEGCodec.scaleNumerator(stored: stored, target: target) == 2)
        #expect(JPEGCodec.scaleNumerator(stored: stored, target: target, margin: 1) == 1)
        #expect(JPEGCodec.scaleNumerator(stored: stored, target: Size(width: 501, height: 375), margin: 1) == 2)
        var fast = ImageDecoder()
        fast.fast = true
        let info = ImageInfo(
            format: .jpeg, storedSize: stored, colorModel: .ycbcr, bitDepth: 8, hasAlpha: false, isProgressive: false)
        #expect(fast.workingMemory(info: info, target: target) == 500 * 375 * 3)
        #expect(ImageDecoder().workingMemory(info: info, target: target) == 1000 * 750 * 3)
    }

    @Test(
        "a progressive JPEG at 1/8 is read only to its first DC scan, close to the full decode",
        arguments: ["portrait-progressive-420.jpg", "tall-1x3-progressive-444.jpg", "orientation-6.jpg"])
    func firstDCScan(name: String) throws {
        let bytes = Fixtures.read(Fixtures.sample(name))!
        // Cut the file just after its first scan (at the second start-of-scan marker): the
        // fast decoder never reads further, the complete-DC one notices the end.
        let starts = (0..<bytes.count - 1).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }
        #expect(starts.count >= 2)
        let folder = TemporaryFolder()
        let cut = folder.write(Array(bytes.prefix(starts[1])), to: "cut.jpg")
        let info = try ImageProbe().probe(path: cut)
        // Small enough that both decoders shrink by 8.
        let target = Size(width: info.displayedSize.width / 16, height: info.displayedSize.height / 16)
        var fast = ImageDecoder()
        fast.fast = true
        let quick = try fast.decode(path: cut, info: info, target: target)
        #expect(quick.warnings.isEmpty, "\(quick.warnings)")
        let complete = try ImageDecoder().decode(path: cut, info: info, target: target)
        #expect(!complete.warnings.isEmpty)
        // Against the whole file decoded at 1/8: one bit of DC precision less.
        let whole = try ImageDecoder().decode(path: Fixtures.sample(name), info: info, target: target)
        #expect(quick.bitmap.size == whole.bitmap.size)
        let differences = zip(quick.bitmap.pixels, whole.bitmap.pixels).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        #expect(mean <= 3, "\(name): mean difference \(mean)")
    }
}
