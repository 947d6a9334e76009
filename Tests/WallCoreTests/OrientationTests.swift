import Testing
import WallCore

@Suite("Orientation")
struct OrientationTests {
    @Test("every orientation maps displayed pixels one-to-one onto stored pixels", arguments: Orientation.allCases)
    func bijective(orientation: Orientation) {
        let displayed = Size(width: 5, height: 3)
        let stored = orientation.swapsAxes ? displayed.transposed : displayed
        var seen = Set<Int>()
        for y in 0..<displayed.height {
            for x in 0..<displayed.width {
                let (sx, sy) = orientation.storedPosition(ofDisplayedX: x, y: y, displayed: displayed)
                #expect((0..<stored.width).contains(sx) && (0..<stored.height).contains(sy))
                seen.insert(sy * stored.width + sx)
            }
        }
        #expect(seen.count == displayed.width * displayed.height)
    }

    @Test("the EXIF definitions of where stored row 0 and column 0 end up")
    func exifDefinitions() {
        let d = Size(width: 4, height: 6)  // displayed
        // 6: stored row 0 is the displayed right edge, stored column 0 the displayed top.
        #expect(Orientation.right.storedPosition(ofDisplayedX: 3, y: 0, displayed: d) == (0, 0))
        // 8: stored row 0 is the displayed left edge, stored column 0 the displayed bottom.
        #expect(Orientation.left.storedPosition(ofDisplayedX: 0, y: 5, displayed: d) == (0, 0))
        // 3: upside down.
        #expect(Orientation.down.storedPosition(ofDisplayedX: 0, y: 0, displayed: d) == (3, 5))
        // 2: mirrored, top stays top.
        #expect(Orientation.upMirrored.storedPosition(ofDisplayedX: 0, y: 0, displayed: d) == (3, 0))
        // 5: transposed.
        #expect(Orientation.leftMirrored.storedPosition(ofDisplayedX: 1, y: 2, displayed: d) == (2, 1))
        // 7: transverse: displayed top-left is stored bottom-right.
        #expect(Orientation.rightMirrored.storedPosition(ofDisplayedX: 0, y: 0, displayed: d) == (5, 3))
    }

    @Test("orienting a bitmap moves a marked pixel where the tag says")
    func orientBitmap() {
        // Stored 3x2, red pixel at stored (0, 0); orientation 6 shows it at the top-right.
        var stored = Bitmap(size: Size(width: 3, height: 2), alpha: .none)
        stored.pixels[0] = 255
        let shown = stored.oriented(.right)
        #expect(shown.size == Size(width: 2, height: 3))
        #expect(shown.pixel(x: 1, y: 0) == [255, 0, 0])
        #expect(shown.pixel(x: 0, y: 0) == [0, 0, 0])
    }

    @Test(
        "every orientation shows each pixel where its definition puts it, at any size",
        arguments: Orientation.allCases,
        [(37, 23, AlphaMode.none), (1, 5, .none), (70, 33, .straight), (1, 1, .straight)])
    func everyPixel(orientation: Orientation, stored: (width: Int, height: Int, alpha: AlphaMode)) {
        var image = Bitmap(size: Size(width: stored.width, height: stored.height), alpha: stored.alpha)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(stored.width)
        for i in image.pixels.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            image.pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        let shown = image.oriented(orientation)
        #expect(shown.size == orientation.displayedSize(ofStored: image.size))
        for y in 0..<shown.size.height {
            for x in 0..<shown.size.width {
                let at = orientation.storedPosition(ofDisplayedX: x, y: y, displayed: shown.size)
                #expect(shown.pixel(x: x, y: y) == image.pixel(x: at.x, y: at.y), "(\(x), \(y))")
            }
        }
    }
}
