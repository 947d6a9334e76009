#!/usr/bin/env python3
"""Loads an ImageWall --html page in headless Chromium at a laptop's and a phone's window size
(1200x900 and 390x844) and checks it against the manifest: every page image loads at its
recorded size and fits the window (no horizontal scrolling), loading lazily (at first only
those near the window); every tile has a link to its
source named after it (title and accessible label); and a click on the middle of each tile, as
the browser lays the page out at that size, lands on that tile's link. Screenshots of both
sizes are saved beside the page (shot-1200x900.png, shot-390x844.png) to look at.
usage: check_html.py PAGE.html MANIFEST.json"""
import json, os, sys, urllib.parse
from headless import probe_page

page, manifest_path = sys.argv[1], sys.argv[2]
manifest = json.load(open(manifest_path))
probe = """<script>
function whenLoaded(then) {
  if ([...document.images].every(i => i.complete)) then(); else setTimeout(() => whenLoaded(then), 50);
}
window.addEventListener('load', () => {
  // Pages load lazily: those requested at first are noted, then every one is loaded to measure.
  const requested = [...document.querySelectorAll('.wall img')].filter(i => i.naturalWidth > 0).map(i => i.src);
  for (const i of document.querySelectorAll('.wall img')) i.loading = 'eager';
  whenLoaded(() => measure(requested));
});
function measure(requested) {
  const links = [...document.querySelectorAll('.wall a')];
  const hits = {};
  for (const link of links) {
    const img = link.parentElement.querySelector('img');
    const box = img.getBoundingClientRect();
    const scale = box.width / img.naturalWidth;
    const left = parseFloat(link.style.left) / 100 * img.naturalWidth, top = parseFloat(link.style.top) / 100 * img.naturalHeight;
    const width = parseFloat(link.style.width) / 100 * img.naturalWidth, height = parseFloat(link.style.height) / 100 * img.naturalHeight;
    // The middle of the tile, scrolled into the window, then asked what is there.
    const pageY = window.scrollY + box.top + (top + height / 2) * scale;
    window.scrollTo(0, pageY - window.innerHeight / 2);
    const fresh = img.getBoundingClientRect();
    const x = fresh.left + (left + width / 2) * scale, y = fresh.top + (top + height / 2) * scale;
    const found = document.elementFromPoint(x, y);
    const hit = found && found.closest('a');
    hits[link.dataset.index] = hit ? hit.dataset.index : null;
  }
  window.scrollTo(0, 0);
  // A tile drawn from a rendition, clicked: it opens large, and the next one after it.
  const rendered = links.find(a => a.dataset.view.includes('_files/renditions/'));
  const opened = {};
  if (rendered) {
    rendered.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, button: 0}));
    const large = document.querySelector('dialog img');
    opened.open = document.querySelector('dialog').open;
    opened.name = document.querySelector('dialog .name').textContent;
    opened.original = document.querySelector('dialog .original').href === rendered.href;
    whenLoaded(() => {
      opened.width = large.naturalWidth;
      document.querySelector('dialog .next').click();
      opened.next = document.querySelector('dialog .name').textContent;
      finish(links, hits, requested, opened);
    });
  } else {
    finish(links, hits, requested, opened);
  }
}
function finish(links, hits, requested, opened) {
  const report = {
    viewport: [window.innerWidth, window.innerHeight],
    scrollWidth: document.documentElement.scrollWidth,
    images: [...document.querySelectorAll('.wall img')].map(i => ({src: i.src, complete: i.complete, width: i.naturalWidth, height: i.naturalHeight,
                                            shown: i.getBoundingClientRect().width})),
    links: links.map(a => ({href: a.href, title: a.title, label: a.getAttribute('aria-label'), index: a.dataset.index,
                            view: new URL(a.dataset.view, location.href).href})),
    hits: hits, requested: requested, opened: opened
  };
  const pre = document.createElement('pre'); pre.id = 'check'; pre.textContent = JSON.stringify(report);
  document.body.appendChild(pre);
}
</script>"""
text = open(page, encoding="utf-8").read()
if "<map" in text or "<area" in text:
    sys.exit("check-html: the page uses a fixed-pixel image map")
problems, summary = [], []
for width, height in [(1200, 900), (390, 844)]:
    at = f"{width}x{height}"
    report = probe_page(page, probe, "check-html", f"shot-{at}.png", window=f"{width},{height}")
    if report["scrollWidth"] > report["viewport"][0]:
        problems.append(f"{at}: the page is {report['scrollWidth']} px wide in a {report['viewport'][0]} px window")
    pages = manifest["pages"]
    if len(report["images"]) != len(pages):
        problems.append(f"{at}: {len(report['images'])} images for {len(pages)} pages")
    for image, p in zip(report["images"], pages):
        if not image["complete"] or (image["width"], image["height"]) != (p["width"], p["height"]):
            problems.append(f"{at}: page image {image['src']} loaded as {image['width']}x{image['height']}, expected {p['width']}x{p['height']}")
        if image["shown"] > report["viewport"][0]:
            problems.append(f"{at}: page image shown {image['shown']:.0f} px wide in a {report['viewport'][0]} px window")
    if not 1 <= len(report["requested"]) <= len(pages):
        problems.append(f"{at}: {len(report['requested'])} page images requested at first, of {len(pages)}")
    links = {int(a["index"]): a for a in report["links"]}
    hits = 0
    for tile in manifest["tiles"]:
        link = links.get(tile["index"])
        if link is None:
            problems.append(f"{at}: no link for {tile['source']}"); continue
        target = urllib.parse.unquote(urllib.parse.urlparse(link["href"]).path)
        if os.path.realpath(target) != os.path.realpath(tile["source"]):
            problems.append(f"{at}: link of {tile['source']} goes to {target}")
        name = os.path.basename(tile["source"])
        if link["title"] != name or link["label"] != name:
            problems.append(f"{at}: link of {tile['source']} is named {link['title']!r} / {link['label']!r}")
        hit = report["hits"].get(str(tile["index"]))
        if hit != str(tile["index"]):
            problems.append(f"{at}: a click on the middle of {name} lands on {hit}")
        else:
            hits += 1
    # Originals a browser cannot show are viewed through a JPEG rendition beside the page.
    unviewable = (".heic", ".heif", ".tif", ".tiff", ".jxl", ".mp4", ".mov", ".mkv", ".webm", ".avi", ".nef", ".cr2", ".dng")
    renditions = 0
    for link in report["links"]:
        target = urllib.parse.unquote(urllib.parse.urlparse(link["href"]).path)
        if target.lower().endswith(unviewable):
            view = urllib.parse.unquote(urllib.parse.urlparse(link["view"]).path)
            if "_files/renditions/" not in view or not os.path.isfile(view):
                problems.append(f"{at}: {os.path.basename(target)} has no rendition to show ({view})")
            else:
                renditions += 1
    opened = report["opened"]
    if renditions and not (opened.get("open") and opened.get("original") and opened.get("width", 0) > 0
                           and opened.get("next") and opened["next"] != opened.get("name")):
        problems.append(f"{at}: a tile clicked did not open large with its original linked and a next one: {opened}")
    summary.append(f"{at}: {len(pages)} page images fit, {hits} of {len(manifest['tiles'])} tiles hit their link, "
                   f"{renditions} shown through renditions, opened large: {opened.get('name')} → {opened.get('next')}")
if problems:
    print("\n".join(problems)); sys.exit(1)
print("check-html: " + "; ".join(summary))
