import Testing
import WallCore
import WallLayout
import _WallTestSupport

/// Invariants of every layout over seeded random walls.
@Suite("Layouts: properties")
struct LayoutPropertyTests {
    static let seeds = Array(0..<24)

    static func randomWall(kind: LayoutKind, seed: Int) -> (LayoutConfiguration, [Size]) {
        var random = SeededGenerator(seed: UInt64(seed) &* 7919 &+ UInt64(kind.rawValue.count))
        var c = LayoutConfiguration(kind: kind)
        c.columns = Int.random(in: kind == .mosaic ? 2...8 : 1...10, using: &random)
        c.columnGap = Int.random(in: 0...20, using: &random)
        c.rowGap = Int.random(in: 0...20, using: &random)
        c.padding = Insets(
            top: Int.random(in: 0...30, using: &random), right: Int.random(in: 0...30, using: &random),
            bottom: Int.random(in: 0...30, using: &random), left: Int.random(in: 0...30, using: &random))
        c.captionHeight = Bool.random(using: &random) ? Int.random(in: 1...24, using: &random) : 0
        c.rowHeight = Int.random(in: 20...400, using: &random)
        c.direction = Bool.random(using: &random) ? .rtl : .ltr
        c.tieTolerance = Int.random(in: 0...5, using: &random)
        c.cellAspect = AspectRatio(
            width: Int.random(in: 1...4, using: &random), height: Int.random(in: 1...4, using: &random))
        c.fit = Bool.random(using: &random) ? .cover : .contain
        c.lastRow = LastRow.allCases.randomElement(using: &random)!
        if [.masonry, .columns, .justified].contains(kind) { c.hero = Int.random(in: 0...2, using: &random) }
        let content = c.columns * Int.random(in: 1...300, using: &random) + (c.columns - 1) * c.columnGap
        c.width = kind == .strip && Bool.random(using: &random) ? nil : c.padding.left + c.padding.right + content
        let sizes = (0..<Int.random(in: 1...200, using: &random)).map { _ in
            Size(width: Int.random(in: 1...6000, using: &random), height: Int.random(in: 1...6000, using: &random))
        }
        return (c, sizes)
    }

