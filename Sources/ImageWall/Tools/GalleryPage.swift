import Foundation
import WallCodecs

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTML page of a rendered sheet: each page's image with an image map whose areas
/// link every tile to its source and show its name on hover. Links are relative to the
/// page's folder; styles are inline, so the page needs nothing else.
public enum GalleryPage {
    /// The HTML for `manifest`, to be saved at `path`.
    public static func html(_ manifest: Manifest, at path: String) -> String {
        let folder = Self.folder(of: path)
        var body = ""
        for (number, page) in manifest.pages.enumerated() {
            let name = "sheet-page-\(number + 1)"
            body +=
                "<figure>\n<img src=\"\(link(from: folder, to: page.file))\" width=\"\(page.width)\" height=\"\(page.height)\" usemap=\"#\(name)\" alt=\"\(escape(manifest.title?.text ?? "contact sheet")) page \(number + 1)\">\n"
            body += "<map name=\"\(name)\">\n"
            for tile in manifest.tiles where tile.page == number {
                let label = escape(tile.source.split(separator: "/").last.map(String.init) ?? tile.source)
                body +=
                    "<area shape=\"rect\" coords=\"\(tile.x),\(tile.y),\(tile.x + tile.width),\(tile.y + tile.height)\" href=\"\(link(from: folder, to: tile.source))\" title=\"\(label)\" alt=\"\(label)\" data-index=\"\(tile.index)\">\n"
            }
            body +=
                "</map>\n<figcaption>page \(number + 1) of \(manifest.pages.count) · \(page.width)×\(page.height)</figcaption>\n</figure>\n"
        }
        let title = escape(manifest.title?.text ?? "Contact sheet")
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(title)</title>
            <style>
            body { margin: 0; padding: 16px; background: #18191c; color: #ddd; font: 14px system-ui, sans-serif; }
            h1 { font-size: 18px; font-weight: 600; }
            figure { margin: 0 0 24px; overflow-x: auto; }
            img { display: block; max-width: none; }
            figcaption { margin-top: 6px; color: #999; }
            </style>
            </head>
            <body>
            <h1>\(title) — \(manifest.tiles.count) images</h1>
            \(body)</body>
            </html>

            """
    }

    /// Writes the page for `manifest` to `path`, atomically.
    public static func write(_ manifest: Manifest, to path: String) throws {
        let data = Array(html(manifest, at: path).utf8)
        let file = try AtomicFile(destination: path)
        guard data.withUnsafeBytes({ fwrite($0.baseAddress, 1, $0.count, file.handle) }) == data.count else {
            throw CodecError(.write, path: path, reason: "short write")
        }
        try file.commit()
    }

    static func folder(of path: String) -> String {
        let parent = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        return absolute(parent.isEmpty ? "/" : parent)
    }

    static func absolute(_ path: String) -> String {
        if let resolved = resolvedPath(path) { return resolved }
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }

    /// `target` relative to `folder`, percent-encoded for an attribute.
    static func link(from folder: String, to target: String) -> String {
        let from = folder.split(separator: "/").map(String.init)
        let to = absolute(target).split(separator: "/").map(String.init)
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...]
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%;"))
        return parts.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }.joined(separator: "/")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
