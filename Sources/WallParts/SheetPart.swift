import ImageWall
import WallCompositor
import WallCore

/// Part `number` of `count` of a sheet: a contiguous run of its bands (all pages' bands in
/// order, shared out as evenly as whole bands allow). Bands are where the PNG's segments end,
/// so the parts' compressed rows join into the file a single render writes.
public struct SheetPart: Sendable, Hashable, CustomStringConvertible {
    /// From 1.
    public let number: Int
    /// How many parts the sheet is split into.
    public let count: Int

    /// Part `number` of `count`; `nil` unless 1 ≤ `number` ≤ `count`.
    public init?(_ number: Int, of count: Int) {
        guard count >= 1, (1...count).contains(number) else { return nil }
        self.number = number
        self.count = count
    }

    /// Parses "K/N".
    public init?(_ text: String) {
        let fields = text.split(separator: "/", omittingEmptySubsequences: false)
        guard fields.count == 2, let number = Int(fields[0]), let count = Int(fields[1]) else { return nil }
        self.init(number, of: count)
    }

    /// "K/N".
    public var description: String { "\(number)/\(count)" }

    /// The rows of each page this part holds, in order, for a sheet of `pages` painted in bands
    /// of `bandHeight` rows.
    public func rows(of pages: [Size], bandHeight: Int = SheetRenderer.defaultBandHeight) -> [PageRows] {
        let bandsPerPage = pages.map { ($0.height + bandHeight - 1) / bandHeight }
        let total = bandsPerPage.reduce(0, +)
        let first = (number - 1) * total / count, end = number * total / count
        var result: [PageRows] = []
        var pageStart = 0
        for (page, bands) in bandsPerPage.enumerated() {
            let from = max(first, pageStart) - pageStart, to = min(end, pageStart + bands) - pageStart
            if from < to {
                result.append(
                    PageRows(page: page, from: from * bandHeight, to: min(pages[page].height, to * bandHeight)))
            }
            pageStart += bands
        }
        return result
    }
}

/// Rows `from..<to` of page `page` (from 0).
public struct PageRows: Codable, Sendable, Hashable {
    /// The page, from 0.
    public var page: Int
    /// The first row.
    public var from: Int
    /// The row after the last.
    public var to: Int

    /// Rows `from..<to` of page `page`.
    public init(page: Int, from: Int, to: Int) {
        self.page = page
        self.from = from
        self.to = to
    }

    /// The rows as a range.
    public var range: Range<Int> { from..<to }
}
