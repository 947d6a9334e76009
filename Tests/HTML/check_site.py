#!/usr/bin/env python3
"""Walks a gallery site (imagewall gallery) in headless Chromium as a reader would, at a phone's
window (390x844) and a laptop's (1280x900): the top page, every album from it, in each album a
tile opened large in the page and stepped with the → key, that tile's picture page, and the next
picture's. On every page: every image has alt text and loads (renditions, sheets, covers), no
error reaches the console, no script of the page's text runs (alert and the like are caught), no
link has a scheme of its own (only the map's https link leaves the site), nothing is wider than
the window; an album shows the 2-column sheet on the phone and the 4-column one on the laptop.
On the phone the top page and four albums are walked, on the laptop every album and the pictures
of ten; the pages of the hostile NAMEs, in the album Hostile, at both.
usage: check_site.py SITE/index.html NAME...   (NAMEs: hostile names that must show as text)"""
import html as htmllib, json, os, re, shutil, subprocess, sys, urllib.parse

top = os.path.abspath(sys.argv[1])
site = os.path.dirname(top)
hostile = sys.argv[2:]
browser = shutil.which("chromium") or shutil.which("chromium-browser")

HEAD = """<script>
window.__errors = []; window.__ran = [];
window.addEventListener('error', e => {
  const t = e.target;
  __errors.push(t && t !== window ? 'did not load: ' + (t.currentSrc || t.src || t.href) : 'error: ' + e.message);
}, true);
window.addEventListener('unhandledrejection', e => __errors.push('rejection: ' + e.reason));
console.error = (...a) => __errors.push('console: ' + a.join(' '));
for (const n of ['alert', 'confirm', 'prompt', 'open']) window[n] = (...a) => __ran.push(n + ': ' + a.join(' '));
</script>"""

PROBE = """<script>
window.addEventListener('load', () => setTimeout(async () => {
  const r = {errors: __errors, ran: __ran, title: document.title};
  const images = [...document.images];
  r.images = images.length;
  r.noAlt = images.filter(i => !(i.getAttribute('alt') || '').trim()).map(i => i.outerHTML.slice(0, 160));
  const urls = new Set();
  for (const i of images) {
    const src = i.getAttribute('src');
    if (src && !src.startsWith('data:')) urls.add(new URL(src, location.href).href);
    for (const c of (i.getAttribute('srcset') || '').split(',')) {
      const u = c.trim().split(' ')[0];
      if (u && !u.startsWith('data:')) urls.add(new URL(u, location.href).href);
    }
  }
  r.broken = [];
  await Promise.all([...urls].map(u => new Promise(done => {
    const im = new Image();
    im.onload = () => { if (!im.naturalWidth) r.broken.push(u); done(); };
    im.onerror = () => { r.broken.push(u); done(); };
    im.src = u;
  })));
  r.loadedImages = urls.size;
  r.links = [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'));
  r.overflow = document.documentElement.scrollWidth > innerWidth + 1;
  r.columns = [...document.querySelectorAll('section.variant')].filter(s => s.offsetParent !== null)
    .map(s => +s.dataset.columns);
  const tiles = [...document.querySelectorAll('.wall a')].filter(a => a.offsetParent !== null);
  r.tiles = tiles.length;
  if (tiles.length) {
    const opened = tiles.find(a => a.dataset.view) || tiles[0];
    r.firstTile = opened.getAttribute('href');
    opened.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, button: 0}));
    const dialog = document.querySelector('dialog'), large = dialog.querySelector('img');
    r.lightbox = {open: dialog.open, count: dialog.querySelector('.count').textContent};
    await new Promise(done => { if (large.complete) done(); else { large.onload = done; large.onerror = done; } });
    r.lightbox.loaded = large.naturalWidth > 0;
    r.lightbox.alt = large.alt;
    dialog.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
    r.lightbox.after = dialog.querySelector('.count').textContent;
    dialog.close();
  }
  const next = document.querySelector('a[rel=next]');
  r.next = next ? next.getAttribute('href') : null;
  r.albums = [...document.querySelectorAll('.albums a')].map(a => a.getAttribute('href'));
  r.text = document.body.innerText;
  const pre = document.createElement('pre'); pre.id = 'check'; pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
}, 100));
</script>"""


