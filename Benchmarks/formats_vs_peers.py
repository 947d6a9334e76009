#!/usr/bin/env python3
"""Each image of a folder drawn by imagewall, libvips and ImageMagick, compared (make check-formats).

usage: formats_vs_peers.py IMAGEWALL FOLDER

imagewall renders each file alone at its own size on a transparent sheet; libvips loads it as
formats_vs_vips.py does (upright, sRGB through its profile, scRGB light encoded as sRGB);
ImageMagick's `convert FILE[0] -auto-orient -colorspace sRGB` writes it as 8-bit RGBA. All three
are flattened over white. Where libvips and ImageMagick agree with each other (35 dB or more),
imagewall is to be within 35 dB of them; where they disagree, or only one reads the file, the
line says so, to be looked at. Prints one line a file and a summary; needs pyvips."""
import math, os, subprocess, sys, tempfile
import pyvips

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from formats_common import over_white, rgba, vips_reading
imagewall, folder = sys.argv[1], sys.argv[2]
scratch = tempfile.mkdtemp()

def magick_reading(path, name):
    out = os.path.join(scratch, name + ".magick.png")
    run = subprocess.run(["convert", path + "[0]", "-auto-orient", "-colorspace", "sRGB", "-depth", "8", "PNG32:" + out],
                         capture_output=True, text=True, timeout=120)
    if run.returncode != 0 or not os.path.exists(out):
        return None
    return pyvips.Image.new_from_file(out)

def ours(path, name):
    out = os.path.join(scratch, name + ".png")
    probe = subprocess.run([imagewall, "probe", path, "--json"], capture_output=True, text=True)
    import json
    try:
        row = json.loads(probe.stdout)[0]
        width = row["displayedWidth"]
    except (ValueError, IndexError, KeyError):
        return None, (probe.stderr.strip() or probe.stdout.strip())[:70]
    run = subprocess.run([imagewall, "render", path, "-o", out, "--width", str(width), "--columns", "1", "--gap", "0",
                          "--background", "transparent", "--max-aspect", "0", "-q"], capture_output=True, text=True)
    if run.returncode != 0:
        return None, run.stderr.strip()[:70]
    return pyvips.Image.new_from_file(out), None

def psnr(a, b):
    if a is None or b is None:
        return None
    if (a.width, a.height) != (b.width, b.height):
        return -1.0
    d = over_white(rgba(a)) - over_white(rgba(b))
    mse = (d * d).avg()
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)

def text(value):
    return "—" if value is None else "size differs" if value < 0 else f"{value:.1f} dB"

tally = {}
print(f"{'file':44s} {'vs libvips':>13s} {'vs Magick':>13s} {'peers agree':>13s}  verdict")
for name in sorted(os.listdir(folder)):
    if name.endswith((".txt", ".tsv", ".md")):
        continue
    path = os.path.join(folder, name)
    mine, refusal = ours(path, name)
    try:
        vips = vips_reading(path)
    except pyvips.Error:
        vips = None
    magick = magick_reading(path, name)
    to_vips, to_magick, peers = psnr(mine, vips), psnr(mine, magick), psnr(vips, magick)
    if mine is None:
        verdict = "refused: " + (refusal or "?") if (vips is None and magick is None) else "refused, a peer draws it: " + (refusal or "?")
    elif peers is not None and peers >= 35:
        verdict = "within 35 dB of the peers" if max(to_vips, to_magick) >= 35 else "DIFFERS from agreeing peers"
    elif vips is None and magick is None:
        verdict = "drawn; both peers refuse"
    else:
        verdict = "peers disagree or one reads it: look"
    kind = verdict.split(":")[0]
    tally[kind] = tally.get(kind, 0) + 1
    print(f"{name:44.44s} {text(to_vips):>13s} {text(to_magick):>13s} {text(peers):>13s}  {verdict}")
print()
for kind, count in sorted(tally.items(), key=lambda item: -item[1]):
    print(f"{count:4d}  {kind}")
