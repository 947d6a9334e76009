import ImageWall
import WallFiles

/// What every page of a site shares: where it is, its head and style (light and dark as the
/// reader's system says), the trail up the tree, and how text from files is put in it: every
/// name, caption and metadata text escaped, every link built from a name a relative URL that
/// cannot carry a scheme.
package struct SitePage {
    /// The site's folder and the tree's, absolute.
    package var site: String
    package var tree: String
    /// The site's name.
    package var title: String
    /// Where a place's coordinates link (`{lat}`, `{lon}`).
    package var mapLink: String

    /// The pages of the site in `site`, of the tree `tree`, named `title`.
    package init(site: String, tree: String, title: String, mapLink: String) {
        self.site = site
        self.tree = tree
        self.title = title
        self.mapLink = mapLink
    }

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
    static let style = PageAssets.siteStyle

    /// What the pages look like, beside the text they show: their style, scripts and lightbox;
    /// pages made with other ones are written again.
    package static let looks = [style, Lightbox.site.script, Lightbox.site.markup, PageAssets.picturePageScript]
}
