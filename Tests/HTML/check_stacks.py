#!/usr/bin/env python3
"""Loads an ImageWall --html page of a wall rendered with --stack in headless Chromium (at a
phone's and a laptop's size) and opens every stack: each stacked tile is named as a stack of its
size, opens large with a button for each of the manifest's members, and each button (and ↓)
shows that picture, loaded, named, with its original linked. Nothing of a member's name may
become markup.
usage: check_stacks.py PAGE.html MANIFEST.json"""
import json, os, sys, urllib.parse
from headless import probe_page

page, manifest_path = sys.argv[1], sys.argv[2]
manifest = json.load(open(manifest_path))
stacks = {str(t["index"]): t for t in manifest["tiles"] if "stack" in t}
if not stacks:
    sys.exit("check-stacks: the manifest has no stack")
probe = """<script>
const report = {stacks: {}, injected: false};
function loaded(img, then) { if (img.complete) then(); else setTimeout(() => loaded(img, then), 50); }
const queue = [...document.querySelectorAll('.wall a[data-stack]')];
function openNext() {
  const link = queue.shift();
  if (!link) { finish(); return; }
  link.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, button: 0}));
  const dialog = document.querySelector('dialog'), large = dialog.querySelector('img');
  const buttons = [...dialog.querySelectorAll('.stack button')];
  const seen = {label: link.getAttribute('aria-label'), open: dialog.open, buttons: buttons.length, shown: []};
  report.stacks[link.dataset.index] = seen;
  let k = 0;
  function step() {
    if (k === buttons.length) {
      // ↓ from the last picture comes back to the first.
      dialog.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowDown', bubbles: true}));
      seen.wrapped = dialog.querySelector('.name').textContent;
      dialog.close();
      openNext();
      return;
    }
    dialog.querySelectorAll('.stack button')[k].click();
    loaded(large, () => {
      seen.shown.push({name: dialog.querySelector('.name').textContent, original: dialog.querySelector('.original').href,
                       width: large.naturalWidth,
                       current: dialog.querySelectorAll('.stack button')[k].getAttribute('aria-current')});
      k += 1;
      step();
    });
  }
  step();
}
function finish() {
  report.injected = document.querySelectorAll('dialog .name *').length > 0;
  const pre = document.createElement('pre'); pre.id = 'check'; pre.textContent = JSON.stringify(report);
  document.body.appendChild(pre);
}
window.addEventListener('load', openNext);
</script>"""
problems, summary = [], []
for width, height in [(1200, 900), (390, 844)]:
    at = f"{width}x{height}"
    report = probe_page(page, probe, "check-stacks", f"stacks-{at}.png", window=f"{width},{height}")
    opened = 0
    for index, tile in stacks.items():
        members = tile["stack"]["members"]
        seen = report["stacks"].get(index)
        if seen is None:
            problems.append(f"{at}: the tile of {tile['source']} is not a stack in the page"); continue
        name = os.path.basename(tile["source"])
        if seen["label"] != f"{name}, a stack of {len(members)}":
            problems.append(f"{at}: stack {name} is labelled {seen['label']!r}")
        if not seen["open"] or seen["buttons"] != len(members):
            problems.append(f"{at}: stack {name} opened {seen['open']} with {seen['buttons']} buttons for {len(members)}")
            continue
        for member, shown in zip(members, seen["shown"]):
            target = urllib.parse.unquote(urllib.parse.urlparse(shown["original"]).path)
            if shown["name"] != os.path.basename(member) or os.path.realpath(target) != os.path.realpath(member):
                problems.append(f"{at}: stack {name} shows {shown['name']!r} → {target} for {member}")
            if shown["width"] <= 0:
                problems.append(f"{at}: stack {name}: {member} did not load")
            if shown["current"] != "true":
                problems.append(f"{at}: stack {name}: the button of {member} is not marked current")
        if seen.get("wrapped") != os.path.basename(members[0]):
            problems.append(f"{at}: ↓ from the last of stack {name} shows {seen.get('wrapped')!r}")
        opened += 1
    if report["injected"]:
        problems.append(f"{at}: a name became markup")
    summary.append(f"{at}: {opened} of {len(stacks)} stacks opened, every picture shown")
if problems:
    print("\n".join(problems)); sys.exit(1)
print("check-stacks: " + "; ".join(summary))
