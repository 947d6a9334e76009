import Testing
import WallCore
import _WallTestSupport

@testable import WallCodecs

/// A RAW file whose only preview is a bitmap (the Kodak DC50's 96x64 RGB thumbnail): LibRaw's
/// bitmap is read as the picture it is, and, being under 160 px, gives way to the sensor data.
@Suite("RAW bitmap previews", .enabled(if: Fixtures.corpora != nil))
struct RAWBitmapPreviewTests {
    static let path = (Fixtures.corpora ?? "") + "/raw/kodak-dc50.KDC"

    @Test("the bitmap preview is read in RGB, the same picture as the developed sensor data")
    func bitmap() throws {
        let opened = try RAWFile(path: Self.path, stage: .probe)
        let bitmap = try #require(opened.bitmap)
        #expect(bitmap.size == Size(width: 96, height: 64) && bitmap.alpha == .none)
        // Too small to draw: the probe develops the sensor data, and says why.
        let info = try ImageProbe().probe(path: Self.path)
        #expect(info.drawnFrom == "sensor, half size" && info.storedSize == Size(width: 384, height: 256))
        // The thumbnail shows the developed picture: each 4x4 block of the 384x256 development
        // has about the thumbnail's colour.
        let developed = try ImageDecoder().decode(path: Self.path, info: info).bitmap
        func difference(mirrored: Bool) -> Double {
            // Correlation-like: the mean difference after each picture's own mean is taken off,
            // so that tone differs without the picture differing.
            var pairs: [(Double, Double)] = []
            for y in 0..<64 {
                for x in 0..<96 {
                    let thumb = bitmap.pixel(x: mirrored ? 95 - x : x, y: y)
                    var sum = 0
                    for dy in 0..<4 {
                        for dx in 0..<4 { sum += Int(developed.pixel(x: 4 * x + dx, y: 4 * y + dy)[1]) }
                    }
                    pairs.append((Double(sum) / 16, Double(thumb[1])))
                }
            }
            let n = Double(pairs.count)
            let ma = pairs.map(\.0).reduce(0, +) / n, mb = pairs.map(\.1).reduce(0, +) / n
            let cov = pairs.map { ($0.0 - ma) * ($0.1 - mb) }.reduce(0, +)
            let va = pairs.map { ($0.0 - ma) * ($0.0 - ma) }.reduce(0, +)
            let vb = pairs.map { ($0.1 - mb) * ($0.1 - mb) }.reduce(0, +)
            return cov / (va * vb).squareRoot()
        }
        // Two developments of one sensor (the camera's and LibRaw's) differ in tone, not in
        // picture: their greens correlate strongly, and far less when one is mirrored.
        let same = difference(mirrored: false), mirrored = difference(mirrored: true)
        #expect(same > 0.8 && same > mirrored + 0.2, "correlation \(same), mirrored \(mirrored)")
    }
}
