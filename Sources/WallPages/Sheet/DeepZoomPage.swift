import Foundation
import ImageWall
import WallCodecs
import WallFiles
import WallJSON

/// The HTML page of a wall written as Deep Zoom pyramids: a viewer for each page that opens
/// as wide as the window, at the wall's top, and pans (drag, arrow keys) and zooms (wheel, pinch, +/−, double-click) through the pyramid's levels,
/// loading only the tiles in view; the image under the pointer is a link to its source, with
/// its name; a search field finds an image by name and zooms to it. Everything is inline (no
/// network, no library: Debian packages no OpenSeadragon).
enum DeepZoomPage {
    /// The HTML for `manifest` (whose pages are `.dzi` files), to be saved at `path`.
    static func html(_ manifest: Manifest, at path: String) -> String {
        let folder = FilePaths.folder(of: path)
        var walls: [String] = []
        for (number, page) in manifest.pages.enumerated() {
            guard let file = page.file, (try? PageFormat(path: file)) == .deepZoom else { continue }
            let geometry = DeepZoomGeometry(size: .init(width: page.width, height: page.height))
            let format = tileFormat(of: file)
            let tiles = manifest.tiles.filter { $0.page == number }
            let boxes = tiles.map { "[\($0.x),\($0.y),\($0.width),\($0.height)]" }.joined(separator: ",")
            let links = tiles.map { JSONString.quoted(HTMLText.link(from: folder, to: $0.source)) }
                .joined(separator: ",")
            let names = tiles.map {
                JSONString.quoted(FilePaths.name(of: $0.source))
            }
            .joined(separator: ",")
            let tilesFolder = HTMLText.link(from: folder, to: DeepZoomGeometry.tilesFolder(of: file))
            walls.append(
                "{\"page\":\(number + 1),\"width\":\(page.width),\"height\":\(page.height),\"top\":\(geometry.topLevel),"
                    + "\"tileSize\":\(geometry.tileSize),\"overlap\":\(geometry.overlap),"
                    + "\"url\":\(JSONString.quoted(tilesFolder + "/")),\"ext\":\(JSONString.quoted(format)),"
                    + "\"boxes\":[\(boxes)],\"links\":[\(links)],\"names\":[\(names)]}")
        }
        // No name can end the script element early or open a comment in it.
        let safeData = HTMLText.scriptData("[" + walls.joined(separator: ",\n") + "]")
        let title = manifest.title?.text ?? "Contact sheet"
        return """
            \(HTMLText.documentStart(title: title))
            <style>
            \(PageAssets.deepZoomStyle)</style>
            </head>
            <body>
            <header><h1>\(HTMLText.escape(title)) — \(manifest.tiles.count) images</h1>
            <button type="button" data-zoom="out" aria-label="Zoom out">−</button>
            <button type="button" data-zoom="in" aria-label="Zoom in">+</button>
            <button type="button" data-zoom="width">Width</button>
            <button type="button" data-zoom="fit">Fit</button>
            <select aria-label="Page"></select>
            <input type="search" placeholder="Find by name" aria-label="Find an image by name">
            <span class="status" role="status"></span></header>
            <div class="viewer" tabindex="0" aria-label="Zoomable contact sheet: drag or arrow keys to move, wheel or + and − to zoom"></div>
            <script type="application/json" id="walls">\(safeData)</script>
            <script>
            \(PageAssets.deepZoomScript)</script>
            </body>
            </html>

            """
    }

    /// The tiles' format from the `.dzi` file, "png" when it cannot be read.
    private static func tileFormat(of dzi: String) -> String {
        guard let bytes = try? FileContents.read(dzi), let text = String(validating: bytes, as: UTF8.self),
            text.contains("Format=\"jpeg\"")
        else { return "png" }
        return "jpg"
    }
}
