#!/usr/bin/env python3
"""Stacks found by imagewall --stack on a burst set made here, and what finding them costs
(make bench).

usage: stacks.py IMAGEWALL WALLPAPERS [PHOTOS]

The set, from the JPEG wallpapers of distinct scenes (one per name before its size):
- 8 bursts: a slow pan over a scene encoded as an H.264 video by ffmpeg, a frame taken every
  second (5 frames, 1600x1200 JPEGs named IMG_<date>_<time>.jpg one second apart);
- 8 copies: a 3000x2000 JPEG of a scene, the same re-encoded at quality 70 and resized to 90 %,
  named one second apart;
- 24 distinct scenes, also named one second apart, so that time alone would stack them.
Each burst and each set of copies is a moment that should be one stack. Reported for --stack
bursts and --stack similar: the share of moments stacked whole (every member in one stack and
nothing else in it), and stacks mixing scenes (should be 0). Then the cost: a cold render
(--no-cache, 2 threads) of PHOTOS (the 12 MP photo corpus) with and without --stack similar,
and the stage's CPU from --profile against the whole render's."""
import json, os, re, subprocess, sys, tempfile, time
from PIL import Image
from results import result

imagewall, wallpapers = sys.argv[1], sys.argv[2]
photos = sys.argv[3] if len(sys.argv) > 3 else None
work = os.environ.get("STACKS_WORK") or tempfile.mkdtemp()
folder = os.path.join(work, "shoot")
os.makedirs(folder)

scenes, seen = [], set()
for name in sorted(os.listdir(wallpapers)):
    base = re.sub(r"([_-]?\d+x\d+)+$", "", os.path.splitext(name)[0]).lower()
    if base in seen or not name.lower().endswith(".jpg"):
        continue
    seen.add(base)
    scenes.append(os.path.join(wallpapers, name))
if len(scenes) < 40:
    sys.exit(f"stacks: {wallpapers} has {len(scenes)} distinct scenes, 40 needed")

truth = {}  # file name -> moment


def clock(n):
    return f"IMG_20240601_{10 + n // 3600:02d}{n // 60 % 60:02d}{n % 60:02d}.jpg"


second = 0
for b, scene in enumerate(scenes[:8]):
    video = os.path.join(work, f"pan{b}.mp4")
    subprocess.run(["ffmpeg", "-v", "error", "-loop", "1", "-i", scene, "-t", "5", "-r", "25", "-vf",
                    "scale=2400:1800:force_original_aspect_ratio=increase,crop=1600:1200:x='t*40':y='(ih-1200)/2+t*10',"
                    "format=yuv420p", "-c:v", "libx264", "-crf", "20", video], check=True)
    for f in range(5):
        name = clock(second)
        second += 1
        subprocess.run(["ffmpeg", "-v", "error", "-ss", str(f + 0.5), "-i", video, "-frames:v", "1", "-q:v", "3",
                        os.path.join(folder, name)], check=True)
        truth[name] = f"burst{b}"
    second += 30
for c, scene in enumerate(scenes[8:16]):
    image = Image.open(scene).convert("RGB")
    image = image.resize((3000, 2000), Image.LANCZOS)
    for copy, (quality, scale) in enumerate(((92, 1.0), (70, 1.0), (92, 0.9))):
        name = clock(second)
        second += 1
        shown = image if scale == 1 else image.resize((int(3000 * scale), int(2000 * scale)), Image.LANCZOS)
        shown.save(os.path.join(folder, name), quality=quality)
        truth[name] = f"copies{c}"
    second += 30
for d, scene in enumerate(scenes[16:40]):
    name = clock(second)
    second += 1
    Image.open(scene).convert("RGB").resize((2400, 1600), Image.LANCZOS).save(os.path.join(folder, name), quality=90)
    truth[name] = f"scene{d}"

moments = {}
for name, moment in truth.items():
    moments.setdefault(moment, set()).add(name)
