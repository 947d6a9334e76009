#!/usr/bin/env python3
"""Loads an `imagewall diff --report` page in headless Chromium and checks it against the
diff's own output: the page loads without the network, every image in it (the sheets, the
changes, each tile's crops) decodes, and every tile the diff names is listed with its kind.
A screenshot is saved beside the page (report.png) to look at.
usage: check_report.py REPORT.html DIFF-OUTPUT.txt"""
import re, sys

from headless import probe_page

page, output = sys.argv[1], sys.argv[2]
named = []
for line in open(output, encoding="utf-8"):
    found = re.match(r"^(changed|moved|appeared|disappeared): (.*)$", line.rstrip("\n"))
    if found and not found.group(2).startswith("… and "):
        named.append((found.group(1), found.group(2)))
probe = """<script>
window.addEventListener('load', () => {
  const report = {
    images: [...document.images].map(i => ({alt: i.alt, ok: i.complete && i.naturalWidth > 0, src: i.src.slice(0, 5)})),
    tiles: [...document.querySelectorAll('li.tile')].map(li => [li.dataset.kind, li.dataset.name]),
    summary: document.getElementById('summary').textContent
  };
  const pre = document.createElement('pre'); pre.id = 'check'; pre.textContent = JSON.stringify(report);
  document.body.appendChild(pre);
});
</script>"""
report = probe_page(page, probe, "check-report", "report.png", window="1200,900")
problems = [f"image {i['alt']} did not decode" for i in report["images"] if not i["ok"]]
problems += [f"image {i['alt']} is not inside the page" for i in report["images"] if i["src"] != "data:"]
listed = {tuple(t) for t in report["tiles"]}
problems += [f"{kind} tile {name} is not listed" for kind, name in named if (kind, name) not in listed]
if not named:
    problems.append("the diff named no tiles: nothing to check")
if problems:
    print("\n".join(problems)); sys.exit(1)
print(f"check-report: {len(report['images'])} images decode, all {len(named)} tiles the diff names are listed")
