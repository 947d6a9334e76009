import Testing
import WallCore
import WallSamples
import _WallTestSupport

@testable import WallCodecs

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
