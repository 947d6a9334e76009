import Foundation
import ImageWall

/// Text put into the HTML pages ImageWall writes.
enum HTMLText {
    /// `text` with `&`, `<`, `>` and `"` escaped, for an element's text or an attribute.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The link from a page in `folder` to `target`: relative, percent-encoded for an attribute.
    static func link(from folder: String, to target: String) -> String {
        let parts = FilePaths.relativeParts(from: folder, to: FilePaths.absolute(target))
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%;"))
        return parts.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }.joined(separator: "/")
    }
}