together = [m for m, names in moments.items() if len(names) > 1]
print(f"stacks: {len(truth)} pictures: {len(together)} moments of several frames or copies, "
      f"{len(moments) - len(together)} distinct scenes")
for mode in ("bursts", "similar"):
    manifest = os.path.join(work, f"{mode}.json")
    subprocess.run([imagewall, "render", folder, "-o", os.path.join(work, f"{mode}.png"), "--stack", mode,
                    "--manifest", manifest, "--no-cache", "-q"], check=True)
    stacks = [set(os.path.basename(p) for p in t["stack"]["members"])
              for t in json.load(open(manifest))["tiles"] if "stack" in t]
    mixed = sum(1 for s in stacks if len({truth[n] for n in s}) > 1)
    tiles = len(json.load(open(manifest))["tiles"])
    shares = []
    for kind, label in (("burst", "bursts"), ("copies", "sets of copies")):
        kinds = [m for m in together if m.startswith(kind)]
        whole = sum(1 for m in kinds if moments[m] in stacks)
        shares.append(f"{label} stacked whole {whole} of {len(kinds)} ({100 * whole / len(kinds):.0f} %)")
    print(f"--stack {mode:8s} " + ", ".join(shares) + f"; stacks mixing scenes {mixed}; {tiles} tiles")

if photos:
    # The same photos as a camera writes them: with a 160x120 EXIF thumbnail (exiv2 -it).
    camera = os.path.join(work, "camera")
    os.makedirs(camera, exist_ok=True)
    for name in sorted(os.listdir(photos)):
        if not name.lower().endswith(".jpg"):
            continue
        copy = os.path.join(camera, name)
        subprocess.run(["cp", os.path.join(photos, name), copy], check=True)
        thumb = Image.open(copy)
        thumb.thumbnail((160, 160))
        thumb.convert("RGB").save(copy[:-4] + "-thumb.jpg", quality=80)
        subprocess.run(["exiv2", "-it", copy], check=True, stderr=subprocess.DEVNULL)
        os.remove(copy[:-4] + "-thumb.jpg")

    def run(folder, extra):
        start = time.monotonic()
        out = subprocess.run([imagewall, "render", folder, "-o", os.path.join(work, "p.png"), "--width", "2000",
                              "--columns", "6", "--no-cache", "--threads", "2", "--profile"] + extra,
                             check=True, capture_output=True, text=True).stderr
        wall = time.monotonic() - start
        cpu = float(re.search(r"process ([\d.]+) s CPU", out).group(1))
        stage = re.search(r"stack ([\d.]+) s CPU", out)
        return wall, cpu, float(stage.group(1)) if stage else 0.0
    for label, folder in (("without thumbnails", photos), ("with camera thumbnails", camera)):
        plain = sorted(run(folder, []) for _ in range(3))[1]
        stacked = sorted(run(folder, ["--stack", "similar"]) for _ in range(3))[1]
        print(f"cost, 100 12 MP photos {label} (median of 3, cold): plain {plain[0]:.2f} s wall {plain[1]:.2f} s CPU; "
              f"--stack similar {stacked[0]:.2f} s wall {stacked[1]:.2f} s CPU ({100 * (stacked[1] / plain[1] - 1):+.1f} %); "
              f"fingerprints {stacked[2]:.2f} s CPU = {100 * stacked[2] / plain[1]:.1f} % of the plain render's "
              f"(target under 10 %: {'met' if stacked[2] < 0.1 * plain[1] else 'not met'})")
        result(f"`--stack similar`, 100 12 MP photos {label}", f"fingerprints {stacked[2]:.2f} s CPU",
               f"the plain render: {100 * stacked[2] / plain[1]:.1f} % of its {plain[1]:.2f} s CPU",
               f"< 10 %: {'met' if stacked[2] < 0.1 * plain[1] else 'not met'}")
