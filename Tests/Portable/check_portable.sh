#!/usr/bin/env bash
# The same sheet on every x86-64 CPU: renders SampleImages and one file of every format and
# decoding path of ../shared/corpora natively (the goldens), then again under QEMU's user-mode
# emulator as older CPUs — qemu64 (the x86-64 baseline, SSE2) and Nehalem (x86-64-v2, SSE4.2,
# no AVX) — each checked against the native golden with `render --check`: exact, but for the
# tiles of decoders that round otherwise by CPU (lossy JPEG XL), which may differ by one level
# on a few pixels and are named as such. Any other difference fails. (QEMU 7.2's AVX2 emulation
# itself mis-draws some code, so the AVX models are not used.) A fixture suite is made natively
# by `check --update` and checked by `check` the same way, and a golden with its JPEG XL tile
# 3 % brighter must fail both. With --exact no rounding is allowed.
# usage: check_portable.sh IMAGEWALL [--exact]
set -euo pipefail
imagewall=$(realpath "$1")
shift
exact=("$@")
here=$(cd "$(dirname "$0")" && pwd)
samples="$here/../../SampleImages"
corpora="$here/../../../shared/corpora"
command -v qemu-x86_64 >/dev/null || { echo "check-portable: qemu-x86_64 (Debian's qemu-user) is missing" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One file of every format and decoding path the corpora hold beside SampleImages.
mkdir "$work/formats"
for file in \
  libjpeg-turbo-testimages/testimgari.jpg libjpeg-turbo-testimages/testorig.jpg \
  libjpeg-turbo-testimages/monkey16.png pngsuite/basi2c16.png pngsuite/basn3p04.png pngsuite/g25n2c08.png \
  pngsuite/tbbn3p08.png pillow-formats/hopper.Lab.tif pillow-formats/hopper.iccprofile.tif \
  pillow-formats/16bit.MM.deflate.tif pillow-formats/tiff_strip_cmyk_jpeg.tif pillow-formats/avif__icc_profile.avif \
  pillow-formats/avif__hopper.heif pillow-formats/anim_frame1.webp pillow-formats/chi.gif \
  raw/nikon-d7100-head.NEF raw/canon-powershot-g2.CRW raw/canon-550d-magiclantern.dng raw/kodak-dc50.KDC \
  raw/canon-eos-r6-pruned.CR3; do
  [ -f "$corpora/$file" ] && ln -s "$corpora/$file" "$work/formats/$(echo "$file" | tr / -)"
done
inputs=("$samples")
[ -n "$(ls "$work/formats")" ] && inputs+=("$work/formats") || echo "check-portable: ../shared/corpora absent: SampleImages only"

# Each way of drawing: tiles big enough for full decodes; small ones (DCT scaling, thumbnails,
# previews, video frames scaled); linear light, --fast and captions in every script; crops that
# follow the content (attention, entropy, OpenCV's faces), PDF pages as tiles, and look-alikes
# stacked (the fingerprints and the sharpness that picks each stack's tile).
variants=(
  "full|--width 2000 --columns 3"
  "small|--width 600 --columns 6"
  "linear|--width 900 --columns 5 --linear --fast --caption {stem}·שלום·12:30·東京·👍🏽 --caption-height 16 --title Portable"
  "attention|--width 800 --layout grid --columns 6 --cell-aspect 1:2 --gravity attention"
  "entropy|--width 800 --layout grid --columns 6 --cell-aspect 2:1 --gravity entropy --pages all"
  "stacks|--width 900 --columns 5 --stack similar"
  "faces|--width 800 --layout grid --columns 6 --cell-aspect 1:2 --gravity faces"
)
failures=0
checks=0
for input in "${inputs[@]}"; do
  for variant in "${variants[@]}"; do
    tag=${variant%%|*}
    read -r -a args <<<"${variant#*|}"
    name="$(basename "$input")-$tag"
    "$imagewall" render "$input" "${args[@]}" -o "$work/$name.png" --manifest "$work/$name.json" \
      --no-cache --threads 2 -q
    for cpu in qemu64 Nehalem; do
      checks=$((checks + 1))
      if result=$(qemu-x86_64 -cpu "$cpu" "$imagewall" render "$input" "${args[@]}" --check "$work/$name.png" \
        --check-manifest "$work/$name.json" --no-cache --threads 2 "${exact[@]}" 2>&1); then
        echo "check-portable: $name on $cpu: ${result%%$'\n'*}"
      else
        failures=$((failures + 1))
        echo "check-portable: FAILED $name on $cpu:"
        echo "$result" | sed 's/^/  /'
      fi
    done
  done
done
# A fixture suite the same way: goldens made natively by check --update, checked by check on
# each emulated CPU (the JPEG XL files at a size where libjxl's rounding shows).
mkdir -p "$work/suite"
ln -s "$samples" "$work/suite/images"
cat >"$work/suite/suite.json" <<'JSON'
{"goldens": "goldens", "arguments": ["--no-cache", "--threads", "2"], "fixtures": [
  {"name": "jpeg-xl", "inputs": ["images"], "arguments": ["--include", "jxl-*", "--width", "1200", "--columns", "2"]},
  {"name": "samples", "inputs": ["images"], "arguments": ["--width", "600", "--columns", "6", "--caption", "{stem}"]}]}
JSON
"$imagewall" check "$work/suite/suite.json" --update -q
for cpu in qemu64 Nehalem; do
  checks=$((checks + 1))
  if result=$(qemu-x86_64 -cpu "$cpu" "$imagewall" check "$work/suite/suite.json" "${exact[@]}" 2>&1); then
    echo "$result" | sed "s/^/check-portable: suite on $cpu: /"
  else
    failures=$((failures + 1))
    echo "check-portable: FAILED suite on $cpu:"
    echo "$result" | sed 's/^/  /'
  fi
done

# A real change in such a tile is still caught: a golden's lossy JPEG XL tile made 3 % brighter
# fails render --check and check on the emulated CPU. (Debian's python3 and python3-pil, from
# make deps.)
brighten() {
  /usr/bin/python3 - "$@" <<'PY'
import json, sys
from PIL import Image
sheet, manifest, out = sys.argv[1:4]
image = Image.open(sheet).convert("RGB")
tile = next(t for t in json.load(open(manifest))["tiles"] if t["source"].endswith("jxl-lossy.jxl"))
box = (tile["x"], tile["y"], tile["x"] + tile["width"], tile["y"] + tile["height"])
image.paste(image.crop(box).point(lambda v: min(255, round(v * 1.03))), box[:2])
image.save(out)
PY
}
golden="$work/SampleImages-small"
brighten "$golden.png" "$golden.json" "$work/brighter.png"
read -r -a args <<<"${variants[1]#*|}"
if result=$(qemu-x86_64 -cpu Nehalem "$imagewall" render "$samples" "${args[@]}" --check "$work/brighter.png" \
  --check-manifest "$golden.json" --no-cache --threads 2 2>&1); then
  failures=$((failures + 1))
  echo "check-portable: FAILED: a golden with its JPEG XL tile 3 % brighter passed render --check on Nehalem: $result"
elif echo "$result" | grep -q "changed: jxl-lossy.jxl"; then
  echo "check-portable: render --check of the golden with its JPEG XL tile 3 % brighter fails on Nehalem: ${result%%$'\n'*}"
else
  failures=$((failures + 1))
  echo "check-portable: FAILED: the brightened golden did not fail on its JPEG XL tile: $result"
fi
brighten "$work/suite/goldens/jpeg-xl.png" "$work/suite/goldens/jpeg-xl.json" "$work/suite/goldens/jpeg-xl.png"
if result=$(qemu-x86_64 -cpu Nehalem "$imagewall" check "$work/suite/suite.json" 2>&1); then
  failures=$((failures + 1))
  echo "check-portable: FAILED: a suite golden with its JPEG XL tile 3 % brighter passed check on Nehalem: $result"
elif echo "$result" | grep -q "changed: jxl-lossy.jxl"; then
  echo "check-portable: check of the suite golden with its JPEG XL tile 3 % brighter fails on Nehalem: $(echo "$result" | grep "^changed: jpeg-xl")"
else
  failures=$((failures + 1))
  echo "check-portable: FAILED: the brightened suite golden did not fail on its JPEG XL tile: $result"
fi
if [ "$failures" -gt 0 ]; then
  echo "check-portable: $failures failures ($checks renders and suites on emulated CPUs checked)"
  exit 1
fi
echo "check-portable: all $checks renders and suites on emulated CPUs are the native sheets (per-CPU rounding named where allowed), and a real change is caught by render --check and check"
