import Testing
import WallCore
import WallLayout
import _WallTestSupport

@Suite("Masonry layout")
struct MasonryLayoutTests {
    func layout(width: Int = 100, columns: Int = 3, gap: Int = 10, padding: Int = 5) -> MasonryLayout {
        MasonryLayout(width: width, columns: columns, columnGap: gap, rowGap: gap, padding: Insets(all: padding))
    }

    @Test("literal frames for a small wall")
    func golden() throws {
        // 100 - 2*5 padding - 2*10 gaps = 70 px for 3 columns: 23, 23, 24.
        let sizes = [Size(width: 100, height: 100), Size(width: 200, height: 100), Size(width: 100, height: 300),
                     Size(width: 100, height: 50), Size(width: 10, height: 10)]
        let result = try layout().arrange(sizes)
        #expect(result.frames == [
            Rect(x: 5, y: 5, width: 23, height: 23),
            Rect(x: 38, y: 5, width: 23, height: 12),  // 11.5 rounds up
            Rect(x: 71, y: 5, width: 24, height: 72),
            Rect(x: 38, y: 27, width: 23, height: 12),  // column 1 ends highest (17 + 10)
            Rect(x: 5, y: 38, width: 23, height: 23),  // then column 0 (28 + 10 = 38 < 49)
        ])
        #expect(result.canvas == Size(width: 100, height: 82))  // column 2: 5 + 72 + 5 padding
    }

    @Test("ties go to the leftmost column")
    func ties() throws {
        let square = Size(width: 10, height: 10)
        let result = try layout(width: 70, columns: 3, gap: 0, padding: 0).arrange(Array(repeating: square, count: 6))
        #expect(result.frames.map(\.x) == [0, 23, 46, 0, 23, 46])
        #expect(result.frames.map(\.y) == [0, 0, 0, 23, 23, 24])
    }

    @Test("random walls keep every invariant", arguments: 0..<40)
    func invariants(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed))
        let columns = Int.random(in: 1...12, using: &random)
        let gap = Int.random(in: 0...20, using: &random)
        let padding = Insets(
            top: Int.random(in: 0...30, using: &random), right: Int.random(in: 0...30, using: &random),
            bottom: Int.random(in: 0...30, using: &random), left: Int.random(in: 0...30, using: &random))
        let width = padding.left + padding.right + (columns - 1) * gap + Int.random(in: columns...3000, using: &random)
        let sizes = (0..<Int.random(in: 1...300, using: &random)).map { _ in
            Size(width: Int.random(in: 1...6000, using: &random), height: Int.random(in: 1...6000, using: &random))
        }
        let config = MasonryLayout(width: width, columns: columns, columnGap: gap, rowGap: gap, padding: padding)
        let result = try config.arrange(sizes)

        #expect(LayoutInvariants.violations(of: result, padding: padding).isEmpty)
        #expect(result.canvas.width == width)

        // Columns: whole pixels, widths within one pixel, padding + columns + gaps = width.
        let spans = Set(result.frames.map { [$0.x, $0.width] })
        let columnWidths = try ColumnGrid(width: width, columns: columns, gap: gap, left: padding.left, right: padding.right)
            .spans.map(\.width)
        #expect(columnWidths.max()! - columnWidths.min()! <= 1)
        #expect(padding.left + padding.right + columnWidths.reduce(0, +) + (columns - 1) * gap == width)
        #expect(spans.allSatisfy { span in columnWidths.contains(span[1]) })

        // Aspect ratio kept within rounding: height is the nearest whole pixel (or 1).
        for (size, frame) in zip(sizes, result.frames) {
            let exact = Double(frame.width) * Double(size.height) / Double(size.width)
            #expect(abs(Double(frame.height) - max(1, exact)) <= 0.5 + 1e-9)
        }

        // Shortest column: replaying the placements, each tile starts at the lowest bottom.
        var bottoms = [Int: Int]()
        for span in (try ColumnGrid(width: width, columns: columns, gap: gap, left: padding.left, right: padding.right)).spans {
            bottoms[span.x] = padding.top
        }
        for frame in result.frames {
            let lowest = bottoms.values.min()!
            #expect(frame.y == lowest)
            let leftmost = bottoms.filter { $0.value == lowest }.keys.min()!
            #expect(frame.x == leftmost)
            bottoms[frame.x] = frame.maxY + gap
        }

        // Height: tallest column plus bottom padding.
        let tallest = result.frames.map(\.maxY).max()!
        #expect(result.canvas.height == tallest + padding.bottom)

        // Deterministic.
        #expect(try config.arrange(sizes) == result)
    }

    @Test("impossible geometry is refused with the reason")
    func validation() {
        #expect(throws: LayoutError.self) { try layout(width: 20, columns: 5, gap: 10).arrange([Size(width: 1, height: 1)]) }
        #expect(throws: LayoutError.self) { try layout(columns: 0).arrange([]) }
        #expect(throws: LayoutError.self) { try layout(gap: -1).arrange([]) }
        do {
            _ = try layout(width: 30, columns: 4, gap: 10, padding: 0).arrange([])
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("under 1 px"))
        }
    }

    @Test("an empty wall is just its padding")
    func empty() throws {
        let result = try layout().arrange([])
        #expect(result.frames.isEmpty)
        #expect(result.canvas == Size(width: 100, height: 10))
    }
}
