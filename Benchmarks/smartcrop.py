#!/usr/bin/env python3
"""Subject kept by a crop: a portrait pasted near the sides of wallpapers, cut to 1:2 cells, by
imagewall's --gravity center, attention, entropy and faces and by libvips' smartcrop (make bench).

usage: smartcrop.py IMAGEWALL WALLPAPERS PORTRAIT [CASES]

Each 2560x1600 wallpaper of WALLPAPERS gets the PORTRAIT (scaled to 360x360) pasted 120 px from
its left edge, and again 120 px from its right; each case is cut to a 1:2 cell (800x1600 of it).
A case counts as kept when at least 90 % of the portrait's box is inside the crop. imagewall's
crop is read from its manifest; libvips' (`smartcrop --interesting attention`, which extracts
without resampling) by finding its middle row in the picture's. Needs pyvips."""
import json, os, subprocess, sys, tempfile
import pyvips
from results import result

imagewall, wallpapers, portrait = sys.argv[1], sys.argv[2], sys.argv[3]
limit = int(sys.argv[4]) if len(sys.argv) > 4 else 12
work = os.environ.get("SMART_WORK") or tempfile.mkdtemp()
face = pyvips.Image.new_from_file(portrait).colourspace("srgb")[0:3].resize(360 / 128, kernel="lanczos3")
face = face.crop(0, 0, 360, 360).cast("uchar")
backgrounds = sorted(f for f in os.listdir(wallpapers) if "_2560x1600." in f)[:limit]
cases = []
for name in backgrounds:
    back = pyvips.Image.new_from_file(os.path.join(wallpapers, name)).colourspace("srgb")[0:3].cast("uchar")
    for side, x in (("left", 120), ("right", 2560 - 120 - 360)):
        path = os.path.join(work, f"{os.path.splitext(name)[0]}-{side}.png")
        back.insert(face, x, 620).write_to_file(path)
        cases.append((path, x))

def kept(crop_x, crop_w, subject_x):
    overlap = min(crop_x + crop_w, subject_x + 360) - max(crop_x, subject_x)
    return max(0, overlap) / 360

results = {}
for method in ("center", "attention", "entropy", "faces"):
    shares = []
    for path, x in cases:
        manifest = os.path.join(work, "m.json")
        subprocess.run([imagewall, "render", path, "-o", os.path.join(work, "s.png"), "--layout", "grid", "--columns", "1",
                        "--cell-aspect", "1:2", "--width", "420", "--gravity", method, "--manifest", manifest, "--no-cache",
                        "-q"], check=True)
        crop = json.load(open(manifest))["tiles"][0]["crop"]
        shares.append(kept(crop["x"], crop["width"], x))
    results[f"imagewall --gravity {method}"] = shares
shares = []
for path, x in cases:
    image = pyvips.Image.new_from_file(path)
    cut = image.smartcrop(800, 1600, interesting="attention")
    row = bytes(cut.crop(0, 800, 800, 1).write_to_memory())
    found = bytes(image.crop(0, 800, 2560, 1).write_to_memory()).find(row)
    shares.append(kept(found // 3, 800, x) if found >= 0 else 0)
results["vips smartcrop --interesting attention"] = shares
print(f"{len(cases)} cases: a 360 px portrait near the sides of {len(backgrounds)} wallpapers, cut to 1:2 cells")
for method, shares in results.items():
    good = sum(1 for s in shares if s >= 0.9)
    print(f"{method:42s} subject kept (>= 90 %) in {good:2d} of {len(shares)} ({100 * good / len(shares):.0f} %), "
          f"mean {100 * sum(shares) / len(shares):.0f} % of the box")
vips = results["vips smartcrop --interesting attention"]
for method in ("attention", "faces"):
    shares = results.get(f"imagewall --gravity {method}")
    if shares:
        result(f"`--gravity {method}`: a portrait near the sides of a wallpaper, cut to a 1:2 cell",
               f"subject kept in {sum(1 for s in shares if s >= 0.9)} of {len(shares)}",
               f"libvips `smartcrop` attention: {sum(1 for s in vips if s >= 0.9)} of {len(vips)}")
