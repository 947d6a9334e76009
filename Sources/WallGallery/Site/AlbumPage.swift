import ImageWall
import WallReview

/// An album's page: the trail up the tree, the albums below it (a cover each, with their picture
/// counts and dates), its sheets — each variant shown to the windows it suits, every tile a link
/// to its picture's page — and a lightbox: a tile clicked opens large in the page, ← and →
/// step through the album, Esc closes. Without script every tile is a plain link.
enum AlbumPage {
    static func html(_ album: AlbumView, site: SitePage) -> String {
        let page = album.page
        var facts: [String] = ["\(album.count) picture\(album.count == 1 ? "" : "s")"]
        if !album.children.isEmpty {
            facts.append("\(album.children.count) album\(album.children.count == 1 ? "" : "s")")
        }
        if let dates = album.dates { facts.append(dates.text) }
        var body = "<header class=\"top\">\n"
        body += site.trail(album.trail, from: page, currentIsLast: true) + "\n"
        body += "<h1>\(SitePage.text(album.name))</h1>\n<p class=\"facts\">\(facts.joined(separator: " · "))</p>\n"
        body += "</header>\n<main>\n"
        if !album.children.isEmpty {
            body += "<h2>Albums</h2>\n<ul class=\"albums\">\n"
            for child in album.children { body += card(child, from: page, site: site) }
            body += "</ul>\n"
        }
        if !album.sheets.isEmpty {
            if !album.children.isEmpty { body += "<h2>Pictures here</h2>\n" }
            body += sheets(album, site: site)
        }
        if !album.skipped.isEmpty {
            body +=
                "<details class=\"skipped\"><summary>\(album.skipped.count) file\(album.skipped.count == 1 ? "" : "s") not drawn</summary><ul>\n"
            for file in album.skipped {
                body += "<li>\(SitePage.text(file.name)): \(SitePage.text(file.reason))</li>\n"
            }
            body += "</ul></details>\n"
        }
        body += "</main>\n" + lightbox + "\n<footer>Made with ImageWall</footer>"
        let title = album.path.isEmpty ? site.title : "\(album.name) — \(site.title)"
        return site.document(title: title, body: body, script: script)
    }

    /// A sub-album's card: its cover, name, count and dates.
    static func card(_ child: ChildView, from page: String, site: SitePage) -> String {
        var facts = "\(child.count) picture\(child.count == 1 ? "" : "s")"
        if let dates = child.dates { facts += " · " + dates.text }
        var cover = "<span class=\"none\"></span>"
        if let picture = child.cover, let shown = picture.shown {
            let small = picture.renditions.first!
            let sources = picture.renditions.filter { $0.side <= 1024 }.map {
                "\(site.link(from: page, to: $0.file)) \($0.side)w"
            }
            let alt = SitePage.text("Cover of \(child.name): \(picture.alt)")
            cover =
                "<img src=\"\(site.link(from: page, to: small.file))\" srcset=\"\(sources.joined(separator: ", "))\" sizes=\"(max-width: 480px) 45vw, 240px\" width=\"\(shown.size.width)\" height=\"\(shown.size.height)\" alt=\"\(alt)\" loading=\"lazy\">"
        }
        return
            "<li class=\"album\"><a href=\"\(site.link(from: page, to: child.page))\">\(cover)<strong>\(SitePage.text(child.name))</strong><span>\(facts)</span></a></li>\n"
    }

