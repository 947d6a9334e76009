import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallFiles

/// Pictures put inside a report page as `data:` URIs (PNG), so the page needs no network and
/// no file beside it. The PNGs are made in a private folder, removed when this is released.
public final class ReportImages {
    private let folder: PrivateFolder
    private var count = 0

    /// A place to make the page's pictures in.
    public init() throws {
        folder = try PrivateFolder(temporaryNamed: "imagewall-report")
    }

    deinit { folder.remove() }

    /// `bitmap` as a PNG `data:` URI.
    public func uri(_ bitmap: Bitmap) throws -> String {
        count += 1
        let file = folder.path + "/\(count).png"
        try PNGEncoder.write(bitmap, to: file, durable: false)
        defer { unlink(file) }
        let bytes = FileManager.default.contents(atPath: file) ?? Data()
        return "data:image/png;base64," + bytes.base64EncodedString()
    }
}

/// The frame of a self-contained report page: its styles and the script that switches each
/// comparison section between its sheets (expected, actual, changes, side by side) and zooms.
public enum ReportPage {
    /// A whole page titled `title` around `body` (sections from
    /// ``SheetComparison/reportSection(number:title:images:)``, a summary table, headings).
    public static func html(title: String, body: String) -> String {
        """
        \(HTMLText.documentStart(title: title))
        <style>
        body { margin: 0; padding: 16px; background: #18191c; color: #ddd; font: 14px system-ui, sans-serif; }
        h1 { font-size: 18px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 4px; } h3 { font-size: 14px; }
        p { margin: 4px 0 12px; color: #aaa; } a { color: #4da3ff; }
        section.fixture { border-top: 1px solid #333; margin-top: 16px; }
        .controls { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 10px; align-items: center; }
        button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid #555; background: #222; color: #ddd; cursor: pointer; }
        button[aria-pressed=true] { background: #4da3ff; color: #000; }
        .sheets { display: flex; gap: 8px; overflow: auto; max-height: 80vh; border: 1px solid #333; }
        .sheets figure { margin: 0; flex: 0 0 auto; }
        .sheets img { display: block; image-rendering: pixelated; }
        .sheets figcaption, .crops figcaption { color: #999; font-size: 12px; }
        ul { list-style: none; padding: 0; } li.tile { margin: 10px 0; }
        .crops { display: flex; gap: 8px; flex-wrap: wrap; margin-top: 4px; }
        .crops figure { margin: 0; } .crops img { max-width: 300px; max-height: 300px; image-rendering: pixelated; }
        li[data-kind=changed] b { color: #ff6b6b; } li[data-kind=moved] b { color: #ffd43b; }
        li[data-kind=appeared] b { color: #69db7c; } li[data-kind=disappeared] b { color: #adb5bd; }
        table { border-collapse: collapse; margin: 8px 0 16px; } th, td { text-align: left; padding: 4px 12px 4px 0; vertical-align: top; }
        td.status { font-weight: bold; } tr[data-status=changed] td.status, tr[data-status=new] td.status, tr[data-status=error] td.status { color: #ff6b6b; }
        tr[data-status=passed] td.status, tr[data-status=updated] td.status { color: #69db7c; } tr[data-status=obsolete] td.status { color: #adb5bd; }
        </style>
        </head>
        <body>
        \(body)
        <script>
        for (const section of document.querySelectorAll('section.fixture')) {
          const figures = [...section.querySelectorAll('.sheets figure')];
          let view = 'all', zoom = 0;
          function show() {
            for (const f of figures) f.hidden = view !== 'all' && f.dataset.view !== view;
            const visible = figures.filter(f => !f.hidden).length;
            const box = section.querySelector('.sheets').clientWidth - 8 * visible;
            for (const f of figures) {
              const img = f.querySelector('img');
              img.style.width = (zoom ? img.naturalWidth * zoom : Math.min(img.naturalWidth, box / visible)) + 'px';
              img.style.height = 'auto';
            }
            for (const b of section.querySelectorAll('button[data-view]')) b.setAttribute('aria-pressed', b.dataset.view === view);
            for (const b of section.querySelectorAll('button[data-zoom]')) b.setAttribute('aria-pressed', Number(b.dataset.zoom) === zoom);
          }
          for (const b of section.querySelectorAll('button[data-view]')) {
            b.onclick = () => { view = b.dataset.view; show(); };
            b.hidden = b.dataset.view !== 'all' && !figures.some(f => f.dataset.view === b.dataset.view);
          }
          for (const b of section.querySelectorAll('button[data-zoom]')) b.onclick = () => { zoom = Number(b.dataset.zoom); show(); };
          window.addEventListener('load', show);
          window.addEventListener('resize', show);
        }
        </script>
        </body>
        </html>

        """
    }

    /// A suite's page: a summary table of every fixture (the failing first), then the section of
    /// each that changed.
    public static func suite(_ results: FixtureResults, sections: [String: String]) -> String {
        let order: [FixtureResult.Status] = [.error, .changed, .new, .obsolete, .updated, .passed]
        let rows = results.fixtures.enumerated().sorted { a, b in
            let ra = order.firstIndex(of: a.element.status) ?? 0, rb = order.firstIndex(of: b.element.status) ?? 0
            return ra != rb ? ra < rb : a.offset < b.offset
        }
        var table = "<table id=\"fixtures\">\n<tr><th>status</th><th>fixture</th><th>what</th></tr>\n"
        for (_, fixture) in rows {
            let name = HTMLText.escape(fixture.name)
            let link =
                sections[fixture.name] != nil
                ? "<a href=\"#\(HTMLText.escape(anchor(fixture.name)))\">\(name)</a>" : name
            table +=
                "<tr data-status=\"\(fixture.status.rawValue)\" data-name=\"\(name)\"><td class=\"status\">\(fixture.status.rawValue)</td><td>\(link)</td><td>\(HTMLText.escape(fixture.message))</td></tr>\n"
        }
        table += "</table>\n"
        let failed = results.fixtures.filter { $0.status.fails }.count
        let fixtures = results.fixtures.count - results.count(.obsolete)
        let heading = "<h1>\(failed == 0 ? "Every fixture passed" : "\(failed) of \(fixtures) fixtures failed")</h1>\n"
        let about = "<p>ImageWall \(HTMLText.escape(results.version)) · \(HTMLText.escape(results.libraries))</p>\n"
        var body = heading + about + table
        for (_, fixture) in rows {
            guard let section = sections[fixture.name] else { continue }
            body += "<div id=\"\(HTMLText.escape(anchor(fixture.name)))\">\(section)</div>\n"
        }
        return html(title: "ImageWall fixtures: \(failed) failed", body: body)
    }

    /// The id of a fixture's part of the suite page.
    static func anchor(_ name: String) -> String { "at-" + name }
}
