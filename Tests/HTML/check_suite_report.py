#!/usr/bin/env python3
"""Loads an `imagewall check SUITE --report` page in headless Chromium and checks it against the
run's JSON result: the page loads without the network, every image in it decodes, the summary
table lists every fixture with its status (the failing ones first), and every fixture that
changed has its section with each of its tiles listed. A screenshot is saved beside the page.
usage: check_suite_report.py REPORT.html RESULT.json"""
import json, re, sys

from headless import probe_page

page, result = sys.argv[1], sys.argv[2]
fixtures = json.load(open(result, encoding="utf-8"))["fixtures"]
probe = """<script>
window.addEventListener('load', () => {
  const report = {
    images: [...document.images].map(i => ({alt: i.alt, ok: i.complete && i.naturalWidth > 0, src: i.src.slice(0, 5)})),
    rows: [...document.querySelectorAll('#fixtures tr[data-status]')].map(r => [r.dataset.name, r.dataset.status]),
    sections: [...document.querySelectorAll('section.fixture')].map(s => ({
      title: (s.querySelector('h2') || {}).textContent,
      tiles: [...s.querySelectorAll('li.tile')].map(li => [li.dataset.kind, li.dataset.name])}))
  };
  const pre = document.createElement('pre'); pre.id = 'check'; pre.textContent = JSON.stringify(report);
  document.body.appendChild(pre);
});
</script>"""
report = probe_page(page, probe, "check-suite-report", "suite-report.png", window="1200,1400")
problems = [f"image {i['alt']} did not decode" for i in report["images"] if not i["ok"]]
problems += [f"image {i['alt']} is not inside the page" for i in report["images"] if i["src"] != "data:"]
rows = [tuple(r) for r in report["rows"]]
if sorted(rows) != sorted((f["name"], f["status"]) for f in fixtures):
    problems.append(f"the table lists {rows}, the run {[(f['name'], f['status']) for f in fixtures]}")
failing = {"error", "changed", "new"}
seen_passing = False
for name, status in rows:
    if status in failing and seen_passing:
        problems.append(f"{name} ({status}) is listed after a fixture that did not fail")
    seen_passing = seen_passing or status not in failing
sections = {s["title"]: {tuple(t) for t in s["tiles"]} for s in report["sections"]}
for f in fixtures:
    if f["status"] != "changed":
        continue
    if f["name"] not in sections:
        problems.append(f"changed fixture {f['name']} has no section")
        continue
    for kind, names in (f.get("tiles") or {}).items():
        problems += [f"{f['name']}: {kind} tile {n} is not listed" for n in names if (kind, n) not in sections[f["name"]]]
if not any(f["status"] == "changed" for f in fixtures):
    problems.append("no fixture changed: nothing to check")
if problems:
    print("\n".join(problems)); sys.exit(1)
print(f"check-suite-report: {len(report['images'])} images decode, {len(rows)} fixtures in the table, "
      f"{len(sections)} changed fixtures with every tile listed")
