#!/usr/bin/env python3
"""Loads an `imagewall diff --report` page in headless Chromium and checks it against the
diff's own output: the page loads without the network, every image in it (the sheets, the
changes, each tile's crops) decodes, and every tile the diff names is listed with its kind.
A screenshot is saved beside the page (report.png) to look at.
usage: check_report.py REPORT.html DIFF-OUTPUT.txt"""
import html as htmllib, json, os, re, shutil, subprocess, sys

page, output = sys.argv[1], sys.argv[2]
folder = os.path.dirname(os.path.abspath(page))
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
text = open(page, encoding="utf-8").read()
if re.search(r'(src|href)="(https?:|//)', text):
    sys.exit("check-report: the page loads something from the network")
harness = os.path.join(folder, ".check-" + os.path.basename(page))
open(harness, "w", encoding="utf-8").write(text.replace("</body>", probe + "</body>"))
browser = shutil.which("chromium") or shutil.which("chromium-browser")
common = [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
          "--hide-scrollbars", "--virtual-time-budget=10000", "--window-size=1200,900"]
try:
    dom = subprocess.run(common + ["--dump-dom", "file://" + harness], capture_output=True, text=True, timeout=120).stdout
    subprocess.run(common + [f"--screenshot={folder}/report.png", "file://" + os.path.abspath(page)],
                   capture_output=True, timeout=120)
finally:
    os.unlink(harness)
found = re.search(r'<pre id="check">(.*?)</pre>', dom, re.S)
if not found:
    sys.exit("check-report: the page did not finish loading in Chromium")
report = json.loads(htmllib.unescape(found.group(1)))
problems = [f"image {i['alt']} did not decode" for i in report["images"] if not i["ok"]]
problems += [f"image {i['alt']} is not inside the page" for i in report["images"] if i["src"] != "data:"]
listed = {tuple(t) for t in report["tiles"]}
problems += [f"{kind} tile {name} is not listed" for kind, name in named if (kind, name) not in listed]
if not named:
    problems.append("the diff named no tiles: nothing to check")
if problems:
    print("\n".join(problems)); sys.exit(1)
print(f"check-report: {len(report['images'])} images decode, all {len(named)} tiles the diff names are listed")
