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
            // Outside its windows a variant is hidden, and its images are a blank pixel, so
            // that only the variant shown loads.
            var blanks = ""
            if ordered.count > 1 {
                let low = v == 0 ? nil : manifest.layout.configuration.columns * columnWidth
                let high = v == ordered.count - 1 ? nil : ordered[v + 1].layout.configuration.columns * columnWidth
                let bounds = [low.map { "(min-width: \($0)px)" }, high.map { "(max-width: \(Double($0) - 0.02)px)" }]
                    .compactMap { $0 }.joined(separator: " and ")
                style += ".variant-\(v) { display: none; }\n@media \(bounds) { .variant-\(v) { display: block; } }\n"
                let outside = [low.map { "(max-width: \(Double($0) - 0.02)px)" }, high.map { "(min-width: \($0)px)" }]
                blanks = outside.compactMap { $0 }.map { "<source media=\"\($0)\" srcset=\"\(blankPixel)\">" }.joined()
            }
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
                        "left: \(percent(tile.x, of: page.width))", "top: \(percent(tile.y, of: page.height))",
                        "width: \(percent(tile.width, of: page.width))",
                        "height: \(percent(tile.height, of: page.height))",
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
            * { box-sizing: border-box; }
            body { margin: 0; padding: 16px; background: #18191c; color: #ddd; font: 14px system-ui, sans-serif; }
            header { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: baseline; margin-bottom: 12px; }
            h1 { font-size: 18px; font-weight: 600; margin: 0; }
            input { font: inherit; padding: 4px 8px; border-radius: 6px; border: 1px solid #555; background: #222; color: #ddd; }
            figure { margin: 0 auto 24px; max-width: 100%; }
            .wall { position: relative; width: 100%; }
            .wall img { display: block; width: 100%; height: auto; }
            .wall a { position: absolute; outline-offset: -2px; }
            .wall a:hover, .wall a:focus { outline: 2px solid #4da3ff; }
            .wall a:hover::after, .wall a:focus::after { content: attr(data-name); position: absolute; left: 0; bottom: 0;
              max-width: 100%; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; padding: 2px 6px;
              background: rgba(0, 0, 0, .7); color: #fff; font-size: 12px; }
            .filtering a:not(.match) { background: rgba(24, 25, 28, .75); }
            .filtering a.match { outline: 2px solid #4da3ff; }
            figcaption { margin-top: 6px; color: #999; }
            dialog { width: 100vw; height: 100vh; max-width: none; max-height: none; margin: 0; padding: 8px; border: 0;
              background: rgba(10, 10, 12, .96); color: #ddd; }
            dialog figure { margin: 0; height: calc(100% - 8px); display: flex; flex-direction: column; align-items: center; }
            dialog img { max-width: 100%; max-height: calc(100% - 40px); object-fit: contain; margin: auto; }
            dialog figcaption a { color: #8cf; }
            dialog button { position: fixed; top: 50%; font: 32px system-ui, sans-serif; background: rgba(0, 0, 0, .5);
              color: #fff; border: 0; border-radius: 6px; padding: 4px 12px; }
            dialog .previous { left: 8px; } dialog .next { right: 8px; } dialog .close { top: 8px; right: 8px; }
            dialog .stack button { position: static; font-size: 14px; padding: 2px 8px; margin: 0 2px; }
            dialog .stack button[aria-current] { background: #4da3ff; }
            \(style)</style>
            </head>
            <body>
            <header><h1>\(HTMLText.escape(title)) — \(manifest.tiles.count) images</h1>
            <input type="search" placeholder="Filter by name" aria-label="Filter images by name"></header>
            \(body)<dialog aria-label="Image"><figure><img alt=""><figcaption><span class="name"></span> ·
            <a class="original">original</a> · <span class="count"></span><span class="stack"></span></figcaption></figure>
            <button class="previous" aria-label="Previous">‹</button><button class="next" aria-label="Next">›</button>
            <button class="close" aria-label="Close">×</button></dialog>
            <script>
            // A tile clicked opens large in the page; ← → move through the tiles shown, Esc closes.
            const dialog = document.querySelector('dialog'), large = dialog.querySelector('img');
            let shown = [], at = 0;
            // A stack's tile shows its pictures in turn: a button each, ↑ ↓ between them.
            let member = 0;
            function show(i, m = 0) {
              at = (i + shown.length) % shown.length;
              const link = shown[at];
              const views = link.dataset.stack ? link.dataset.stack.split(' ') : [link.dataset.view];
              const originals = link.dataset.stack ? link.dataset.originals.split(' ') : [link.href];
              member = (m + views.length) % views.length;
              const name = link.dataset.stack
                ? decodeURIComponent(originals[member].split('/').pop()) : link.dataset.name;
              large.src = views[member];
              large.alt = name;
              dialog.querySelector('.name').textContent = name;
              dialog.querySelector('.original').href = originals[member];
              dialog.querySelector('.count').textContent = (at + 1) + ' of ' + shown.length;
              const stack = dialog.querySelector('.stack');
              stack.replaceChildren();
              if (views.length > 1) {
                stack.append(' · stack: ');
                views.forEach((_, k) => {
                  const button = document.createElement('button');
                  button.type = 'button';
                  button.textContent = k + 1;
                  button.setAttribute('aria-label', 'picture ' + (k + 1) + ' of the stack of ' + views.length);
                  if (k === member) button.setAttribute('aria-current', 'true');
                  button.addEventListener('click', () => show(at, k));
                  stack.append(button);
                });
              }
            }
            document.addEventListener('click', event => {
              const link = event.target.closest('.wall a');
              if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              shown = [...document.querySelectorAll('.wall a')].filter(a => a.offsetParent !== null);
              show(shown.indexOf(link));
              dialog.showModal();
            });
            dialog.querySelector('.previous').addEventListener('click', () => show(at - 1));
            dialog.querySelector('.next').addEventListener('click', () => show(at + 1));
            dialog.querySelector('.close').addEventListener('click', () => dialog.close());
            dialog.addEventListener('keydown', event => {
              if (event.key === 'ArrowLeft') show(at - 1); else if (event.key === 'ArrowRight') show(at + 1);
              else if (event.key === 'ArrowDown') show(at, member + 1); else if (event.key === 'ArrowUp') show(at, member - 1);
            });
            document.querySelector('input').addEventListener('input', event => {
              const text = event.target.value.trim().toLowerCase();
              document.body.classList.toggle('filtering', text !== '');
              for (const link of document.querySelectorAll('.wall a')) {
                link.classList.toggle('match', text !== '' && link.dataset.name.toLowerCase().includes(text));
              }
            });
            </script>
            </body>
            </html>

            """
    }

    /// A transparent 1×1 GIF: what a hidden variant's images are.
    static let blankPixel = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"

    /// `part` of `whole` as a CSS percentage.
    static func percent(_ part: Int, of whole: Int) -> String {
        let value = whole > 0 ? Double(part) * 100 / Double(whole) : 0
        return String(format: "%.4f%%", value)
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
