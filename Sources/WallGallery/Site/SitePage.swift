import ImageWall
import WallFiles
import WallReview

/// What every page of a site shares: where it is, its head and style (light and dark as the
/// reader's system says), the trail up the tree, and how text from files is put in it: every
/// name, caption and metadata text escaped, every link built from a name a relative URL that
/// cannot carry a scheme.
struct SitePage {
    /// The site's folder and the tree's, absolute.
    var site: String
    var tree: String
    /// The site's name.
    var title: String
    /// Where a place's coordinates link (`{lat}`, `{lon}`).
    var mapLink: String

    /// The link from the page at `page` (relative to the site) to the site's file `target`.
    func link(from page: String, to target: String) -> String {
        HTMLText.link(from: folder(of: page), to: site + "/" + target, resolving: false)
    }

    /// The link from the page at `page` to the tree's file `path` (relative to the tree).
    func link(from page: String, toOriginal path: String) -> String {
        HTMLText.link(from: folder(of: page), to: tree + "/" + path)
    }

    /// The folder of the page at `page`, as written: the site's path is absolute already, and
    /// nothing in it is a link the gallery made.
    private func folder(of page: String) -> String {
        FilePaths.directory(of: site + "/" + page)
    }

    /// `text` escaped for an element or a quoted attribute.
    static func text(_ text: String) -> String { HTMLText.escape(text) }

    /// The trail from the site's top to the page's album: each album a link, the last (the
    /// page's own, when it is the album's page) plain.
    func trail(_ albums: [(name: String, page: String)], from page: String, currentIsLast: Bool) -> String {
        var items: [String] = []
        for (n, album) in albums.enumerated() {
            if n == albums.count - 1 && currentIsLast {
                items.append("<li aria-current=\"page\">\(Self.text(album.name))</li>")
            } else {
                items.append("<li><a href=\"\(link(from: page, to: album.page))\">\(Self.text(album.name))</a></li>")
            }
        }
        return "<nav class=\"trail\" aria-label=\"Albums\"><ol>\(items.joined())</ol></nav>"
    }

    /// A whole page: `title` in the head, `body` inside `<body>`, `script` at its end.
    func document(title: String, body: String, script: String) -> String {
        """
        \(HTMLText.documentStart(title: title))
        <style>
        \(SitePage.style)</style>
        </head>
        <body>
        \(body)
        <script>
        \(script)</script>
        </body>
        </html>

        """
    }

    /// The pages' style: light or dark as the reader's system says.
    static let style = """
        :root { color-scheme: light dark; --bg: #f7f7f8; --fg: #1c1c1f; --muted: #66666d; --card: #ffffff;
          --line: #dcdce0; --accent: #0b57d0; --shade: rgba(0, 0, 0, .06); }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #17181b; --fg: #e7e7ea; --muted: #a0a0a8; --card: #222327; --line: #3a3b41; --accent: #8ab8ff;
            --shade: rgba(255, 255, 255, .06); }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.45 system-ui, -apple-system, sans-serif; }
        a { color: var(--accent); }
        a:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
        header.top { padding: 12px 16px 8px; border-bottom: 1px solid var(--line); }
        .trail ol { display: flex; flex-wrap: wrap; gap: 2px 6px; list-style: none; margin: 0; padding: 0; color: var(--muted); }
        .trail li + li::before { content: "›"; margin-right: 6px; }
        .trail a { color: inherit; text-decoration: none; }
        .trail a:hover { text-decoration: underline; }
        h1 { font-size: 22px; font-weight: 650; margin: 6px 0 2px; overflow-wrap: anywhere; }
        .facts { color: var(--muted); margin: 0; }
        main { padding: 16px; max-width: 2100px; margin: 0 auto; }
        h2 { font-size: 16px; font-weight: 600; margin: 8px 0 12px; }
        .albums { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 16px; list-style: none;
          margin: 0 0 28px; padding: 0; }
        .albums a { display: block; color: inherit; text-decoration: none; }
        .albums img, .albums .none { display: block; width: 100%; height: auto; aspect-ratio: 4 / 3; object-fit: cover; border-radius: 8px;
          background: var(--shade); }
        .albums strong { display: block; margin-top: 6px; overflow-wrap: anywhere; }
        .albums span { color: var(--muted); font-size: 13px; }
        .albums a:hover strong { text-decoration: underline; }
        figure { margin: 0 auto 24px; }
        .wall { position: relative; width: 100%; }
        .wall img { display: block; width: 100%; height: auto; border-radius: 4px; }
        .wall a { position: absolute; }
        .wall a:hover, .wall a:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }
        figcaption { color: var(--muted); margin-top: 6px; font-size: 13px; }
        .skipped { color: var(--muted); font-size: 13px; }
        dialog { width: 100vw; height: 100vh; max-width: none; max-height: none; margin: 0; padding: 8px; border: 0;
          background: rgba(12, 12, 14, .96); color: #eee; }
        dialog figure { margin: 0; height: 100%; display: flex; flex-direction: column; align-items: center; }
        dialog img { max-width: 100%; max-height: calc(100% - 48px); object-fit: contain; margin: auto; }
        dialog figcaption { color: #ccc; }
        dialog figcaption a { color: #9cc4ff; }
        dialog button { position: fixed; top: 50%; font: 30px system-ui, sans-serif; background: rgba(0, 0, 0, .55); color: #fff;
          border: 0; border-radius: 6px; padding: 2px 12px; cursor: pointer; }
        dialog .previous { left: 8px; } dialog .next { right: 8px; } dialog .close { top: 8px; right: 8px; }
        .picture { display: grid; gap: 16px 24px; grid-template-columns: minmax(0, 1fr); }
        @media (min-width: 900px) { .picture { grid-template-columns: minmax(0, 1fr) 280px; } }
        .picture figure { margin: 0; }
        .picture img { display: block; max-width: 100%; max-height: 82vh; width: auto; height: auto; margin: 0 auto;
          border-radius: 4px; }
        .picture .none { padding: 48px 16px; text-align: center; background: var(--shade); border-radius: 8px; color: var(--muted); }
        dl { margin: 0; display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 4px 12px; align-content: start; }
        dt { color: var(--muted); }
        dd { margin: 0; overflow-wrap: anywhere; }
        .steps { display: flex; justify-content: space-between; gap: 12px; margin: 14px 0 0; }
        .steps a { text-decoration: none; }
        .steps a:hover { text-decoration: underline; }
        kbd { font: 12px ui-monospace, monospace; border: 1px solid var(--line); border-radius: 3px; padding: 0 3px; }
        footer { color: var(--muted); font-size: 12px; padding: 8px 16px 24px; text-align: center; }

        """
}
