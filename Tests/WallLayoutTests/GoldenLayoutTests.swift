import Testing
import WallCore
import _WallTestSupport

@testable import WallLayout

/// Small walls whose frames are worked out by hand.
@Suite("Layouts: literal frames")
struct GoldenLayoutTests {
    func config(_ kind: LayoutKind, width: Int? = 100, columns: Int = 3, gap: Int = 10, padding: Int = 5)
        -> LayoutConfiguration
    {
        var c = LayoutConfiguration(kind: kind)
        c.width = width
        c.columns = columns
        c.columnGap = gap
        c.rowGap = gap
        c.padding = Insets(all: padding)
        return c
    }

    func close(_ a: Region?, _ b: Region) -> Bool {
        guard let a else { return false }
        return [a.x - b.x, a.y - b.y, a.width - b.width, a.height - b.height].allSatisfy { abs($0) < 1e-9 }
    }

    let five = [
        Size(width: 100, height: 100), Size(width: 200, height: 100), Size(width: 100, height: 300),
        Size(width: 100, height: 50), Size(width: 10, height: 10),
    ]

    @Test("masonry: shortest column, leftmost on ties")
    func masonry() throws {
        // 100 - 2*5 padding - 2*10 gaps = 70 px for 3 columns: 23, 23, 24.
        let result = try config(.masonry).arrange(five)
        #expect(
            result.frames == [
                Rect(x: 5, y: 5, width: 23, height: 23),
                Rect(x: 38, y: 5, width: 23, height: 12),  // 11.5 rounds up
                Rect(x: 71, y: 5, width: 24, height: 72),
                Rect(x: 38, y: 27, width: 23, height: 12),  // column 1 ends highest (17 + 10)
                Rect(x: 5, y: 38, width: 23, height: 23),  // then column 0 (28 + 10 = 38 < 49)
            ])
        #expect(result.canvas == Size(width: 100, height: 82))  // column 2: 5 + 72 + 5 padding
    }

    @Test("masonry: a tie tolerance keeps reading order")
    func tieTolerance() throws {
        // Heights 30, 31, 30: the next image goes to column 0 (30) or, with tolerance 0, also 0;
        // heights 31, 30, 30 go to column 1 without tolerance and column 0 with 1 px of it.
        var c = config(.masonry, width: 90, gap: 0, padding: 0)
        let sizes = [
            Size(width: 30, height: 31), Size(width: 30, height: 30), Size(width: 30, height: 30),
            Size(width: 30, height: 30),
        ]
        #expect(try c.arrange(sizes).frames[3].x == 30)
        c.tieTolerance = 1
        #expect(try c.arrange(sizes).frames[3].x == 0)
    }

    @Test("columns: image i goes to column i mod N")
    func columns() throws {
        let result = try config(.columns).arrange(five)
        #expect(result.frames.map(\.x) == [5, 38, 71, 5, 38])
        #expect(result.frames.map(\.y) == [5, 5, 5, 38, 27])
    }

    @Test("grid: uniform cells, cover crops, contain letterboxes, extra gap after a row")
    func grid() throws {
        var c = config(.grid, width: 70, columns: 2, gap: 10, padding: 0)  // columns 30 wide
        c.cellAspect = AspectRatio(width: 3, height: 2)  // cells 30x20
        c.rowGapsAfter = [1: 7]
        let sizes = [Size(width: 300, height: 100), Size(width: 30, height: 20), Size(width: 100, height: 100)]
        let cover = try c.arrange(sizes)
        #expect(
            cover.frames == [
                Rect(x: 0, y: 0, width: 30, height: 20), Rect(x: 40, y: 0, width: 30, height: 20),
                Rect(x: 0, y: 37, width: 30, height: 20),
            ])
        #expect(cover.placements[0].crop == Region(x: 75, y: 0, width: 150, height: 100))  // 3:2 out of 3:1, centred
        #expect(cover.placements[1].crop == nil)
        #expect(close(cover.placements[2].crop, Region(x: 0, y: 100.0 / 6, width: 100, height: 100.0 * 2 / 3)))
        #expect(cover.canvas == Size(width: 70, height: 57))
        c.fit = .contain
        let contain = try c.arrange(sizes)
        #expect(contain.frames[0] == Rect(x: 0, y: 5, width: 30, height: 10))  // letterboxed top and bottom
        #expect(contain.frames[2] == Rect(x: 5, y: 37, width: 20, height: 20))  // pillarboxed
        #expect(contain.placements.allSatisfy { $0.crop == nil })
        c.gravity = .north
        c.fit = .cover
        #expect(close(try c.arrange(sizes).placements[2].crop, Region(x: 0, y: 0, width: 100, height: 100.0 * 2 / 3)))
    }

    @Test("grid down-first: each page's columns fill top to bottom, the last page's as short as they can be")
    func gridDownFirst() throws {
        var c = config(.grid, width: 70, columns: 2, gap: 10, padding: 0)  // cells 30x30 at x 0 and 40
        c.order = .down
        let seven = Array(repeating: Size(width: 10, height: 10), count: 7)
        // One page: 4 rows (7 images in 2 columns), column 0 holds 0...3, column 1 holds 4...6.
        let single = try c.arrange(seven)
        #expect(single.frames.map(\.x) == [0, 0, 0, 0, 40, 40, 40])
        #expect(single.frames.map(\.y) == [0, 40, 80, 120, 0, 40, 80])
        // Pages of 70 px hold two rows: 0, 1 | 2, 3 on the first page, then 4, 5 | 6.
        c.maxPageHeight = 70
        let paged = try c.arrange(seven)
        #expect(paged.placements.map(\.page) == [0, 0, 0, 0, 1, 1, 1])
        #expect(paged.frames.map(\.x) == [0, 0, 40, 40, 0, 0, 40])
        #expect(paged.frames.map(\.y) == [0, 40, 0, 40, 0, 40, 0])
        // Across-first keeps reading order: the same pages, row by row.
        c.order = .across
        let across = try c.arrange(seven)
        #expect(across.frames.map(\.x) == [0, 40, 0, 40, 0, 40, 0])
        #expect(across.placements.map(\.page) == [0, 0, 0, 0, 1, 1, 1])
        // A gap after row 1 (each section's rows count across pages) leaves one row on page one.
        c.order = .down
        c.rowGapsAfter = [1: 5]
        let gapped = try c.arrange(seven)
        #expect(gapped.placements.map(\.page) == [0, 0, 1, 1, 1, 1, 2])
        #expect(gapped.frames.map(\.x) == [0, 40, 0, 0, 40, 40, 0])
    }

    @Test("no upscale: an image smaller than its tile keeps its own size, centred; larger ones fill as before")
    func noUpscale() throws {
        var grid = config(.grid, width: 70, columns: 2, gap: 10, padding: 0)  // cells 30x30 at x 0 and 40
        grid.upscale = false
        let sizes = [Size(width: 10, height: 10), Size(width: 100, height: 20), Size(width: 90, height: 60)]
        let cells = try grid.arrange(sizes)
        #expect(cells.frames[0] == Rect(x: 10, y: 10, width: 10, height: 10))
        // Cover crops 20x20 out of 100x20: drawn 20x20 in the middle of its cell, the crop kept.
        #expect(cells.frames[1] == Rect(x: 45, y: 5, width: 20, height: 20))
        #expect(cells.placements[1].crop == Region(x: 40, y: 0, width: 20, height: 20))
        #expect(cells.frames[2] == Rect(x: 0, y: 40, width: 30, height: 30))  // 60x60 of it shrinks
        #expect(
            cells.placements.map(\.cell)
                == (try config(.grid, width: 70, columns: 2, gap: 10, padding: 0)
                .arrange(sizes)).placements.map(\.cell))
        var masonry = config(.masonry)  // columns 23, 23, 24 wide
        masonry.upscale = false
        let small = try masonry.arrange([Size(width: 11, height: 5), Size(width: 46, height: 46)])
        // In columns the tile is no taller than the image: 23x5, the image centred across it.
        #expect(small.placements[0].cell == Rect(x: 5, y: 5, width: 23, height: 5))
        #expect(small.frames[0] == Rect(x: 11, y: 5, width: 11, height: 5))
        #expect(small.frames[1] == Rect(x: 38, y: 5, width: 23, height: 23))
    }

    @Test("even bottom: the longer column's last tiles give up its excess, none more than a quarter")
    func evenBottom() throws {
        var c = config(.masonry, width: 100, columns: 2, gap: 0, padding: 0)  // two columns 50 wide
        c.evenBottom = true
        let sizes = [Size(width: 50, height: 100), Size(width: 50, height: 60), Size(width: 50, height: 50)]
        let level = try c.arrange(sizes)
        #expect(
            level.frames == [
                Rect(x: 0, y: 0, width: 50, height: 100), Rect(x: 50, y: 0, width: 50, height: 60),
                Rect(x: 50, y: 60, width: 50, height: 40),
            ])
        #expect(level.placements[2].crop == Region(x: 0, y: 5, width: 50, height: 40))  // centred by gravity
        #expect(level.canvas == Size(width: 100, height: 100))
        // Shares in proportion to height among the fewest last tiles; quarters when they cannot.
        #expect(LayoutEngine.losses(excess: 30, heights: [100, 200]) == [0, 30])
        #expect(LayoutEngine.losses(excess: 60, heights: [100, 200]) == [20, 40])
        #expect(LayoutEngine.losses(excess: 100, heights: [100, 200]) == [25, 50])
        #expect(LayoutEngine.losses(excess: 7, heights: [3, 3, 10]) == [0, 0, 2])
        // An image not enlarged loses its rows only, at its own width: a 20x40 in a 50 px
        // column is a 50x40 tile, cut to 30 rows to end level with the 30 px column beside it.
        var small = c
        small.upscale = false
        let kept = try small.arrange([Size(width: 20, height: 40), Size(width: 50, height: 30)])
        #expect(kept.frames[0] == Rect(x: 15, y: 0, width: 20, height: 30))
        #expect(kept.placements[0].crop == Region(x: 0, y: 5, width: 20, height: 30))
        c.evenBottom = false
        #expect(try c.arrange(sizes).canvas.height == 110)
        c.kind = .grid
        c.evenBottom = true
        #expect(throws: LayoutError.self) { try c.arrange(sizes) }
    }

    @Test("span wide: a panorama spans columns under their lowest top, the short column's last tile grown to meet it")
    func spanWide() throws {
        var c = config(.masonry, width: 210, columns: 2, gap: 10, padding: 0)  // columns 100 wide, at 0 and 110
        c.spanWide = 1.5
        let sizes = [
            Size(width: 100, height: 100), Size(width: 100, height: 80), Size(width: 420, height: 100),
            Size(width: 100, height: 100),
        ]
        let wall = try c.arrange(sizes)
        #expect(
            wall.frames == [
                Rect(x: 0, y: 0, width: 100, height: 100), Rect(x: 110, y: 0, width: 100, height: 100),
                Rect(x: 0, y: 110, width: 210, height: 50), Rect(x: 0, y: 170, width: 100, height: 100),
            ])
        #expect(wall.placements[1].crop == Region(x: 10, y: 0, width: 80, height: 80))  // grown: its sides cut
        #expect(wall.placements[2].crop == nil)
        // Without it the panorama keeps one column; a second one right under the first, with
        // no tile of its own column to grow, waits, then falls back to one column cut to 3:1.
        c.spanWide = nil
        #expect(try c.arrange(sizes).frames[2].width == 100)
        c.spanWide = 1.5
        let twice = try c.arrange([
            Size(width: 420, height: 100), Size(width: 100, height: 100), Size(width: 420, height: 100),
        ])
        #expect(twice.frames[0] == Rect(x: 0, y: 0, width: 210, height: 50))
        #expect(twice.frames[2] == Rect(x: 110, y: 60, width: 100, height: 33))
        // Cut to the tile's 100:33.
        #expect(close(twice.placements[2].crop, Region(x: 210 - 5000.0 / 33, y: 0, width: 10000.0 / 33, height: 100)))
        c.kind = .columns
        #expect(throws: LayoutError.self) { try c.arrange(sizes) }
    }

    @Test("justified: rows fill the width exactly; a short last row stays at the target height")
    func justified() throws {
        var c = config(.justified, width: 210, gap: 10, padding: 0)
        c.rowHeight = 100
        // Two 1:1 images fill 210 at exactly 100 px (100 + 10 + 100); the third is alone.
        let result = try c.arrange([
            Size(width: 50, height: 50), Size(width: 80, height: 80), Size(width: 150, height: 100),
        ])
        #expect(
            result.frames == [
                Rect(x: 0, y: 0, width: 100, height: 100), Rect(x: 110, y: 0, width: 100, height: 100),
                Rect(x: 0, y: 110, width: 150, height: 100),
            ])
        c.lastRow = .center
        #expect(
            try c.arrange([Size(width: 50, height: 50), Size(width: 80, height: 80), Size(width: 150, height: 100)])
                .frames[2].x == 30)
        c.lastRow = .justify
        let stretched = try c.arrange([
            Size(width: 50, height: 50), Size(width: 80, height: 80), Size(width: 150, height: 100),
        ])
        #expect(stretched.frames[2] == Rect(x: 0, y: 110, width: 210, height: 140))
    }

    @Test("justified: a lone tall image is clamped and cropped")
    func justifiedClamp() throws {
        var c = config(.justified, width: 300, gap: 0, padding: 0)
        c.rowHeight = 100
        c.maxRowHeightRatio = 1.5
        c.lastRow = .justify
        let result = try c.arrange([Size(width: 100, height: 200)])
        #expect(result.frames == [Rect(x: 0, y: 0, width: 300, height: 150)])
        #expect(result.placements[0].crop == Region(x: 0, y: 75, width: 100, height: 50))
    }

    @Test("mosaic: big left, rows of three, big right, rows of three")
    func mosaic() throws {
        let c = config(.mosaic, width: 320, columns: 3, gap: 10, padding: 0)  // columns 100 wide
        let result = try c.arrange(Array(repeating: Size(width: 4, height: 3), count: 16))
        let f = result.frames
        #expect(f[0] == Rect(x: 0, y: 0, width: 210, height: 210))
        #expect(f[1] == Rect(x: 220, y: 0, width: 100, height: 100))
        #expect(f[2] == Rect(x: 220, y: 110, width: 100, height: 100))
        #expect(
            f[3...8].map { [$0.x, $0.y] } == [[0, 220], [110, 220], [220, 220], [0, 330], [110, 330], [220, 330]])
        #expect(f[9] == Rect(x: 0, y: 440, width: 100, height: 100))
        #expect(f[10] == Rect(x: 110, y: 440, width: 210, height: 210))
        #expect(f[11] == Rect(x: 0, y: 550, width: 100, height: 100))
        #expect(f[12...15].map { [$0.x, $0.y] } == [[0, 660], [110, 660], [220, 660], [0, 770]])
        #expect(result.placements.allSatisfy { $0.crop != nil })  // 4:3 images in square cells
        #expect(result.canvas.height == 870)
    }

    @Test("strip: one row at the target height, wrapping at a given width")
    func strip() throws {
        var c = config(.strip, width: nil, gap: 10, padding: 5)
        c.rowHeight = 50
        let sizes = [Size(width: 200, height: 100), Size(width: 100, height: 100), Size(width: 300, height: 100)]
        let one = try c.arrange(sizes)
        #expect(
            one.frames == [
                Rect(x: 5, y: 5, width: 100, height: 50), Rect(x: 115, y: 5, width: 50, height: 50),
                Rect(x: 175, y: 5, width: 150, height: 50),
            ])
        #expect(one.canvas == Size(width: 330, height: 60))
        c.width = 200  // content at most 190 wide
        let wrapped = try c.arrange(sizes)
        #expect(wrapped.frames.map(\.y) == [5, 5, 65])
        #expect(wrapped.canvas == Size(width: 170, height: 120))  // right edge 5 + 110 + 50, plus padding
    }

    @Test("hero images span the width above the wall")
    func hero() throws {
        var c = config(.masonry)
        c.hero = 1
        let result = try c.arrange(five)
        #expect(result.frames[0] == Rect(x: 5, y: 5, width: 90, height: 90))
        #expect(result.frames[1] == Rect(x: 5, y: 105, width: 23, height: 12))  // the wall starts a row gap below
    }

    @Test("sections: each group under its header band, in order of first appearance")
    func sections() throws {
        var c = config(.columns, width: 100, columns: 2, gap: 10, padding: 0)  // columns 45 wide
        c.sectionHeaderHeight = 20
        let square = Size(width: 10, height: 10)
        let result = try c.arrange(Array(repeating: square, count: 3), sections: [7, 3, 7])
        #expect(result.sectionHeaders.map(\.section) == [0, 1])
        #expect(result.sectionHeaders[0].frame == Rect(x: 0, y: 0, width: 100, height: 20))
        #expect(result.frames[0] == Rect(x: 0, y: 30, width: 45, height: 45))
        #expect(result.frames[2] == Rect(x: 55, y: 30, width: 45, height: 45))
        #expect(result.sectionHeaders[1].frame == Rect(x: 0, y: 85, width: 100, height: 20))
        #expect(result.frames[1] == Rect(x: 0, y: 115, width: 45, height: 45))
        #expect(result.placements.map(\.section) == [0, 1, 0])
    }

    @Test("captions: space under each image, images keep their size")
    func captions() throws {
        var c = config(.masonry)
        c.captionHeight = 15
        let result = try c.arrange(five)
        #expect(result.placements[0].image == Rect(x: 5, y: 5, width: 23, height: 23))
        #expect(result.placements[0].caption == Rect(x: 5, y: 28, width: 23, height: 15))
        #expect(result.placements[0].cell == Rect(x: 5, y: 5, width: 23, height: 38))
    }

    @Test("rtl mirrors the wall, not the images")
    func rtl() throws {
        var c = config(.columns)
        let ltr = try c.arrange(five)
        c.direction = .rtl
        let rtl = try c.arrange(five)
        for (a, b) in zip(ltr.placements, rtl.placements) {
            #expect(b.image.x == 100 - a.image.maxX && b.image.y == a.image.y && b.image.size == a.image.size)
            #expect(b.crop == a.crop)
        }
    }

    @Test("column width sets the column count within limits")
    func columnWidth() throws {
        var c = config(.masonry, width: 1000, gap: 10, padding: 0)
        c.columnWidth = 240  // (1000 + 10) / 250 = 4
        #expect(c.resolvedColumns == 4)
        c.maxColumns = 3
        #expect(c.resolvedColumns == 3)
        c.columnWidth = 2000
        c.minColumns = 2
        #expect(c.resolvedColumns == 2)
        #expect(try c.arrange(five).frames[0].width == 495)
    }

    // Justified rows are clamped by maxRowHeightRatio, so they cannot run away like these.
    @Test(
        "walls too tall or too wide to count are refused, not overflowed",
        arguments: [LayoutKind.masonry, .columns, .strip])
    func hugeWalls(kind: LayoutKind) {
        var c = config(kind, width: kind == .strip ? nil : 1_000_000, columns: 1, gap: 0, padding: 0)
        c.rowHeight = 1_000_000
        c.maxAspect = nil
        let needle = kind == .strip ? Size(width: 0x7FFF_FFFF, height: 1) : Size(width: 1, height: 0x7FFF_FFFF)
        #expect(throws: LayoutError.self) { try c.arrange(Array(repeating: needle, count: 1000)) }
    }

    static let invalid: [(change: String, message: String)] = [
        ("columns that do not fit", "under 1 px"), ("no columns", "columns must be at least 1"),
        ("one-column mosaic", "at least 2 columns"), ("negative row gap", "row gap cannot be negative"),
        ("padding wider than the sheet", "leaves no room"), ("hero on a grid", "hero images need"),
        ("ratio under 1", "ratio must be at least 1"), ("gap after row 0", "row gap after row 0"),
        ("no width", "width is required"), ("down-first masonry", "down-first order needs the grid layout"),
    ]

    @Test("impossible options are refused with a message naming them", arguments: invalid)
    func validation(change: String, message: String) {
        var c = config(.masonry)
        switch change {
        case "columns that do not fit": (c.columns, c.width) = (20, 50)
        case "no columns": c.columns = 0
        case "one-column mosaic": (c.kind, c.columns) = (.mosaic, 1)
        case "negative row gap": c.rowGap = -1
        case "padding wider than the sheet": (c.padding.left, c.padding.right) = (60, 60)
        case "hero on a grid": (c.kind, c.hero) = (.grid, 1)
        case "ratio under 1": (c.kind, c.maxRowHeightRatio) = (.justified, 0.5)
        case "gap after row 0": c.rowGapsAfter = [0: 5]
        case "down-first masonry": c.order = .down
        default: c.width = nil
        }
        do {
            _ = try c.arrange(five)
            Issue.record("accepted \(change)")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }
}
