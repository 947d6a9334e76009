#!/usr/bin/env python3
"""Loads an ImageWall --html page in headless Chromium and checks it against the manifest:
every page image loads at its recorded size, and every tile has an area with the tile's
rectangle, a link resolving to its source, and its name as the hover title.
usage: check_html.py PAGE.html MANIFEST.json"""
import json, os, re, shutil, subprocess, sys, urllib.parse

page, manifest_path = sys.argv[1], sys.argv[2]
manifest = json.load(open(manifest_path))
harness = os.path.join(os.path.dirname(os.path.abspath(page)), ".check-" + os.path.basename(page))
probe = """<script>
window.addEventListener('load', () => {
  const report = {
    images: [...document.images].map(i => ({src: i.src, complete: i.complete, width: i.naturalWidth, height: i.naturalHeight})),
    areas: [...document.querySelectorAll('area')].map(a => ({coords: a.coords, href: a.href, title: a.title, index: a.dataset.index}))
  };
  const pre = document.createElement('pre'); pre.id = 'check'; pre.textContent = JSON.stringify(report);
  document.body.appendChild(pre);
});
</script>"""
html = open(page, encoding="utf-8").read().replace("</body>", probe + "</body>")
open(harness, "w", encoding="utf-8").write(html)
browser = shutil.which("chromium") or shutil.which("chromium-browser")
try:
    dom = subprocess.run([browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                          "--virtual-time-budget=10000", "--dump-dom", "file://" + harness],
                         capture_output=True, text=True, timeout=120).stdout
finally:
    os.unlink(harness)
found = re.search(r'<pre id="check">(.*?)</pre>', dom, re.S)
if not found:
    sys.exit("check-html: the page did not finish loading in Chromium")
import html as htmllib
report = json.loads(htmllib.unescape(found.group(1)))
problems = []
pages = manifest["pages"]
if len(report["images"]) != len(pages):
    problems.append(f"{len(report['images'])} images for {len(pages)} pages")
for image, p in zip(report["images"], pages):
    if not image["complete"] or (image["width"], image["height"]) != (p["width"], p["height"]):
        problems.append(f"page image {image['src']} loaded as {image['width']}x{image['height']}, expected {p['width']}x{p['height']}")
areas = {int(a["index"]): a for a in report["areas"]}
for tile in manifest["tiles"]:
    area = areas.get(tile["index"])
    if area is None:
        problems.append(f"no area for {tile['source']}"); continue
    coords = [int(v) for v in area["coords"].split(",")]
    if coords != [tile["x"], tile["y"], tile["x"] + tile["width"], tile["y"] + tile["height"]]:
        problems.append(f"area of {tile['source']} is {coords}")
    target = urllib.parse.unquote(urllib.parse.urlparse(area["href"]).path)
    if os.path.realpath(target) != os.path.realpath(tile["source"]):
        problems.append(f"area of {tile['source']} links to {target}")
    if area["title"] != os.path.basename(tile["source"]):
        problems.append(f"area of {tile['source']} is titled {area['title']!r}")
if problems:
    print("\n".join(problems)); sys.exit(1)
print(f"check-html: {len(pages)} page images loaded, {len(areas)} areas match the manifest")
