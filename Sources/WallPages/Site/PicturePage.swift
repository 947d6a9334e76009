import Foundation
import ImageWall
import WallCodecs
import WallFiles

/// A picture's own page, at a URL that stays while the file keeps its name and folder: the
/// picture at the window's size (its 1x and 2x renditions through `srcset`), its description,
/// what the camera recorded (date, camera, lens, exposure), its size, its place (a link built
/// from the site's map template: nothing is fetched), the original, and the previous and next
/// pictures of the album (← →, Esc up to the album).
package enum PicturePage {
    /// The page of `picture`, `number` of `count` in `album`, between `previous` and `next`.
    package static func html(
        _ picture: PictureView, number: Int, of count: Int, previous: PictureView?, next: PictureView?,
        album: AlbumView, site: SitePage
    ) -> String {
        let page = picture.page
        var body = "<header class=\"top\">\n"
        body += site.trail(album.trail, from: page, currentIsLast: false) + "\n"
        body += "<h1>\(SitePage.text(picture.name))</h1>\n"
        body += "<p class=\"facts\">\(number) of \(count) in \(SitePage.text(album.name))</p>\n</header>\n"
        body += "<main class=\"picture\">\n<figure>\n"
        let original = site.link(from: page, toOriginal: picture.original)
        if let shown = picture.shown {
            var sources = "\(site.link(from: page, to: shown.file)) 1x"
            if let double = picture.double {
                sources += ", \(site.link(from: page, to: double.file)) \(double.density)"
            }
            body +=
                "<img src=\"\(site.link(from: page, to: shown.file))\" srcset=\"\(sources)\" width=\"\(shown.size.width)\" height=\"\(shown.size.height)\" alt=\"\(SitePage.text(picture.alt))\">\n"
        } else {
            let reason = picture.tile.placeholder ?? "no preview could be made"
            body += "<p class=\"none\">\(SitePage.text(reason))</p>\n"
        }
        if let description = picture.entry?.details?.description {
            body += "<figcaption>\(SitePage.text(description))</figcaption>\n"
        }
        body += "</figure>\n<aside>\n<dl>\n"
        for (term, value) in facts(picture, original: original, site: site) {
            body += "<dt>\(term)</dt><dd>\(value)</dd>\n"
        }
        body += "</dl>\n<p class=\"steps\">"
        body +=
            previous.map {
                "<a rel=\"prev\" href=\"\(site.link(from: page, to: $0.page))\">‹ \(SitePage.text($0.name))</a>"
            }
            ?? "<span></span>"
        body += "<a rel=\"up\" href=\"\(site.link(from: page, to: album.page))\">Album</a>"
        body +=
            next.map {
                "<a rel=\"next\" href=\"\(site.link(from: page, to: $0.page))\">\(SitePage.text($0.name)) ›</a>"
            }
            ?? "<span></span>"
        body += "</p>\n<p class=\"facts\"><kbd>←</kbd> <kbd>→</kbd> previous and next, <kbd>Esc</kbd> the album</p>\n"
        body += "</aside>\n</main>\n<footer>Made with ImageWall</footer>"
        return site.document(
            title: "\(picture.name) — \(album.name) — \(site.title)", body: body, script: PageAssets.picturePageScript)
    }

    /// The metadata list: each term and its value as HTML (text escaped).
    static func facts(_ picture: PictureView, original: String, site: SitePage) -> [(String, String)] {
        var facts: [(String, String)] = []
        let entry = picture.entry
        if let date = entry?.date {
            let from =
                entry?.dateFrom == "modified"
                ? " (the file's time)" : entry?.dateFrom == "name" ? " (from its name)" : ""
            facts.append(("Taken", SitePage.text(readable(date)) + from))
        }
        if let camera = entry?.camera {
            if let name = camera.name { facts.append(("Camera", SitePage.text(name))) }
            if let lens = camera.lens { facts.append(("Lens", SitePage.text(lens))) }
            let exposure = [CaptionField.exposure, .aperture, .iso, .focal].compactMap { $0.text(of: camera) }
            if !exposure.isEmpty { facts.append(("Exposure", SitePage.text(exposure.joined(separator: " · ")))) }
            if let rating = camera.rating, rating > 0 {
                facts.append(
                    ("Rating", "<span aria-label=\"\(rating) of 5\">\(String(repeating: "★", count: rating))</span>"))
            }
        }
        if let duration = entry?.duration { facts.append(("Length", CaptionTemplate.readableDuration(duration))) }
        if let entry {
            facts.append(
                (
                    "Size",
                    "\(entry.capturedWidth ?? entry.width) × \(entry.capturedHeight ?? entry.height) px · \(CaptionTemplate.readableBytes(Int(entry.bytes))) · \(SitePage.text(entry.format.uppercased()))"
                ))
        }
        if let place = entry?.details?.location {
            let latitude = String(format: "%.6f", place.latitude), longitude = String(format: "%.6f", place.longitude)
            let url = site.mapLink.replacingOccurrences(of: "{lat}", with: latitude)
                .replacingOccurrences(of: "{lon}", with: longitude)
            let shown =
                String(
                    format: "%.5f° %@, %.5f° %@", abs(place.latitude), place.latitude < 0 ? "S" : "N",
                    abs(place.longitude), place.longitude < 0 ? "W" : "E")
                + (place.altitude.map { String(format: ", %.0f m", $0) } ?? "")
            facts.append(("Place", "<a href=\"\(SitePage.text(url))\" rel=\"noopener noreferrer\">\(shown)</a>"))
        }
        if picture.tile.damaged == true { facts.append(("Note", "damaged: drawn as far as it decodes")) }
        var files = "<a href=\"\(original)\">\(SitePage.text(picture.name))</a>"
        for companion in picture.companions {
            files +=
                ", <a href=\"\(site.link(from: picture.page, toOriginal: companion))\">\(SitePage.text(FilePaths.name(of: companion)))</a>"
        }
        facts.append(("Original", files))
        return facts
    }

    /// "12 May 2021, 12:21:21 (+02:00)" from "2021-05-12T12:21:21+02:00".
    static func readable(_ iso: String) -> String {
        guard let day = DateRange.parts(String(iso.prefix(10))) else { return iso }
        let rest = iso.dropFirst(11)
        let clock = String(rest.prefix(8))
        let offset = rest.dropFirst(8)
        let zone = offset.isEmpty ? "" : offset == "Z" ? " UTC" : " (\(offset))"
        return "\(day.day) \(DateRange.months[day.month - 1]) \(day.year), \(clock)\(zone)"
    }
}
