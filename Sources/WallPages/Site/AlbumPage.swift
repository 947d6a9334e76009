import ImageWall

/// An album's page: the trail up the tree, the albums below it (a cover each, with their picture
/// counts and dates), its sheets — each variant shown to the windows it suits, every tile a link
/// to its picture's page — and a lightbox: a tile clicked opens large in the page, ← and →
/// step through the album, Esc closes. Without script every tile is a plain link.
package enum AlbumPage {
    /// The page of `album`, in the site `site`.
    package static func html(_ album: AlbumView, site: SitePage) -> String {
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
        body += "</main>\n" + Lightbox.site.markup + "\n<footer>Made with ImageWall</footer>"
        let title = album.path.isEmpty ? site.title : "\(album.name) — \(site.title)"
        return site.document(title: title, body: body, script: Lightbox.site.script)
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
            let (windows, blanks) = SheetMarkup.variantWindows(v, of: ordered.map(\.columns))
            style += windows
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
                        "left: \(SheetMarkup.percent(box.x, of: sheetPage.width))",
                        "top: \(SheetMarkup.percent(box.y, of: sheetPage.height))",
                        "width: \(SheetMarkup.percent(box.width, of: sheetPage.width))",
                        "height: \(SheetMarkup.percent(box.height, of: sheetPage.height))",
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
}
