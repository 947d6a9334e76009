import Foundation
import ImageWall
import WallCodecs
import WallCompositor
import WallCore
import WallPages

extension SheetComparison {
    /// This comparison as a section of a report page: its summary (the first section's
    /// paragraph is `#summary`), the controls, the sheets and the changes, and every tile that
    /// differs (`li.tile`, with its kind and name) with crops before, after and of its changes.
    /// `number` tells sections of one page apart; `title` heads the section when given.
    public func reportSection(number: Int, title: String?, images: ReportImages) throws -> String {
        guard let (first, second) = sheets else {
            throw CodecError(
                .decode, path: actual, reason: "compared band by band, without the pictures a report shows")
        }
        var tilesHTML = ""
        if let tiles, let (a, b) = manifests {
            let before = a.tilesByIdentity, after = b.tilesByIdentity
            var shown = 0
            for (kind, names) in tiles.byKind {
                for name in names {
                    var crops = ""
                    if shown < 200 {
                        func figure(_ bitmap: Bitmap?, _ caption: String) throws {
                            guard let bitmap else { return }
                            crops +=
                                "<figure><img src=\"\(try images.uri(bitmap))\" alt=\"\(caption)\"><figcaption>\(caption)</figcaption></figure>"
                        }
                        let old = before[name].flatMap { $0.page == 0 ? first.cropped(to: $0.rect) : nil }
                        let new = after[name].flatMap { $0.page == 0 ? second.cropped(to: $0.rect) : nil }
                        try figure(old, "before")
                        try figure(new, "after")
                        // The tile's own picture of its changes, where it stayed in place.
                        if kind == "changed", sizes == nil, picture.size == second.size, let tile = after[name],
                            let previous = before[name], previous.rect == tile.rect
                        {
                            try figure(picture.cropped(to: tile.rect), "changes")
                        }
                        shown += 1
                    }
                    tilesHTML +=
                        "<li class=\"tile\" data-kind=\"\(kind)\" data-name=\"\(HTMLText.escape(name))\"><b>\(kind)</b> \(HTMLText.escape(name))<div class=\"crops\">\(crops)</div></li>\n"
                }
            }
        }
        let summary = lines(limit: 0).first ?? ""
        var sheets = [("expected", try images.uri(first), first.size), ("actual", try images.uri(second), second.size)]
        if sizes == nil && picture.size == second.size {
            sheets.append(("changes", try images.uri(picture), picture.size))
        }
        let heading = title.map { "<h2>\(HTMLText.escape($0))</h2>\n" } ?? ""
        return """
            <section class="fixture" id="fixture-\(number)">
            \(heading)<p class="summary"\(number == 0 ? " id=\"summary\"" : "")>\(HTMLText.escape(summary))<br>expected: \(HTMLText.escape(expected)) · actual: \(HTMLText.escape(actual))</p>
            <div class="controls">
            <button data-view="expected">Expected</button><button data-view="actual">Actual</button>
            <button data-view="changes">Changes</button><button data-view="all">Side by side</button>
            <span>zoom</span><button data-zoom="0">fit</button><button data-zoom="1">1×</button>
            <button data-zoom="2">2×</button><button data-zoom="4">4×</button><button data-zoom="8">8×</button>
            </div>
            <div class="sheets">
            \(sheets.map { "<figure data-view=\"\($0.0)\"><img src=\"\($0.1)\" alt=\"\($0.0)\" width=\"\($0.2.width)\" height=\"\($0.2.height)\"><figcaption>\($0.0)</figcaption></figure>" }.joined(separator: "\n"))
            </div>
            <h3>Tiles</h3>
            <ul class="tiles"\(number == 0 ? " id=\"tiles\"" : "")>
            \(tilesHTML)</ul>
            </section>

            """
    }
}