    @Test("no overlaps, everything inside the padding, deterministic", arguments: LayoutKind.allCases, seeds)
    func invariants(kind: LayoutKind, seed: Int) throws {
        let (config, sizes) = Self.randomWall(kind: kind, seed: seed)
        let result = try config.arrange(sizes)
        // Right to left mirrors the whole wall, its side padding included.
        var padding = config.padding
        if config.direction == .rtl { (padding.left, padding.right) = (padding.right, padding.left) }
        let violations = LayoutInvariants.violations(of: result, padding: padding)
        #expect(violations.isEmpty, "\(violations.prefix(3))")
        if let width = config.width, kind != .strip { #expect(result.canvas.width == width) }
        if let width = config.width, kind == .strip { #expect(result.canvas.width <= width) }
        for p in result.placements {
            #expect(p.cell.contains(p.image))
            if let caption = p.caption { #expect(p.cell.contains(caption) && caption.y >= p.image.maxY) }
            if let crop = p.crop { #expect(crop.x >= -1e-9 && crop.y >= -1e-9 && crop.width > 0 && crop.height > 0) }
        }
        let bottom = result.placements.map(\.cell.maxY).max() ?? config.padding.top
        #expect(result.canvas.height == bottom + config.padding.bottom)
        #expect(try config.arrange(sizes) == result)
    }

    @Test(
        "layouts that never crop keep each image's aspect ratio within rounding, cutting only shapes past the limit",
        arguments: [LayoutKind.masonry, .columns, .strip], seeds)
    func aspect(kind: LayoutKind, seed: Int) throws {
        var (config, sizes) = Self.randomWall(kind: kind, seed: seed)
        config.hero = 0
        config.maxAspect = seed % 2 == 0 ? 3 : nil
        let result = try config.arrange(sizes)
        for (size, p) in zip(sizes, result.placements) {
            let long = Double(max(size.width, size.height)), short = Double(min(size.width, size.height))
            let beyond = config.maxAspect.map { long > $0 * short } ?? false
            #expect((p.crop != nil) == beyond, "\(size) \(String(describing: p.crop))")
            // What shows is the crop, cut to the limit's shape within a source pixel.
            let shown: (width: Double, height: Double) =
                p.crop.map { ($0.width, $0.height) } ?? (Double(size.width), Double(size.height))
            if let limit = config.maxAspect, beyond {
                #expect(abs(max(shown.width, shown.height) - limit * min(shown.width, shown.height)) <= limit)
            }
            // The short side is rounded from the long one: off by at most half a pixel of it.
            let exactHeight = Double(p.image.width) * shown.height / shown.width
            let exactWidth = Double(p.image.height) * shown.width / shown.height
            #expect(
                abs(Double(p.image.height) - exactHeight) <= 0.5 + 1e-9
                    || abs(Double(p.image.width) - exactWidth) <= 0.5 + 1e-9 || p.image.height == 1
                    || p.image.width == 1)
        }
    }

    @Test(
        "column layouts: widths within a pixel adding up to the width, the promised column each time",
        arguments: [LayoutKind.masonry, .columns], seeds)
    func columnRules(kind: LayoutKind, seed: Int) throws {
        var (config, sizes) = Self.randomWall(kind: kind, seed: seed)
        config.hero = 0
        config.direction = .ltr
        let result = try config.arrange(sizes)
        let grid = try ColumnGrid(
            width: config.width!, columns: config.columns, gap: config.columnGap, left: config.padding.left,
            right: config.padding.right)
        let widths = grid.spans.map(\.width)
        #expect(widths.max()! - widths.min()! <= 1)
        #expect(
            config.padding.left + config.padding.right + widths.reduce(0, +) + (config.columns - 1) * config.columnGap
                == config.width!)
        var bottoms = grid.spans.map { _ in config.padding.top }
        for (i, p) in result.placements.enumerated() {
            let column = grid.spans.firstIndex { $0.x == p.cell.x }!
            if kind == .columns {
                #expect(column == i % config.columns)
            } else {
                let lowest = bottoms.min()!
                #expect(column == bottoms.firstIndex { $0 <= lowest + config.tieTolerance }!)
            }
            #expect(p.cell.y == bottoms[column])
            bottoms[column] = p.cell.maxY + config.rowGap
        }
    }

    @Test(
        "grid down-first: each page holds a run of images read column by column, its columns full but the last",
        arguments: seeds)
    func gridDownFirst(seed: Int) throws {
        var (config, sizes) = Self.randomWall(kind: .grid, seed: seed)
        config.order = .down
        config.direction = .ltr
        let grid = try ColumnGrid(
            width: config.width!, columns: config.columns, gap: config.columnGap, left: config.padding.left,
            right: config.padding.right)
        let aspect = config.cellAspect
        let base = grid.spans.map(\.width).min()!
        let cell = config.captionHeight + max(1, (base * aspect.height * 2 + aspect.width) / (2 * aspect.width))
        if seed % 3 != 0 {  // pages of one to five rows
            let rows = 1 + seed % 5
            config.maxPageHeight = config.padding.top + config.padding.bottom + rows * cell + (rows - 1) * config.rowGap
        }
        let result = try config.arrange(sizes)
        let byPage = Dictionary(grouping: result.placements.indices) { result.placements[$0].page }
        var next = 0
        for page in byPage.keys.sorted() {
            let members = byPage[page]!
            let frames = members.map { result.placements[$0].cell }
            let inside = Rect(
                x: config.padding.left, y: config.padding.top,
                width: result.pages[page].width - config.padding.left - config.padding.right,
                height: result.pages[page].height - config.padding.top - config.padding.bottom)
            #expect(frames.allSatisfy { inside.contains($0) }, "page \(page) spills out of \(inside)")
            for (n, a) in frames.enumerated() {
                #expect(!frames[(n + 1)...].contains { a.intersects($0) }, "page \(page): tile \(members[n]) overlaps")
            }
            #expect(members == Array(next..<next + members.count), "page \(page) is not a run of the input")
            next += members.count
            let read = members.sorted {
                let a = result.placements[$0].cell, b = result.placements[$1].cell
                return (a.x, a.y) < (b.x, b.y)
            }
            #expect(read == members, "page \(page) does not read down the columns")
            let heights = Dictionary(grouping: members) { result.placements[$0].cell.x }.mapValues(\.count)
            let counts = heights.keys.sorted().map { heights[$0]! }
            #expect(counts.dropLast().allSatisfy { $0 == counts[0] } && counts.last! <= counts[0])
            if page < byPage.count - 1 { #expect(counts.count == config.columns) }
        }
        #expect(next == sizes.count)
    }

    @Test(
        "even bottom: same columns and pages as without; each column ends level or gave every tile's quarter",
        arguments: [LayoutKind.masonry, .columns], seeds)
    func evenBottom(kind: LayoutKind, seed: Int) throws {
        var (config, sizes) = Self.randomWall(kind: kind, seed: seed)
        config.direction = .ltr
        // Pages, or three sections (a levelled section moves the headers below it up, and so
        // the page breaks after it: the walls would no longer match tile for tile).
        var sections: [Int]?
        if seed % 2 == 1 {
            config.maxPageHeight = config.padding.top + config.padding.bottom + 1200 + seed * 40
        } else {
            sections = sizes.indices.map { $0 * 3 / max(1, sizes.count) }
        }
        let natural = try config.arrange(sizes, sections: sections)
        config.evenBottom = true
        let level = try config.arrange(sizes, sections: sections)
        #expect(level.pages.count == natural.pages.count)
        struct Column: Hashable { var page: Int, section: Int, x: Int }
        var columns: [Column: [Int]] = [:]
        for (i, (a, b)) in zip(natural.placements, level.placements).enumerated() {
            #expect(a.page == b.page && a.cell.x == b.cell.x && a.cell.width == b.cell.width)
            let lost = a.image.height - b.image.height
            #expect(lost >= 0 && lost <= a.image.height / 4, "tile \(i) lost \(lost) of \(a.image.height)")
            #expect(b.cell.height == b.image.height + config.captionHeight)
            if a.section == b.section && i >= config.hero {
                columns[Column(page: b.page, section: b.section, x: b.cell.x), default: []].append(i)
            }
        }
        // Within a page and section, the column's tiles still follow one another a row gap apart.
        for tiles in columns.values {
            for (upper, lower) in zip(tiles, tiles.dropFirst()) {
                #expect(level.placements[lower].cell.y == level.placements[upper].cell.maxY + config.rowGap)
            }
        }
        let groups = Dictionary(grouping: columns.keys) { [$0.page, $0.section] }
        for keys in groups.values {
            let ends = keys.map { level.placements[columns[$0]!.last!].cell.maxY }
            let target = ends.min()!
            for (key, end) in zip(keys, ends) where end > target {
                for i in columns[key]! {
                    let full = natural.placements[i].image.height
                    #expect(full - level.placements[i].image.height == full / 4, "column \(key) could have given more")
                }
            }
        }
        #expect(LayoutInvariants.violations(of: level, padding: config.padding).isEmpty || config.maxPageHeight != nil)
    }

    @Test(
        "span wide: wide tiles cover whole columns, with a tile ending a row gap above them in each", arguments: seeds)
    func spanWide(seed: Int) throws {
        var (config, sizes) = Self.randomWall(kind: .masonry, seed: seed)
        (config.direction, config.hero) = (.ltr, 0)
        config.spanWide = 1.2 + Double(seed % 5) * 0.4
        config.evenBottom = seed % 3 == 0
        let wall = try config.arrange(sizes)
        #expect(LayoutInvariants.violations(of: wall, padding: config.padding).isEmpty)
        let grid = try ColumnGrid(
            width: config.width!, columns: config.columns, gap: config.columnGap, left: config.padding.left,
            right: config.padding.right)
        func columns(of cell: Rect) -> [Int] {
            grid.spans.indices.filter {
                grid.spans[$0].x >= cell.x && grid.spans[$0].x + grid.spans[$0].width <= cell.maxX
            }
        }
        for (i, p) in wall.placements.enumerated() {
            let covered = columns(of: p.cell)
            #expect(!covered.isEmpty && grid.spans[covered[0]].x == p.cell.x, "tile \(i) is not on a column")
            let last = grid.spans[covered.last!]
            #expect(last.x + last.width == p.cell.maxX, "tile \(i) ends between columns")
            guard covered.count > 1 else { continue }
            let shape = Double(sizes[i].width) / Double(sizes[i].height)
            #expect(shape > config.spanWide!, "tile \(i) spans though it is \(shape):1")
            for c in covered where p.cell.y > config.padding.top {
                let above = wall.placements.contains { q in
                    columns(of: q.cell).contains(c) && q.cell.maxY + config.rowGap == p.cell.y
                }
                #expect(above, "a hole above tile \(i) in column \(c)")
            }
        }
    }

    @Test("justified rows: equal heights, exact width, rows in order", arguments: seeds)
    func justifiedRows(seed: Int) throws {
        var (config, sizes) = Self.randomWall(kind: .justified, seed: seed)
        config.hero = 0
        config.direction = .ltr
        config.lastRow = .justify
        let result = try config.arrange(sizes)
        let inner = config.width! - config.padding.left - config.padding.right
        let rows = Dictionary(grouping: result.placements.indices, by: { result.placements[$0].cell.y })
        for (_, members) in rows {
            let row = members.sorted()
            #expect(row == Array(row.first!...row.last!))  // consecutive images
            let cells = row.map { result.placements[$0].cell }
            #expect(Set(cells.map(\.height)).count == 1)
            #expect(cells.first!.x == config.padding.left)
            #expect(cells.last!.maxX == config.padding.left + inner)  // never a pixel short or long
            for (a, b) in zip(cells, cells.dropFirst()) { #expect(b.x == a.maxX + config.columnGap) }
        }
    }

    @Test("justified breaks are optimal: brute force over every break set agrees", arguments: Array(0..<30))
    func justifiedOptimal(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) + 1000)
        var config = LayoutConfiguration(kind: .justified)
        config.width = Int.random(in: 300...1200, using: &random)
        config.padding = Insets(all: 0)
        config.columnGap = Int.random(in: 0...12, using: &random)
        config.rowHeight = Int.random(in: 80...300, using: &random)
        config.lastRow = Bool.random(using: &random) ? .justify : .left
        config.maxAspect = nil  // the breaks of the sizes as given
        let sizes = (0..<Int.random(in: 1...11, using: &random)).map { _ in
            Size(width: Int.random(in: 100...4000, using: &random), height: Int.random(in: 100...4000, using: &random))
        }
        let result = try config.arrange(sizes)
        let starts = Set(result.placements.map(\.cell.y)).sorted().map { y in
            result.placements.firstIndex { $0.cell.y == y }!
        }
        let rows = zip(starts, starts.dropFirst() + [sizes.count]).map { $0..<$1 }
        #expect(abs(cost(rows, sizes, config) - bruteForceBest(sizes, config)) < 1e-6)
    }

    func cost(_ rows: [Range<Int>], _ sizes: [Size], _ c: LayoutConfiguration) -> Double {
        let inner = Double(c.width!), target = Double(c.rowHeight)
        return rows.reduce(0) { total, row in
            let aspects = row.map { Double(sizes[$0].width) / Double(sizes[$0].height) }.reduce(0, +)
            let height = (inner - Double((row.count - 1) * c.columnGap)) / aspects
            if row.upperBound == sizes.count && c.lastRow != .justify && height >= target { return total }
            return total + (height - target) * (height - target)
        }
    }

    func bruteForceBest(_ sizes: [Size], _ c: LayoutConfiguration) -> Double {
        let n = sizes.count
        var best = Double.infinity
        for mask in 0..<(1 << (n - 1)) {
            var rows: [Range<Int>] = []
            var start = 0
            for k in 1..<n where mask & (1 << (k - 1)) != 0 {
                rows.append(start..<k)
                start = k
            }
            rows.append(start..<n)
            // The engine grows each row backwards from its end and stops once a row drops under
            // a third of the target height: a row is a candidate when it has one image or the
            // row one image shorter still reached a third of the target. Search the same set.
            let valid = rows.allSatisfy { row in row.count == 1 || shorterRowReachesThird(row, sizes, c) }
            if valid { best = min(best, cost(rows, sizes, c)) }
        }
        return best
    }

    /// Whether the row without its first image is at least a third of the target height.
    func shorterRowReachesThird(_ row: Range<Int>, _ sizes: [Size], _ c: LayoutConfiguration) -> Bool {
        let shorter = (row.lowerBound + 1)..<row.upperBound
        let aspects = shorter.map { Double(sizes[$0].width) / Double(sizes[$0].height) }.reduce(0, +)
        let height = (Double(c.width!) - Double((shorter.count - 1) * c.columnGap)) / aspects
        return height >= Double(c.rowHeight) / 3
    }

    @Test("rectangle queries match a linear scan", arguments: LayoutKind.allCases)
    func queries(kind: LayoutKind) throws {
        var random = SeededGenerator(seed: 99)
        for seed in 0..<5 {
            let (config, sizes) = Self.randomWall(kind: kind, seed: seed + 500)
            let result = try config.arrange(sizes)
            for _ in 0..<50 {
                let x = Int.random(in: -50...result.canvas.width, using: &random)
                let y = Int.random(in: -50...result.canvas.height, using: &random)
                let rect = Rect(
                    x: x, y: y, width: Int.random(in: 1...400, using: &random),
                    height: Int.random(in: 1...400, using: &random))
                let expected = result.placements.indices.filter { result.placements[$0].cell.intersects(rect) }
                #expect(result.tiles(intersecting: rect) == expected)
            }
            #expect(result.placement(of: sizes.count - 1) == result.placements.last!)
        }
    }
}
