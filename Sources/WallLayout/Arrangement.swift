import WallCore

/// The result of a layout: the canvas and one placement per input, in input order, with
/// queries by position.
public struct Arrangement: Sendable {
    /// The whole sheet.
    public let canvas: Size
    /// Where each image goes, indexed like the input sizes.
    public let placements: [Placement]
    /// Header bands of the sections, when the images are grouped.
    public let sectionHeaders: [SectionHeader]
    private let index: IntervalIndex

    /// Creates an arrangement and its spatial index.
    public init(canvas: Size, placements: [Placement], sectionHeaders: [SectionHeader] = []) {
        self.canvas = canvas
        self.placements = placements
        self.sectionHeaders = sectionHeaders
        index = IntervalIndex(count: placements.count) { (placements[$0].cell.y, placements[$0].cell.maxY) }
    }

    /// The image rectangles, in input order.
    public var frames: [Rect] { placements.map(\.image) }

    /// Where tile `index` goes: O(1).
    public func placement(of index: Int) -> Placement { placements[index] }

    /// The tiles whose cells intersect `rect`, in ascending order: O(log n + k), k being the
    /// tiles whose rows meet the rectangle's.
    public func tiles(intersecting rect: Rect) -> [Int] {
        guard rect.width > 0, rect.height > 0 else { return [] }
        return index.overlapping(rect.y, rect.maxY).filter { placements[$0].cell.intersects(rect) }.sorted()
    }
}

extension Arrangement: Equatable {
    public static func == (a: Arrangement, b: Arrangement) -> Bool {
        a.canvas == b.canvas && a.placements == b.placements && a.sectionHeaders == b.sectionHeaders
    }
}
