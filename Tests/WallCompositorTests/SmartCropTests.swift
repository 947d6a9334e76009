import Testing
import WallCore

@testable import WallCompositor

/// Crops that follow the content: the window of most interest along the axis a crop cuts, found
/// with integer arithmetic alone.
@Suite("Smart crops")
struct SmartCropTests {
    /// A 300×100 flat grey picture with a detailed patch (a checkerboard of skin tone and dark
    /// brown) from x = `patch` to `patch` + 60.
    static func picture(patch: Int?) -> Bitmap {
        var bitmap = Bitmap(size: Size(width: 300, height: 100), alpha: .none, fill: [128, 128, 128])
        if let patch {
            for y in 20..<80 {
                for x in patch..<(patch + 60) {
                    let light = (x / 4 + y / 4) % 2 == 0
                    let at = (y * 300 + x) * 3
                    bitmap.pixels[at..<at + 3] = light ? [224, 172, 140] : [70, 40, 30]
                }
            }
        }
        return bitmap
    }

    let shown = Size(width: 300, height: 100)
    let middle = Region(x: 110, y: 0, width: 80, height: 100)

    @Test(
        "the crop moves over the detail, wherever it is, by either measure",
        arguments: [SmartCrop.Measure.attention, .entropy])
    func followsDetail(measure: SmartCrop.Measure) {
        for patch in [10, 120, 230] {
            let placed = SmartCrop.place(middle, shown: shown, in: Self.picture(patch: patch), by: measure)
            #expect(placed.width == middle.width && placed.height == middle.height && placed.y == 0)
            // The 60 px patch inside the 80 px window: whole by attention; by entropy at least four
            // fifths (the cells across its edges, half patch and half grey, are tones of their own).
            let kept = min(placed.x + placed.width, Double(patch + 60)) - max(placed.x, Double(patch))
            #expect(kept >= (measure == .attention ? 60 : 48), "patch at \(patch): \(placed)")
            guard measure == .attention else { continue }
            #expect(
                placed.x <= Double(patch) && placed.x + placed.width >= Double(patch + 60),
                "patch at \(patch): \(placed)")
        }
    }

    @Test("a picture without detail keeps the middle; the choice is the same from a decode at any scale")
    func flatAndScale() {
        let flat = SmartCrop.place(middle, shown: shown, in: Self.picture(patch: nil), by: .attention)
        #expect(abs(flat.x - 110) <= Double(shown.width) / Double(SmartCrop.gridSide))
        // The same picture decoded at half size (each 2×2 block averaged) gives the same crop.
        let full = Self.picture(patch: 200)
        var half = Bitmap(size: Size(width: 150, height: 50), alpha: .none)
        for y in 0..<50 {
            for x in 0..<150 {
                for c in 0..<3 {
                    let sum = [(0, 0), (1, 0), (0, 1), (1, 1)].reduce(0) {
                        $0 + Int(full.pixels[((2 * y + $1.1) * 300 + 2 * x + $1.0) * 3 + c])
                    }
                    half.pixels[(y * 150 + x) * 3 + c] = UInt8((sum + 2) / 4)
                }
            }
        }
        let fromFull = SmartCrop.place(middle, shown: shown, in: full, by: .attention)
        let fromHalf = SmartCrop.place(middle, shown: shown, in: half, by: .attention)
        #expect(abs(fromFull.x - fromHalf.x) <= 2 * Double(shown.width) / Double(SmartCrop.gridSide))
        #expect(fromFull.x <= 200 && fromFull.x + 80 >= 260)
    }

    @Test("a crop that cuts nothing stays; one that cuts rows moves up and down")
    func axes() {
        let whole = Region(x: 0, y: 0, width: 300, height: 100)
        #expect(SmartCrop.place(whole, shown: shown, in: Self.picture(patch: 10), by: .attention) == whole)
        // The picture turned: a 100×300 picture with the patch near the bottom, cut to 100×80.
        let tall = Self.picture(patch: 230)
        var turned = Bitmap(size: Size(width: 100, height: 300), alpha: .none)
        for y in 0..<300 {
            for x in 0..<100 {
                for c in 0..<3 { turned.pixels[(y * 100 + x) * 3 + c] = tall.pixels[(x * 300 + y) * 3 + c] }
            }
        }
        let band = Region(x: 0, y: 110, width: 100, height: 80)
        let placed = SmartCrop.place(band, shown: Size(width: 100, height: 300), in: turned, by: .attention)
        #expect(placed.x == 0 && placed.y <= 230 && placed.y + 80 >= 290)
    }

    @Test("a subject small enough for many windows is centred in the one chosen, whatever the detail beside it")
    func subjectCentred() {
        // The detail at 10-70; a face at 200-220: every window from 140 to 200 holds it whole.
        let face = Region(x: 200, y: 30, width: 20, height: 20)
        let placed = SmartCrop.place(
            middle, shown: shown, in: Self.picture(patch: 10), by: .attention, subjects: [face])
        #expect(abs(placed.x + placed.width / 2 - 210) <= 2 * Double(shown.width) / Double(SmartCrop.gridSide))
        // Two faces: their middle, weighted by area.
        let pair = [Region(x: 160, y: 30, width: 10, height: 10), Region(x: 220, y: 30, width: 10, height: 10)]
        let both = SmartCrop.place(middle, shown: shown, in: Self.picture(patch: 10), by: .entropy, subjects: pair)
        #expect(abs(both.x + both.width / 2 - 195) <= 2 * Double(shown.width) / Double(SmartCrop.gridSide))
    }

    @Test("log2 in fixed point is exact at powers of two and within a unit elsewhere")
    func fixedLog() {
        #expect(FixedLog.log2(1) == 0)
        #expect(FixedLog.log2(2) == 65536)
        #expect(FixedLog.log2(1024) == 10 * 65536)
        // log2(3) = 1.5849625…, log2(1000) = 9.9657842…
        #expect(abs(FixedLog.log2(3) - 103872) <= 1)
        #expect(abs(FixedLog.log2(1000) - 653_117) <= 1)
        #expect(FixedLog.nLog2n(0) == 0 && FixedLog.nLog2n(1) == 0 && FixedLog.nLog2n(4) == 4 * 2 * 65536)
    }
}
