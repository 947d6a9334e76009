#!/usr/bin/env python3
"""Each image of a folder read by imagewall and by libvips, side by side (make check-formats).

usage: formats_vs_vips.py IMAGEWALL FOLDER [NAME...]

imagewall renders each file alone at its own size on a transparent sheet (so the sheet holds the
decoded pixels); libvips loads the first page or frame, turns it upright and converts it to sRGB
through its embedded profile, as its thumbnail() does. Both are flattened over white and compared
by PSNR. Prints one line a file and a summary; needs pyvips."""
import json, math, os, subprocess, sys, tempfile
import pyvips

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from formats_common import over_white, rgba, vips_reading

imagewall, folder = sys.argv[1], sys.argv[2]
only = set(sys.argv[3:])
scratch = tempfile.mkdtemp()

tally = {}
for name in sorted(os.listdir(folder)):
    if name.endswith((".txt", ".tsv")) or (only and name not in only):
        continue
    path = os.path.join(folder, name)
    probe = subprocess.run([imagewall, "probe", path, "--json"], capture_output=True, text=True)
    try:
        row = json.loads(probe.stdout)[0]
    except (ValueError, IndexError):
        row = {"error": probe.stderr.strip()}
    ours = None
    if "error" in row:
        verdict_ours = "refused (" + row["error"][:60] + ")"
    else:
        out = os.path.join(scratch, name + ".png")
        run = subprocess.run([imagewall, "render", path, "-o", out, "--width", str(row["displayedWidth"]), "--columns", "1",
                              "--gap", "0", "--background", "transparent", "--max-aspect", "0", "-q"], capture_output=True, text=True)
        verdict_ours = "drawn" if run.returncode == 0 else "failed (" + run.stderr.strip()[:60] + ")"
        ours = out if run.returncode == 0 else None
    try:
        theirs = vips_reading(path)
    except pyvips.Error as error:
        theirs = None
        verdict_vips = "refuses (" + (error.detail or str(error)).strip().split("\n")[0][:50] + ")"
    else:
        verdict_vips = "draws"
    comparison = ""
    if ours and theirs is not None:
        mine = pyvips.Image.new_from_file(ours)
        if (mine.width, mine.height) != (theirs.width, theirs.height):
            comparison, kind = f"sizes differ: {mine.width}x{mine.height} against {theirs.width}x{theirs.height}", "different"
        else:
            try:
                d = over_white(rgba(mine)) - over_white(rgba(theirs))
                mse = (d * d).avg()
                psnr = 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)
                comparison = f"PSNR {psnr:.1f} dB"
                kind = "alike (30 dB or more)" if psnr >= 30 else "different"
            except pyvips.Error:
                comparison, kind = "libvips cannot read all its pixels", "drawn; libvips fails on the pixels"
    elif ours:
        kind = "drawn; libvips refuses"
    elif theirs is not None:
        kind = "refused; libvips draws"
    else:
        kind = "both refuse"
    tally[kind] = tally.get(kind, 0) + 1
    print(f"{name:52s} imagewall {verdict_ours:40.40s} libvips {verdict_vips:30.30s} {comparison}")
print()
for kind, count in sorted(tally.items(), key=lambda item: -item[1]):
    print(f"{count:4d}  {kind}")
