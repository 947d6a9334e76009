#!/usr/bin/env python3
"""Loads the --html viewer of a wall written as Deep Zoom pyramids in headless Chromium at a
laptop's and a phone's window size (1200x900 and 390x844) and checks it against the manifest:
the viewer fits the window (no horizontal scrolling) and opens the wall as wide as the window,
at its top; the tiles in view load (every one decodes); zoomed in, the finer level's tiles load
too; and for every image of the first page, moved into view, the pointer over its middle puts a
link to its source there, named after it. Screenshots of
both sizes, fitted and zoomed, are saved beside the page (dzi-WxH.png, dzi-WxH-zoom.png).
usage: check_dzi.py PAGE.html MANIFEST.json"""
import html as htmllib, json, os, re, shutil, subprocess, sys, urllib.parse

page, manifest_path = sys.argv[1], sys.argv[2]
manifest = json.load(open(manifest_path))
folder = os.path.dirname(os.path.abspath(page))
probe = """<script>
function settle(then) {
  const pending = [...document.querySelectorAll('.viewer img')].filter(i => !i.complete);
  if (pending.length) setTimeout(() => settle(then), 50); else then();
}
function loaded() {
  return [...document.querySelectorAll('.viewer img')].map(i => ({src: i.src, ok: i.complete && i.naturalWidth > 0}));
}
window.addEventListener('load', () => settle(() => {
  const r = viewer.getBoundingClientRect();
  const fitted = loaded(), fittedScale = scale, opened = [ox, oy, wall.width, wall.height];
  const hits = [];
  wall.boxes.forEach((b, i) => {
    oy = b[1] + b[3] / 2 - r.height / 2 / scale;
    draw();
    const x = r.left + (b[0] + b[2] / 2 - ox) * scale, y = r.top + (b[1] + b[3] / 2 - oy) * scale;
    viewer.dispatchEvent(new PointerEvent('pointermove', {clientX: x, clientY: y, pointerId: 1, bubbles: true}));
    const found = document.elementFromPoint(x, y), a = found && found.closest('a');
    hits.push(a ? {href: a.href, title: a.title, label: a.getAttribute('aria-label')} : null);
  });
  hover(-1);
  zoom(8);
  settle(() => {
    const report = {
      viewport: [window.innerWidth, window.innerHeight], scrollWidth: document.documentElement.scrollWidth,
      viewer: [r.width, r.height], fitted: fitted, zoomed: loaded(), scales: [fittedScale, scale], opened: opened,
      levels: [...new Set([...document.querySelectorAll('.viewer img')].map(i => Number(i.style.zIndex)))],
      hits: hits
    };
    const pre = document.createElement('pre'); pre.id = 'check'; pre.textContent = JSON.stringify(report);
    pre.style.display = 'none';
    document.body.appendChild(pre);
  });
}));
</script>"""
zoomer = "<script>window.addEventListener('load', () => zoom(8));</script>"
text = open(page, encoding="utf-8").read()
harness = os.path.join(folder, ".check-" + os.path.basename(page))
zoomed_page = os.path.join(folder, ".zoom-" + os.path.basename(page))
open(harness, "w", encoding="utf-8").write(text.replace("</body>", probe + "</body>"))
open(zoomed_page, "w", encoding="utf-8").write(text.replace("</body>", zoomer + "</body>"))
browser = shutil.which("chromium") or shutil.which("chromium-browser")
common = [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
          "--hide-scrollbars", "--virtual-time-budget=15000"]
tiles = [t for t in manifest["tiles"] if t["page"] == 0]
problems, summary = [], []
try:
    for width, height in [(1200, 900), (390, 844)]:
        size, at = f"--window-size={width},{height}", f"{width}x{height}"
        dom = subprocess.run(common + [size, "--dump-dom", "file://" + harness],
                             capture_output=True, text=True, timeout=120).stdout
        for shot, source in [(f"dzi-{at}.png", page), (f"dzi-{at}-zoom.png", zoomed_page)]:
            subprocess.run(common + [size, f"--screenshot={folder}/{shot}", "file://" + os.path.abspath(source)],
                           capture_output=True, timeout=120)
        found = re.search(r'<pre id="check"[^>]*>(.*?)</pre>', dom, re.S)
        if not found:
            problems.append(f"{at}: the viewer did not finish loading in Chromium"); continue
        report = json.loads(htmllib.unescape(found.group(1)))
        if report["scrollWidth"] > report["viewport"][0]:
            problems.append(f"{at}: the page is {report['scrollWidth']} px wide in a {report['viewport'][0]} px window")
        if report["viewer"][0] < 100 or report["viewer"][1] < 100:
            problems.append(f"{at}: the viewer is only {report['viewer']}")
        for phase in ["fitted", "zoomed"]:
            if not report[phase]:
                problems.append(f"{at}: no tiles shown {phase}")
            for image in report[phase]:
                if not image["ok"]:
                    problems.append(f"{at}: {phase} tile {image['src']} did not load")
        ox, oy, wall_width, wall_height = report["opened"]
        if abs(report["scales"][0] * wall_width - report["viewer"][0]) > 1 or ox != 0 or oy > 0:
            problems.append(f"{at}: the wall did not open as wide as the window at its top "
                            f"(scale {report['scales'][0]:.4f}, {wall_width} px wide in {report['viewer'][0]}, at {ox}, {oy})")
        if len(report["levels"]) < 1 or report["scales"][1] <= report["scales"][0]:
            problems.append(f"{at}: zooming in did not zoom ({report['scales']})")
        good = 0
        for tile, hit in zip(tiles, report["hits"]):
            name = os.path.basename(tile["source"])
            if hit is None:
                problems.append(f"{at}: no link over the middle of {name}"); continue
            target = urllib.parse.unquote(urllib.parse.urlparse(hit["href"]).path)
            if os.path.realpath(target) != os.path.realpath(tile["source"]):
                problems.append(f"{at}: the link over {name} goes to {target}")
            elif hit["title"] != name or hit["label"] != name:
                problems.append(f"{at}: the link over {name} is named {hit['title']!r} / {hit['label']!r}")
            else:
                good += 1
        summary.append(f"{at}: {len(report['fitted'])} tiles fitted, {len(report['zoomed'])} zoomed in, "
                       f"{good} of {len(tiles)} images linked under the pointer")
finally:
    os.unlink(harness)
    os.unlink(zoomed_page)
if problems:
    print("\n".join(problems[:40])); sys.exit(1)
print("check-dzi: " + "; ".join(summary))