    /// The sheets: each variant shown to the windows it suits (a variant of `c` columns from
    /// `c` × 160 CSS px up to the next one's), its images a blank pixel elsewhere so that only
    /// the variant shown loads; each tile a link to its picture's page.
    static func sheets(_ album: AlbumView, site: SitePage) -> String {
        let page = album.page
        let ordered = album.sheets.sorted { $0.columns < $1.columns }
        var html = "", style = ""
        for (v, sheet) in ordered.enumerated() {
            var blanks = ""
            if ordered.count > 1 {
                let low = v == 0 ? nil : sheet.columns * GalleryPage.columnWidth
                let high = v == ordered.count - 1 ? nil : ordered[v + 1].columns * GalleryPage.columnWidth
                let shown = [low.map { "(min-width: \($0)px)" }, high.map { "(max-width: \(Double($0) - 0.02)px)" }]
                    .compactMap { $0 }.joined(separator: " and ")
                style += ".variant-\(v) { display: none; }\n@media \(shown) { .variant-\(v) { display: block; } }\n"
                let outside = [low.map { "(max-width: \(Double($0) - 0.02)px)" }, high.map { "(min-width: \($0)px)" }]
                blanks = outside.compactMap { $0 }.map { "<source media=\"\($0)\" srcset=\"\(blankPixel)\">" }.joined()
            }
            html += "<section class=\"variant variant-\(v)\" data-columns=\"\(sheet.columns)\">\n"
            for (number, sheetPage) in sheet.pages.enumerated() {
                let alt = SitePage.text(
                    "Contact sheet of \(album.name)"
                        + (sheet.pages.count > 1 ? ", page \(number + 1) of \(sheet.pages.count)" : ""))
                html +=
                    "<figure>\n<div class=\"wall\" style=\"aspect-ratio: \(sheetPage.width) / \(sheetPage.height)\">\n"
                html +=
                    "<picture>\(blanks)<img src=\"\(site.link(from: page, to: sheetPage.file))\" width=\"\(sheetPage.width)\" height=\"\(sheetPage.height)\" alt=\"\(alt)\"\(number > 0 ? " loading=\"lazy\"" : "")></picture>\n"
                for (index, box) in sheet.tiles.enumerated() where box.page == number && index < album.pictures.count {
                    let picture = album.pictures[index]
                    let place = [
                        "left: \(percent(box.x, of: sheetPage.width))", "top: \(percent(box.y, of: sheetPage.height))",
                        "width: \(percent(box.width, of: sheetPage.width))",
                        "height: \(percent(box.height, of: sheetPage.height))",
                    ].joined(separator: "; ")
                    var view = ""
                    if let shown = picture.shown {
                        view = " data-view=\"\(site.link(from: page, to: shown.file))\""
                        if let double = picture.double {
                            view +=
                                " data-view2=\"\(site.link(from: page, to: double.file))\" data-density=\"\(double.density)\""
                        }
                    }
                    let alt = SitePage.text(picture.alt)
                    html +=
                        "<a href=\"\(site.link(from: page, to: picture.page))\" style=\"\(place)\" aria-label=\"\(alt)\" title=\"\(SitePage.text(picture.name))\" data-index=\"\(index)\"\(view)></a>\n"
                }
                html += "</div>\n</figure>\n"
            }
            html += "</section>\n"
        }
        return (style.isEmpty ? "" : "<style>\n\(style)</style>\n") + html
    }

    /// A transparent 1×1 GIF: what a hidden variant's images are.
    static let blankPixel = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"

    /// `part` of `whole` as a CSS percentage.
    static func percent(_ part: Int, of whole: Int) -> String {
        let value = whole > 0 ? Double(part) * 100 / Double(whole) : 0
        return String(format: "%.4f%%", value)
    }

    static let lightbox = """
        <dialog aria-label="Picture"><figure><img alt="The picture opened"><figcaption><span class="name"></span> ·
        <a class="open">its page</a> · <span class="count"></span></figcaption></figure>
        <button class="previous" aria-label="Previous picture">‹</button><button class="next" aria-label="Next picture">›</button>
        <button class="close" aria-label="Close">×</button></dialog>
        """

    /// A tile clicked opens its picture in the page (1x and 2x renditions); ← → step through the
    /// tiles of the sheet shown, Esc closes. Text comes from the links' attributes and is set as
    /// text, never as markup.
    static let script = """
        const dialog = document.querySelector('dialog'), large = dialog.querySelector('img');
        let shown = [], at = 0;
        function show(i) {
          at = (i + shown.length) % shown.length;
          const link = shown[at];
          large.removeAttribute('srcset');
          large.src = link.dataset.view;
          if (link.dataset.view2) large.srcset = link.dataset.view + ' 1x, ' + link.dataset.view2 + ' ' + link.dataset.density;
          large.alt = link.getAttribute('aria-label');
          dialog.querySelector('.name').textContent = link.getAttribute('aria-label');
          dialog.querySelector('.open').href = link.href;
          dialog.querySelector('.count').textContent = (at + 1) + ' of ' + shown.length;
        }
        document.addEventListener('click', event => {
          const link = event.target.closest('.wall a');
          if (!link || !link.dataset.view || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          shown = [...document.querySelectorAll('.wall a')].filter(a => a.offsetParent !== null && a.dataset.view);
          show(shown.indexOf(link));
          dialog.showModal();
        });
        dialog.querySelector('.previous').addEventListener('click', () => show(at - 1));
        dialog.querySelector('.next').addEventListener('click', () => show(at + 1));
        dialog.querySelector('.close').addEventListener('click', () => dialog.close());
        dialog.addEventListener('keydown', event => {
          if (event.key === 'ArrowLeft') show(at - 1); else if (event.key === 'ArrowRight') show(at + 1);
        });

        """
}
