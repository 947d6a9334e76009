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
            * { box-sizing: border-box; }
            html, body { height: 100%; }
            body { margin: 0; padding: 12px; background: #18191c; color: #ddd; font: 14px system-ui, sans-serif;
              display: flex; flex-direction: column; gap: 8px; }
            header { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; }
            h1 { font-size: 18px; font-weight: 600; margin: 0; }
            input, button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid #555;
              background: #222; color: #ddd; }
            button { cursor: pointer; min-width: 2.2em; }
            .viewer { position: relative; flex: 1; min-height: 240px; overflow: hidden; background: #0e0f11;
              border-radius: 6px; touch-action: none; cursor: grab; outline-offset: -2px; }
            .viewer.dragging { cursor: grabbing; }
            .viewer img { position: absolute; display: block; user-select: none; -webkit-user-drag: none;
              pointer-events: none; image-rendering: auto; }
            .viewer a { position: absolute; outline: 2px solid #4da3ff; outline-offset: -2px; }
            .viewer a span { position: absolute; left: 0; bottom: 0; max-width: 100%; overflow: hidden;
              white-space: nowrap; text-overflow: ellipsis; padding: 2px 6px; background: rgba(0, 0, 0, .7);
              color: #fff; font-size: 12px; }
            .status { color: #999; }
            </style>
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
            \(script)
            </script>
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

    /// The viewer: one wall (page) at a time, drawn from the level whose pixels are at least as
    /// fine as the screen's, over the coarse level that shows it whole while tiles load.
    static let script = """
        const walls = JSON.parse(document.getElementById('walls').textContent);
        const viewer = document.querySelector('.viewer');
        const status = document.querySelector('.status');
        const pages = document.querySelector('select');
        let wall, scale, ox, oy, shown = new Map(), link = null, fitting = null;
        walls.forEach((w, i) => pages.add(new Option('page ' + w.page + ' of ' + walls.length, i)));
        pages.hidden = walls.length < 2;
        function open(i) {
          wall = walls[i];
          for (const img of shown.values()) img.remove();
          shown = new Map();
          fitWidth();
        }
        // A wall opens as wide as the window, at its top (a tall wall fitted whole would be
        // a strip of stamps); one shorter than the window is centred.
        function fitWidth() {
          fitting = fitWidth;
          const r = viewer.getBoundingClientRect();
          scale = r.width / wall.width;
          ox = 0;
          oy = Math.min(0, (wall.height - r.height / scale) / 2);
          draw();
        }
        function fit() {
          fitting = fit;
          const r = viewer.getBoundingClientRect();
          scale = Math.min(r.width / wall.width, r.height / wall.height);
          ox = (wall.width - r.width / scale) / 2;
          oy = (wall.height - r.height / scale) / 2;
          draw();
        }
        function span(index, length) {
          return [Math.max(0, index * wall.tileSize - wall.overlap),
                  Math.min(length, (index + 1) * wall.tileSize + wall.overlap)];
        }
        function levelSize(level) {
          const f = 2 ** (wall.top - level);
          return [Math.ceil(wall.width / f), Math.ceil(wall.height / f)];
        }
        function drawLevel(level, wanted, r) {
          const f = 2 ** (level - wall.top), [lw, lh] = levelSize(level), t = wall.tileSize;
          const c0 = Math.max(0, Math.floor(ox * f / t)), c1 = Math.min(Math.ceil(lw / t) - 1, Math.floor((ox + r.width / scale) * f / t));
          const r0 = Math.max(0, Math.floor(oy * f / t)), r1 = Math.min(Math.ceil(lh / t) - 1, Math.floor((oy + r.height / scale) * f / t));
          for (let row = r0; row <= r1; row++) for (let col = c0; col <= c1; col++) {
            const key = level + '/' + col + '_' + row;
            wanted.add(key);
            let img = shown.get(key);
            if (!img) {
              img = new Image();
              img.alt = '';
              img.src = wall.url + key + '.' + wall.ext;
              img.style.zIndex = level;
              viewer.appendChild(img);
              shown.set(key, img);
            }
            const [x0, x1] = span(col, lw), [y0, y1] = span(row, lh);
            img.style.left = ((x0 / f - ox) * scale) + 'px';
            img.style.top = ((y0 / f - oy) * scale) + 'px';
            img.style.width = ((x1 - x0) / f * scale) + 'px';
            img.style.height = ((y1 - y0) / f * scale) + 'px';
          }
        }
        function draw() {
          const r = viewer.getBoundingClientRect();
          const level = Math.max(0, Math.min(wall.top, wall.top + Math.ceil(Math.log2(scale * devicePixelRatio))));
          const base = Math.max(0, Math.min(level, wall.top + Math.ceil(Math.log2(Math.min(r.width / wall.width, r.height / wall.height)))));
          const wanted = new Set();
          drawLevel(base, wanted, r);
          if (level !== base) drawLevel(level, wanted, r);
          for (const [key, img] of shown) if (!wanted.has(key)) { img.remove(); shown.delete(key); }
          status.textContent = Math.round(scale * 100) + '%';
          if (link) place(link.index);
        }
        function zoom(factor, cx, cy) {
          const r = viewer.getBoundingClientRect();
          if (cx === undefined) { cx = r.width / 2; cy = r.height / 2; }
          const limit = Math.min(r.width / wall.width, r.height / wall.height) / 2;
          const next = Math.max(limit, Math.min(8 * devicePixelRatio, scale * factor));
          ox += cx / scale - cx / next; oy += cy / scale - cy / next; scale = next;
          fitting = null;
          draw();
        }
        function tileAt(x, y) {
          const b = wall.boxes;
          for (let i = 0; i < b.length; i++) {
            if (x >= b[i][0] && y >= b[i][1] && x < b[i][0] + b[i][2] && y < b[i][1] + b[i][3]) return i;
          }
          return -1;
        }
        function place(i) {
          const b = wall.boxes[i];
          link.style.left = ((b[0] - ox) * scale) + 'px';
          link.style.top = ((b[1] - oy) * scale) + 'px';
          link.style.width = (b[2] * scale) + 'px';
          link.style.height = (b[3] * scale) + 'px';
        }
        function hover(i) {
          if (i < 0) { if (link) { link.remove(); link = null; } return; }
          if (!link) {
            link = document.createElement('a');
            link.appendChild(document.createElement('span'));
            link.style.zIndex = 100;
            viewer.appendChild(link);
          }
          link.index = i;
          link.href = wall.links[i];
          link.title = wall.names[i];
          link.setAttribute('aria-label', wall.names[i]);
          link.firstChild.textContent = wall.names[i];
          place(i);
        }
        let drag = null;
        viewer.addEventListener('pointerdown', e => {
          if (e.button !== 0) return;
          drag = { x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
        });
        viewer.addEventListener('pointermove', e => {
          const r = viewer.getBoundingClientRect();
          if (drag && e.pointerId === drag.id) {
            const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
            if (!drag.moved && Math.abs(dx) + Math.abs(dy) > 4) {
              drag.moved = true;
              viewer.setPointerCapture(e.pointerId);
              viewer.classList.add('dragging');
            }
            if (drag.moved) {
              ox -= dx / scale; oy -= dy / scale; drag.x = e.clientX; drag.y = e.clientY; fitting = null;
              draw();
              return;
            }
          }
          hover(tileAt(ox + (e.clientX - r.left) / scale, oy + (e.clientY - r.top) / scale));
        });
        viewer.addEventListener('pointerup', e => {
          if (drag && drag.moved) e.preventDefault();
          viewer.classList.remove('dragging');
          setTimeout(() => { drag = null; });
        });
        viewer.addEventListener('click', e => { if (drag && drag.moved) e.preventDefault(); }, true);
        viewer.addEventListener('wheel', e => {
          e.preventDefault();
          const r = viewer.getBoundingClientRect();
          zoom(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.002)), e.clientX - r.left, e.clientY - r.top);
        }, { passive: false });
        viewer.addEventListener('dblclick', e => {
          const r = viewer.getBoundingClientRect();
          zoom(e.shiftKey ? 0.5 : 2, e.clientX - r.left, e.clientY - r.top);
        });
        viewer.addEventListener('keydown', e => {
          const step = 80 / scale;
          const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
          if (moves[e.key]) { ox += moves[e.key][0]; oy += moves[e.key][1]; fitting = null; draw(); }
          else if (e.key === '+' || e.key === '=') zoom(1.5);
          else if (e.key === '-') zoom(1 / 1.5);
          else if (e.key === '0') fit();
          else if (e.key === 'w') fitWidth();
          else return;
          e.preventDefault();
        });
        for (const button of document.querySelectorAll('button[data-zoom]')) {
          button.addEventListener('click', () => {
            const kind = button.dataset.zoom;
            if (kind === 'fit') fit(); else if (kind === 'width') fitWidth(); else zoom(kind === 'in' ? 1.5 : 1 / 1.5);
          });
        }
        pages.addEventListener('change', () => open(Number(pages.value)));
        document.querySelector('input').addEventListener('keydown', e => {
          if (e.key !== 'Enter') return;
          const text = e.target.value.trim().toLowerCase();
          if (!text) return;
          for (let w = 0; w < walls.length; w++) {
            const i = walls[w].names.findIndex(name => name.toLowerCase().includes(text));
            if (i < 0) continue;
            if (walls[w] !== wall) { pages.value = w; open(w); }
            const r = viewer.getBoundingClientRect(), b = wall.boxes[i];
            scale = Math.min(r.width / b[2], r.height / b[3]) * 0.8;
            ox = b[0] + b[2] / 2 - r.width / 2 / scale; oy = b[1] + b[3] / 2 - r.height / 2 / scale;
            fitting = null;
            draw();
            hover(i);
            return;
          }
          status.textContent = 'no image named like “' + e.target.value + '”';
        });
        // A window resized (a phone turned) keeps the view fitted as it was, until moved or zoomed.
        addEventListener('resize', () => fitting ? fitting() : draw());
        open(0);
        """
}
