import WallCore

/// The result of a layout: one or more pages and one placement per input, in input order,
/// with queries by position.
public struct Arrangement: Sendable {
    /// The size of each page; most walls have one.
    public let pages: [Size]
    /// Where each image goes (page and rectangles in that page's coordinates), indexed like
    /// the input sizes.
    public let placements: [Placement]
    /// Header bands of the sections, when the images are grouped.
    public let sectionHeaders: [SectionHeader]
    /// The title band on the first page, when one was reserved.
    public let title: Rect?
    /// The cells' index for ``tiles(intersecting:page:)``, made at the first query: a layout
    /// only written out (a million tiles' manifest) never asks, and is spared its time and memory.
    private let index = Locked<IntervalIndex?>(nil)
    /// Offsets that put every page on one number line for the index.
    private let pageOffsets: [Int]

    /// Creates an arrangement and its spatial index.
    public init(pages: [Size], placements: [Placement], sectionHeaders: [SectionHeader] = [], title: Rect? = nil) {
        precondition(!pages.isEmpty, "an arrangement has at least one page")
        self.pages = pages
        self.placements = placements
        self.sectionHeaders = sectionHeaders
        self.title = title
        var offsets: [Int] = []
        var offset = 0
        for page in pages {
            offsets.append(offset)
            offset += page.height
        }
        pageOffsets = offsets
    }

    /// The same pages, headers and title with other placements (one per image, as before).
    func withPlacements(_ placements: [Placement]) -> Arrangement {
        Arrangement(pages: pages, placements: placements, sectionHeaders: sectionHeaders, title: title)
    }

    /// A single-page arrangement.
    public init(canvas: Size, placements: [Placement], sectionHeaders: [SectionHeader] = [], title: Rect? = nil) {
        self.init(pages: [canvas], placements: placements, sectionHeaders: sectionHeaders, title: title)
    }

    /// The first page; the whole sheet when there is one page.
    public var canvas: Size { pages[0] }

    /// The image rectangles, in input order.
    public var frames: [Rect] { placements.map(\.image) }

    /// Where tile `index` goes: O(1).
    public func placement(of index: Int) -> Placement { placements[index] }

    /// The tiles on `page` whose cells intersect `rect`, in ascending order: O(log n + k), k
    /// being the tiles whose rows meet the rectangle's.
    public func tiles(intersecting rect: Rect, page: Int = 0) -> [Int] {
        guard rect.width > 0, rect.height > 0, pages.indices.contains(page) else { return [] }
        let top = max(rect.y, 0) + pageOffsets[page]
        let bottom = min(rect.maxY, pages[page].height) + pageOffsets[page]
        guard top < bottom else { return [] }
        return cellIndex().overlapping(top, bottom)
            .filter { placements[$0].page == page && placements[$0].cell.intersects(rect) }
            .sorted()
    }
}

extension Arrangement {
    /// The index of the cells on one number line, made once.
    private func cellIndex() -> IntervalIndex {
        index.withLock { made in
            if let made { return made }
            let offsets = pageOffsets
            let built = IntervalIndex(count: placements.count) { i in
                let p = placements[i]
                return (p.cell.y + offsets[p.page], p.cell.maxY + offsets[p.page])
            }
            made = built
            return built
        }
    }
}

extension Arrangement: Equatable {
    /// The same pages, placements, section headers and title.
    public static func == (a: Arrangement, b: Arrangement) -> Bool {
        a.pages == b.pages && a.placements == b.placements && a.sectionHeaders == b.sectionHeaders && a.title == b.title
    }
}
