#!/usr/bin/env python3
"""Clicks every link of a page ImageWall wrote for files with hostile names (javascript:…,
<!--<script>…, &copy;&lt…) in headless Chromium and checks that nothing ran: no alert, no
changed title, no link whose URL has a scheme of its own; and that every link reaches the file
it names. A gallery page's tiles are clicked (each opens large) and so is the large view's
"original" link; a Deep Zoom viewer's link is put over each image by the pointer, then clicked.
Navigation to the files themselves is held back so that the page stays to be checked; any other
kind of link (javascript:, data:) is let through, so it would run. A report page (a diff's, a
suite's), given without a manifest, has every link clicked and the names it shows read back.
usage: check_hostile.py PAGE.html MANIFEST.json | check_hostile.py REPORT.html NAME..."""
import json, os, sys, urllib.parse
from headless import probe_page

page = sys.argv[1]
manifest = json.load(open(sys.argv[2])) if sys.argv[2].endswith(".json") else None
shown = [] if manifest else sys.argv[2:]
folder = os.path.dirname(os.path.abspath(page))
probe = """<script>
const ran = [], clicked = [], title = document.title;
for (const name of ['alert', 'confirm', 'prompt', 'open']) window[name] = (...a) => { ran.push(name + ': ' + a.join(' ')); };
// A click that would load a file is held back (the page stays); anything else goes ahead.
window.addEventListener('click', event => {
  const a = event.target.closest && event.target.closest('a');
  if (!a) return;
  clicked.push(a.href);
  if (new URL(a.href, location.href).protocol === 'file:') event.preventDefault();
}, true);
function click(a) { a.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, button: 0})); }
window.addEventListener('load', () => setTimeout(() => {
  if (typeof wall !== 'undefined') {
    // The Deep Zoom viewer: the pointer over each image's middle, then a click on its link.
    const r = viewer.getBoundingClientRect();
    wall.boxes.forEach((b, i) => {
      scale = Math.min(r.width / b[2], r.height / b[3]) * 0.8;
      ox = b[0] + b[2] / 2 - r.width / 2 / scale; oy = b[1] + b[3] / 2 - r.height / 2 / scale;
      draw();
      viewer.dispatchEvent(new PointerEvent('pointermove', {clientX: r.left + r.width / 2, clientY: r.top + r.height / 2,
                                                             pointerId: 1, bubbles: true}));
      const a = viewer.querySelector('a');
      if (a) click(a); else ran.push('no link over image ' + i);
    });
  } else if (!document.querySelector('.wall a')) {
    for (const a of document.querySelectorAll('a')) click(a);
  } else {
    for (const a of document.querySelectorAll('.wall a')) {
      click(a);
      const original = document.querySelector('dialog .original');
      if (original && original.href) click(original);
      const dialog = document.querySelector('dialog');
      if (dialog && dialog.open) dialog.close();
    }
  }
  setTimeout(() => {
    const pre = document.createElement('pre'); pre.id = 'check';
    pre.textContent = JSON.stringify({ran: ran, clicked: clicked, title: [title, document.title],
                                      script: typeof wall !== 'undefined' || !!document.querySelector('.wall a'),
                                      text: document.body.innerText});
    document.body.appendChild(pre);
  }, 200);
}, 100));
</script>"""
report = probe_page(page, probe, "check-hostile", "hostile.png")
problems = []
if manifest and not report["script"]:
    problems.append("the page's script did not run (its data broke it)")
if report["ran"]:
    problems.append("script ran or a link was missing: " + "; ".join(report["ran"]))
if report["title"][0] != report["title"][1]:
    problems.append(f"the title changed from {report['title'][0]!r} to {report['title'][1]!r}")
names = {os.path.realpath(t["source"]) for t in manifest["tiles"]} if manifest else set()
reached = set()
for name in shown:
    if name not in report["text"]:
        problems.append(f"the page does not show {name!r} as text")
for href in report["clicked"]:
    url = urllib.parse.urlparse(href)
    if url.scheme == "file" and url.fragment and not manifest:
        continue  # a report's link within itself
    if url.scheme != "file":
        problems.append(f"a link is not to a file: {href}")
        continue
    target = os.path.realpath(urllib.parse.unquote(url.path))
    if not os.path.isfile(target):
        problems.append(f"a link goes to a file that does not exist: {href}")
    reached.add(target)
for missing in sorted(names - reached):
    problems.append(f"no link reached {os.path.basename(missing)}")
if problems:
    print("\n".join(problems)); sys.exit(1)
print(f"check-hostile: {os.path.basename(page)}: {len(report['clicked'])} links clicked, nothing ran, "
      + (f"all {len(names)} files reached" if manifest else f"{len(shown)} names shown as text"))
