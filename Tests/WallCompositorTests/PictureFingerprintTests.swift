import Foundation
import Testing
import WallCore
import _WallTestSupport

@testable import WallCompositor

/// Fingerprints that find copies and frames of one moment and tell other scenes apart, the same
/// on every CPU, and a sharpness that prefers the frame the camera held still.
@Suite("Picture fingerprints")
struct PictureFingerprintTests {
    @Test("a resized copy, a small view and a panned frame look alike; other scenes do not")
    func alike() {
        let scene = Scenes.picture(seed: 1)
        let print = PictureFingerprint(of: scene)
        let smaller = PictureFingerprint(of: Resampler.resize(scene, to: Size(width: 360, height: 240)))
        let thumbnail = PictureFingerprint(of: Resampler.resize(scene, to: Size(width: 120, height: 80)))
        let panned = PictureFingerprint(of: Scenes.picture(seed: 1, shift: 8))
        #expect(print.distance(to: smaller) <= 4 && print.colorDistance(to: smaller) <= 2)
        #expect(print.distance(to: thumbnail) <= 6 && print.isAlike(thumbnail, within: 10))
        #expect(print.isAlike(panned, within: 14), "panned: \(print.distance(to: panned)) bits")
        for seed in 2...12 {
            let other = PictureFingerprint(of: Scenes.picture(seed: seed))
            #expect(!print.isAlike(other, within: 14), "scene \(seed): \(print.distance(to: other)) bits")
        }
        #expect(print.distance(to: print) == 0 && print.colorDistance(to: print) == 0)
    }

    @Test("the same picture gives the same bits, pinned: integer arithmetic, no libm in the result")
    func pinned() {
        let print = PictureFingerprint(of: Scenes.picture(seed: 3, size: Size(width: 96, height: 64)))
        #expect(String(print.hash, radix: 16) == "5100fff5015503ff")
        // The cosines are rounded far from a half, so a last-bit difference in a libm cannot move one.
        for u in 0..<8 {
            for x in 0..<PictureFingerprint.hashGrid {
                let exact = cos(Double((2 * x + 1) * u) * Double.pi / 64) * 16384
                #expect(abs(abs(exact - exact.rounded(.down)) - 0.5) > 1e-6)
                #expect(PictureFingerprint.cosines[u * PictureFingerprint.hashGrid + x] == Int(exact.rounded()))
            }
        }
    }

    @Test("transparent parts count as black, whether the alpha is straight or premultiplied")
    func alpha() {
        var straight = Bitmap(size: Size(width: 64, height: 64), alpha: .straight, fill: [200, 100, 50, 255])
        for y in 0..<64 { for x in 0..<32 { straight.pixels[(y * 64 + x) * 4 + 3] = 0 } }
        var premultiplied = straight
        premultiplied.alpha = .premultiplied
        for y in 0..<64 { for x in 0..<32 { for c in 0..<3 { premultiplied.pixels[(y * 64 + x) * 4 + c] = 0 } } }
        #expect(PictureFingerprint(of: straight) == PictureFingerprint(of: premultiplied))
        #expect(PictureFingerprint(of: straight).colors[0] == 0 && PictureFingerprint(of: straight).colors[9] == 200)
    }

    @Test("a shaken frame is less sharp than a steady one of the same scene, at any size")
    func sharpness() {
        let steady = Scenes.picture(seed: 4)
        let shaken = Scenes.blurred(steady, radius: 2)
        #expect(PictureFingerprint.sharpness(of: steady) > PictureFingerprint.sharpness(of: shaken))
        // A decode larger than the measuring side is averaged down to it first.
        let large = Resampler.resize(steady, to: Size(width: 960, height: 640))
        #expect(PictureFingerprint.sharpness(of: large) > 0)
        #expect(PictureFingerprint.sharpness(of: Bitmap(size: Size(width: 2, height: 2), alpha: .none)) == 0)
        // A small picture (fewer inner cells than 256) is measured too.
        let small = Resampler.resize(steady, to: Size(width: 12, height: 8))
        #expect(PictureFingerprint.sharpness(of: small) >= 0)
    }

    @Test("pictures of one or no pixel still have a fingerprint")
    func tiny() {
        let one = Bitmap(size: Size(width: 1, height: 1), alpha: .none, fill: [10, 20, 30])
        #expect(PictureFingerprint(of: one).colors.count == 48)
        let none = Bitmap(size: Size(width: 0, height: 0), alpha: .none)
        #expect(PictureFingerprint(of: none).hash == PictureFingerprint(of: none).hash)
    }
}
