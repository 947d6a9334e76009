#!/usr/bin/env python3
"""Loads an ImageWall --html page made for several variants (--columns 2,4 with one --html) in
headless Chromium at a phone's and a laptop's window size (390x844 and 1200x900) and checks it
against the variants' manifests: exactly one variant shows, the one whose columns suit the
window (each column at least 160 px: the phone gets the fewest columns, the laptop the most
that fit); the images requested at first are only that variant's (nothing hidden loads); and
the middle of each of its tiles, scrolled into view, is its own link. Screenshots of both sizes
are saved beside the page (variants-WxH.png).
usage: check_variants.py PAGE.html MANIFEST.json..."""
import json, sys
from headless import probe_page

page, manifest_paths = sys.argv[1], sys.argv[2:]
manifests = {json.load(open(p))["layout"]["columns"]: json.load(open(p)) for p in manifest_paths}
probe = """<script>
function whenLoaded(images, then) {
  if (images.every(i => i.complete)) then(); else setTimeout(() => whenLoaded(images, then), 50);
}
window.addEventListener('load', () => {
  const requested = [...document.images].filter(i => i.naturalWidth > 0 && !i.currentSrc.startsWith('data:')).map(i => i.closest('section').dataset.columns);
  const shown = [...document.querySelectorAll('section.variant')].filter(s => getComputedStyle(s).display !== 'none');
  const images = shown.flatMap(s => [...s.querySelectorAll('img')]);
  for (const i of images) i.loading = 'eager';
  whenLoaded(images, () => {
    const hits = {};
    for (const link of shown.flatMap(s => [...s.querySelectorAll('.wall a')])) {
      link.scrollIntoView({block: 'center'});
      const box = link.getBoundingClientRect();
      const found = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      const hit = found && found.closest('a');
      hits[link.dataset.index] = hit === link;
    }
    const report = {viewport: [innerWidth, innerHeight], scrollWidth: document.documentElement.scrollWidth,
                    shown: shown.map(s => Number(s.dataset.columns)), requested: requested.map(Number), hits: hits};
    const pre = document.createElement('pre'); pre.id = 'check'; pre.textContent = JSON.stringify(report);
    document.body.appendChild(pre);
  });
});
</script>"""
columns = sorted(manifests)
problems, summary = [], []
for width, height in [(390, 844), (1200, 900)]:
    at = f"{width}x{height}"
    report = probe_page(page, probe, "check-variants", f"variants-{at}.png", window=f"{width},{height}")
    window = report["viewport"][0]
    expected = max([c for c in columns if c * 160 <= window] or [columns[0]])
    if report["shown"] != [expected]:
        problems.append(f"{at}: shows the variants of {report['shown']} columns, expected {expected}")
    if report["scrollWidth"] > window:
        problems.append(f"{at}: the page is {report['scrollWidth']} px wide in a {window} px window")
    if not report["requested"] or any(c != expected for c in report["requested"]):
        problems.append(f"{at}: images requested at first belong to the variants {report['requested']}")
    tiles = manifests[expected]["tiles"]
    missed = [t["source"] for t in tiles if report["hits"].get(str(t["index"])) is not True]
    if missed:
        problems.append(f"{at}: {len(missed)} tiles' middles are not their links, e.g. {missed[:3]}")
    summary.append(f"{at}: the {expected}-column wall, {len(report['requested'])} images loaded at first, "
                   f"{len(tiles) - len(missed)} of {len(tiles)} tiles hit their link")
if problems:
    print("\n".join(problems)); sys.exit(1)
print("check-variants: " + "; ".join(summary))
