import Foundation
import WallFiles
import WallLayout

/// File names of what a render writes: each batch variant's outputs, then each page's file.
public enum OutputNaming {
    /// `pattern` for the variant laid out by `layout`: `{columns}`, `{width}` (or "auto") and
    /// `{layout}` filled in; `{page}` is left for ``pages(for:count:)``.
    public static func variant(_ pattern: String, for layout: LayoutConfiguration) -> String {
        pattern
            .replacingAll("{columns}", with: String(layout.columns))
            .replacingAll("{width}", with: layout.width.map(String.init) ?? "auto")
            .replacingAll("{layout}", with: layout.kind.rawValue)
    }

    /// The path of each of `count` pages for the output `pattern`: `{page}` becomes 001,
    /// 002, …; without it a single page keeps the name and several get "-001", "-002", …
    /// before the extension.
    public static func pages(for pattern: String, count: Int) -> [String] {
        let digits = max(3, String(count).count)
        func number(_ page: Int) -> String {
            let text = String(page + 1)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        if pattern.contains("{page}") {
            return (0..<count).map { pattern.replacingAll("{page}", with: number($0)) }
        }
        guard count > 1 else { return [pattern] }
        let (stem, ext) = FilePaths.splitExtension(pattern)
        return (0..<count).map { "\(stem)-\(number($0))\(ext)" }
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
