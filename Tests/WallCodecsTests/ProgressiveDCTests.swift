import Testing
import WallCore
import WallSamples
import _WallTestSupport

@testable import WallCodecs

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