def visit(page, window):
    """The probe's findings on `page` (absolute) at `window` ("W,H")."""
    text = open(page, encoding="utf-8").read()
    harness = os.path.join(os.path.dirname(page), ".check-" + os.path.basename(page))
    open(harness, "w", encoding="utf-8").write(
        text.replace("<head>", "<head>\n" + HEAD, 1).replace("</body>", PROBE + "</body>"))
    try:
        dom = subprocess.run([browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                              "--allow-file-access-from-files", "--virtual-time-budget=15000",
                              f"--window-size={window}", "--dump-dom", "file://" + urllib.parse.quote(harness)],
                             capture_output=True, text=True, timeout=120).stdout
    finally:
        os.unlink(harness)
    found = re.search(r'<pre id="check">(.*?)</pre>', dom, re.S)
    if not found:
        sys.exit(f"check-site: {os.path.relpath(page, site)} did not finish loading in Chromium")
    return json.loads(htmllib.unescape(found.group(1)))


def target(page, href):
    return os.path.normpath(os.path.join(os.path.dirname(page), urllib.parse.unquote(href)))


problems, counts = [], {}
# The laptop walks every album and the pictures of ten; the phone the top and four albums.
for window, columns, albums, walked in (("390,844", 2, 5, 4), ("1280,900", 4, 10**6, 10)):
    seen, queue, pictures = set(), [top], []
    while queue and len(seen) < albums:
        page = queue.pop(0)
        if page in seen:
            continue
        seen.add(page)
        name = f"{os.path.relpath(page, site)} at {window}"
        r = visit(page, window)
        for kind in ("errors", "ran", "noAlt", "broken"):
            for item in r[kind]:
                problems.append(f"{name}: {kind}: {item}")
        if r["overflow"]:
            problems.append(f"{name}: wider than the window")
        for href in r["links"]:
            if href.startswith("https://"):
                continue
            if not (href.startswith("./") or href.startswith("../")):
                problems.append(f"{name}: a link that is not relative: {href}")
            elif not os.path.exists(target(page, href)):
                problems.append(f"{name}: a link to nothing: {href}")
        # Albums of the tree's own folders first (the hostile names, the samples, the camera).
        queue += sorted((target(page, href) for href in r["albums"]), key=lambda p: "corpora" in p)
        if r["tiles"] and len(pictures) < 2 * walked:
            if r["columns"] != [columns]:
                problems.append(f"{name}: shows the {r['columns']}-column sheet, not the {columns}-column one")
            box = r["lightbox"]
            if not (box["open"] and box["loaded"] and box["alt"] and box["count"].startswith("1 of")):
                problems.append(f"{name}: the tile opened large did not show: {box}")
            elif box["after"] == box["count"] and not box["count"].endswith("of 1"):
                problems.append(f"{name}: → did not step to the next picture ({box})")
            first = target(page, r["firstTile"])
            picture = visit(first, window)
            pictures.append(first)
            for kind in ("errors", "ran", "noAlt", "broken"):
                for item in picture[kind]:
                    problems.append(f"{os.path.relpath(first, site)} at {window}: {kind}: {item}")
            if picture["loadedImages"] == 0 and "no preview" not in picture["text"]:
                problems.append(f"{os.path.relpath(first, site)}: no picture and no reason")
            if picture["next"]:
                following = target(first, picture["next"])
                after = visit(following, window)
                pictures.append(following)
                for kind in ("errors", "ran", "noAlt", "broken"):
                    for item in after[kind]:
                        problems.append(f"{os.path.relpath(following, site)} at {window}: {kind}: {item}")
    # Each hostile name's own page shows it as its heading, and nothing of it runs.
    for shown in hostile:
        page = os.path.join(site, "Hostile", "_pictures", shown + ".html")
        r = visit(page, window)
        pictures.append(page)
        for kind in ("errors", "ran", "noAlt", "broken"):
            for item in r[kind]:
                problems.append(f"the page of {shown!r} at {window}: {kind}: {item}")
        if shown not in r["text"]:
            problems.append(f"the page of {shown!r} does not show it as text")
        if not r["title"].startswith(f"{shown} — Hostile — "):
            problems.append(f"the page of {shown!r} has the title {r['title']!r}")
    counts[window] = (len(seen), len(pictures))
    if window == "1280,900":
        subprocess.run([browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--window-size={window}", f"--screenshot={site}/check-site.png", "file://" + top],
                       capture_output=True, timeout=120)
if problems:
    print("\n".join(problems[:60]) + (f"\n… and {len(problems) - 60} more" if len(problems) > 60 else ""))
    sys.exit(1)
print("check-site: " + "; ".join(f"{w.replace(',', 'x')}: {a} album pages and {p} picture pages walked"
                                 for w, (a, p) in counts.items())
      + ": every image has alt text and loads, no console error, nothing ran, every link relative and there")
