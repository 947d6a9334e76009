import Foundation

/// What the pages that show sheets share: each variant of a sheet shown to the windows it suits,
/// and tiles placed in percentages of their page.
enum SheetMarkup {
    /// A transparent 1×1 GIF: what a hidden variant's images are.
    static let blankPixel = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"

    /// `part` of `whole` as a CSS percentage.
    static func percent(_ part: Int, of whole: Int) -> String {
        let value = whole > 0 ? Double(part) * 100 / Double(whole) : 0
        return String(format: "%.4f%%", value)
    }

    /// Variant `v` of the variants of `columns` columns (ascending) shown only to the windows it
    /// suits, from `c` × ``GalleryPage/columnWidth`` px up to the next one's: the style that
    /// does it, and the `<source>` elements that make its images a blank pixel outside them, so
    /// that only the variant shown loads. Nothing for a single variant.
    static func variantWindows(_ v: Int, of columns: [Int]) -> (style: String, blanks: String) {
        guard columns.count > 1 else { return ("", "") }
        let low = v == 0 ? nil : columns[v] * GalleryPage.columnWidth
        let high = v == columns.count - 1 ? nil : columns[v + 1] * GalleryPage.columnWidth
        let bounds = [low.map { "(min-width: \($0)px)" }, high.map { "(max-width: \(Double($0) - 0.02)px)" }]
            .compactMap { $0 }.joined(separator: " and ")
        let style = ".variant-\(v) { display: none; }\n@media \(bounds) { .variant-\(v) { display: block; } }\n"
        let outside = [low.map { "(max-width: \(Double($0) - 0.02)px)" }, high.map { "(min-width: \($0)px)" }]
        let blanks = outside.compactMap { $0 }.map { "<source media=\"\($0)\" srcset=\"\(blankPixel)\">" }.joined()
        return (style, blanks)
    }
}
