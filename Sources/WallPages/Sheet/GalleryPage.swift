import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTML page of a rendered sheet that fits any screen (or of its variants, each shown to
/// the windows it suits): each page's image scales to the window's width, and over it every tile is a link to its source, placed in percentages so it
/// stays on its tile at any size and zoom, with its name on hover, on focus and as its
/// accessible label; a field filters the tiles by name. Links are relative to the page's
/// folder; styles and script are inline, so the page needs nothing else (no network).
public enum GalleryPage {
    /// The HTML for `manifest`, to be saved at `path`.
    public static func html(_ manifest: Manifest, at path: String) -> String {
        html(variants: [manifest], at: path)
    }

    /// The narrowest window, in CSS pixels, that shows a variant of `columns` columns: one
    /// where each column is at least this wide.
    public static let columnWidth = 160

    /// One page for several variants of a sheet (`--columns 2,4`), each shown to the windows it
    /// suits: the variant of `c` columns from `c` × ``columnWidth`` px wide up to the next's
    /// width, so a phone gets the 2-column wall and a laptop the 4-column one, each with its
    /// own tile links. Images load lazily: a variant hidden at the window's width, or a page
    /// far below, is not loaded. `variants` have distinct column counts.
    ///
    /// A click on a tile opens it in the page, large, with the previous and next ones a key
    /// away (← →): the original when a browser shows it, else its rendition (`renditions`, by
    /// source; see ``GalleryRenditions``) with the original one click further. A tile that stands
    /// for a stack (`--stack`) opens on its picture with a button for each of the stack's, and
    /// ↑ ↓ step through them.
    /// `sheets` are the sheets' pages as the page shows them, by their files (JPEG copies of
    /// PNG sheets, see ``GalleryRenditions/jpegCopies(of:page:)``), when not the files themselves.
    public static func html(
        variants manifests: [Manifest], at path: String, renditions: [String: String] = [:],
        sheets: [String: String] = [:]
    ) -> String {
        precondition(!manifests.isEmpty)
        let folder = FilePaths.folder(of: path)
        let ordered = manifests.sorted { $0.layout.configuration.columns < $1.layout.configuration.columns }
        var body = "", style = ""
        for (v, manifest) in ordered.enumerated() {
            let (windows, blanks) = SheetMarkup.variantWindows(v, of: ordered.map(\.layout.configuration.columns))
            style += windows
            body +=
                "<section class=\"variant variant-\(v)\" data-columns=\"\(manifest.layout.configuration.columns)\">\n"
            for (number, page) in manifest.pages.enumerated() {
                guard let file = page.file else { continue }  // a layout not rendered: no picture
                let alt = "\(HTMLText.escape(manifest.title?.text ?? "contact sheet")) page \(number + 1)"
                body += "<figure>\n<div class=\"wall\" style=\"aspect-ratio: \(page.width) / \(page.height)\">\n"
                body +=
                    "<picture>\(blanks)<img src=\"\(HTMLText.link(from: folder, to: sheets[file] ?? file))\" width=\"\(page.width)\" height=\"\(page.height)\" alt=\"\(alt)\" loading=\"lazy\"></picture>\n"
                for tile in manifest.tiles where tile.page == number {
                    let name = HTMLText.escape(FilePaths.name(of: tile.source))
                    let box = [
                        "left: \(SheetMarkup.percent(tile.x, of: page.width))",
                        "top: \(SheetMarkup.percent(tile.y, of: page.height))",
                        "width: \(SheetMarkup.percent(tile.width, of: page.width))",
                        "height: \(SheetMarkup.percent(tile.height, of: page.height))",
                    ].joined(separator: "; ")
                    let original = HTMLText.link(from: folder, to: tile.source)
                    let view = renditions[tile.source].map { HTMLText.link(from: folder, to: $0) } ?? original
                    // A stack's pictures: their links (percent-encoded, so spaces part them).
                    var stack = "", label = name
                    if let members = tile.stack?.members, members.count > 1 {
                        let originals = members.map { HTMLText.link(from: folder, to: $0) }
                        let views = zip(members, originals).map { member, original in
                            renditions[member].map { HTMLText.link(from: folder, to: $0) } ?? original
                        }
                        stack =
                            " data-stack=\"\(views.joined(separator: " "))\" data-originals=\"\(originals.joined(separator: " "))\""
                        label += ", a stack of \(members.count)"
                    }
                    body +=
                        "<a href=\"\(original)\" style=\"\(box)\" title=\"\(label)\" aria-label=\"\(label)\" data-name=\"\(name)\" data-index=\"\(tile.index)\" data-view=\"\(view)\"\(stack)></a>\n"
                }
                let variant = ordered.count > 1 ? " · \(manifest.layout.configuration.columns) columns" : ""
                body +=
                    "</div>\n<figcaption>page \(number + 1) of \(manifest.pages.count) · \(page.width)×\(page.height) px\(variant)</figcaption>\n</figure>\n"
            }
            body += "</section>\n"
        }
        let manifest = ordered[0]
        let title = manifest.title?.text ?? "Contact sheet"
        return """
            \(HTMLText.documentStart(title: title))
            <style>
            \(PageAssets.galleryPageStyle)\(style)</style>
            </head>
            <body>
            <header><h1>\(HTMLText.escape(title)) — \(manifest.tiles.count) images</h1>
            <input type="search" placeholder="Filter by name" aria-label="Filter images by name"></header>
            \(body)\(Lightbox.sheet.markup)
            <script>
            \(Lightbox.sheet.script)\(PageAssets.galleryPageScript)</script>
            </body>
            </html>

            """
    }

    /// Writes the page of `manifest` to `path`: the gallery page (with renditions of the
    /// originals a browser cannot show, made on `threads` threads), or for a wall written as
    /// Deep Zoom pyramids a zoomable viewer. Returns warnings about sources with no rendition.
    @discardableResult
    public static func write(_ manifest: Manifest, to path: String, threads: Int = 1) throws -> [String] {
        try write(variants: [manifest], to: path, threads: threads)
    }

    /// Writes one page for the variants `manifests` to `path` (see ``html(variants:at:renditions:)``),
    /// with the renditions it needs (see ``GalleryRenditions``); a single wall written as Deep
    /// Zoom pyramids gets the zoomable viewer. The page and its files are put in place together,
    /// or not at all. Returns warnings about sources with no rendition.
    @discardableResult
    public static func write(variants manifests: [Manifest], to path: String, threads: Int = 1) throws -> [String] {
        let (outputs, warnings) = try stage(variants: manifests, to: path, threads: threads)
        try outputs.commitAll()
        return warnings
    }

    /// The page for the variants `manifests` and its files (renditions, copies of the sheets),
    /// written under temporary names to be put in place with the sheets they show (see
    /// ``write(variants:to:threads:)``): its files folder, then the page. Sheets not yet in place
    /// are read from where `written` says they are. Returns warnings about sources with no
    /// rendition.
    public static func stage(
        variants manifests: [Manifest], to path: String, threads: Int = 1, written: [String: String] = [:]
    ) throws -> (outputs: [any StagedOutput], warnings: [String]) {
        let deepZoom =
            manifests.count == 1
            && manifests[0].pages.contains { page in page.file.map { try? PageFormat(path: $0) } == .deepZoom }
        if deepZoom { return ([try staged(DeepZoomPage.html(manifests[0], at: path), to: path)], []) }
        let files = try StagedFolder(destination: GalleryRenditions.filesFolder(of: path))
        do {
            let (renditions, warnings) = try GalleryRenditions.write(
                for: manifests, page: path, threads: threads, into: files.path)
            let sheets = try GalleryRenditions.jpegCopies(
                of: manifests, page: path, written: written, into: files.path)
            let page = try staged(
                html(variants: manifests, at: path, renditions: renditions, sheets: sheets), to: path)
            if files.isEmpty {
                files.discard()  // nothing beside the page: a folder there before is left as it was
                return ([page], warnings)
            }
            return ([files, page], warnings)
        } catch {
            files.discard()
            throw error
        }
    }

    /// `page` written to a temporary file beside `path`, not yet in place.
    private static func staged(_ page: String, to path: String) throws -> AtomicFile {
        let file = try AtomicFile(destination: path)
        try file.write(Array(page.utf8))
        try file.finishWriting()
        return file
    }
}
