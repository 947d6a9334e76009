import Testing
import WallCompositor
import WallCore

@Suite("Cell painting")
struct CellPainterTests {
    let red = Bitmap(size: Size(width: 40, height: 30), alpha: .none, fill: [255, 0, 0])

    @Test("an undecorated image is copied into its cell, the rest left transparent")
    func plain() {
        let cell = CellPainter.paint(size: Size(width: 50, height: 40), image: red, at: Point(x: 5, y: 2))
        #expect(cell.alpha == .premultiplied)
        #expect(cell.pixel(x: 4, y: 10) == [0, 0, 0, 0])
        #expect(cell.pixel(x: 5, y: 2) == [255, 0, 0, 255])
        #expect(cell.pixel(x: 44, y: 31) == [255, 0, 0, 255])
        #expect(cell.pixel(x: 45, y: 31) == [0, 0, 0, 0])
    }

    @Test("rounded corners: transparent at the corner, opaque along the edges, anti-aliased between")
    func corners() {
        let cell = CellPainter.paint(size: red.size, image: red, style: TileStyle(cornerRadius: 10))
        #expect(cell.pixel(x: 0, y: 0)[3] == 0)
        #expect(cell.pixel(x: 39, y: 29)[3] == 0)
        #expect(cell.pixel(x: 20, y: 0)[3] == 255)  // straight top edge
        #expect(cell.pixel(x: 0, y: 15)[3] == 255)  // straight left edge
        #expect(cell.pixel(x: 20, y: 15) == [255, 0, 0, 255])
        let edge = (0..<10).map { cell.pixel(x: $0, y: 2)[3] }
        #expect(edge.contains { $0 > 0 && $0 < 255 })  // a soft edge, not a staircase
        // Premultiplied: colour never exceeds alpha.
        for y in 0..<30 { for x in 0..<40 { let p = cell.pixel(x: x, y: y); #expect(p[0] <= p[3]) } }
    }

    @Test("a border runs just inside the edge, the image inside it")
    func border() {
        let style = TileStyle(border: 3, borderColor: RGBAColor(red: 0, green: 0, blue: 255))
        let cell = CellPainter.paint(size: red.size, image: red, style: style)
        for (x, y) in [(0, 15), (2, 15), (20, 0), (20, 29), (39, 15), (0, 0)] {
            #expect(cell.pixel(x: x, y: y) == [0, 0, 255, 255], "(\(x), \(y))")
        }
        #expect(cell.pixel(x: 3, y: 15) == [255, 0, 0, 255])
        #expect(cell.pixel(x: 20, y: 3) == [255, 0, 0, 255])
    }

    @Test("text never leaves its clip box")
    func clipping() {
        let mask = CoverageMask(size: Size(width: 30, height: 10), coverage: [UInt8](repeating: 255, count: 300))
        let stamp = TextStamp(
            mask: mask, origin: Point(x: -5, y: 2), color: .white, clip: Rect(x: 0, y: 4, width: 20, height: 5))
        let cell = CellPainter.paint(size: Size(width: 40, height: 20), image: nil, texts: [stamp])
        for y in 0..<20 {
            for x in 0..<40 {
                let inside = x < 20 && y >= 4 && y < 9
                #expect(cell.pixel(x: x, y: y) == (inside ? [255, 255, 255, 255] : [0, 0, 0, 0]), "(\(x), \(y))")
            }
        }
    }
}
