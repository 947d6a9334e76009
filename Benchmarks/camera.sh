#!/usr/bin/env bash
# Camera and phone folders, the same 2000 px, 4-column sheet:
# - RAW files drawn from their embedded previews, against the floor: libjpeg alone decoding the
#   same previews (extracted by LibRaw) at the scale the tiles need, on both cores (two threads,
#   timed in runs alternating with imagewall's);
# - a folder of 50 short clips, against ffmpeg run once a clip for the same frames (the frame
#   at 1 s scaled to twice the tile), as a gallery generator's thumbnail loop does.
# Medians of RUNS runs; read the ratios, absolute times on shared machines are noise.
#   usage: Benchmarks/camera.sh     (env: RUNS=3 BENCH_CORPUS=/tmp/imagewall-corpus)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
base=${BENCH_CORPUS:-/tmp/imagewall-corpus}
bin=$PWD/.build/release/imagewall
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source Benchmarks/common.sh
[ -x "$bin" ] || { echo "camera: build the release binary first (make build)"; exit 1; }
sheet="--width 2000 --columns 4 --gap 10 --no-cache"

# RAW: the corpus files drawn from a preview, 34 times each (about 100 files).
raw=../shared/corpora/raw
if [ -d "$raw" ] && command -v cc >/dev/null; then
  cc -O2 Benchmarks/raw_previews.c -o "$work/raw_previews" $(pkg-config --cflags --libs libraw_r)
  cc -O2 Benchmarks/jpeg_floor.c -ljpeg -lpthread -o "$work/jpeg_floor"
  mkdir -p "$work/raw" "$work/previews" "$work/floor"
  drawn="canon-eos-d30.CRW nikon-d7100-head.NEF exiftool-fuji-s5pro.raf"
  for name in $drawn; do
    "$work/raw_previews" "$work/previews" "$raw/$name" >/dev/null
    for i in $(seq -w 1 34); do
      cp "$raw/$name" "$work/raw/${i}_$name"  # copies: links to one file are drawn once
      ln -s "$work/previews/$name.jpg" "$work/floor/${i}_$name.jpg"
    done
  done
  count=$(ls "$work/raw" | wc -l)
  : > "$work/raw.runs"; : > "$work/floor.runs"
  for run in $(seq "$runs"); do  # imagewall and the floor on both cores, alternating
    rm -f "$work/raw.png"  # a new sheet each run, as bench.sh: none replaced
    measure "$bin" render "$work/raw" -o "$work/raw.png" $sheet >> "$work/raw.runs"
    measure "$work/jpeg_floor" --threads 2 --tile 487 "$work"/floor/*.jpg >> "$work/floor.runs"
  done
  wall=$(cut -d' ' -f1 "$work/raw.runs" | median); cpu=$(cut -d' ' -f2 "$work/raw.runs" | median)
  rss=$(cut -d' ' -f3 "$work/raw.runs" | median); two=$(cut -d' ' -f1 "$work/floor.runs" | median)
  floor=$(floor_cpu "$work/jpeg_floor" --tile 487 "$work"/floor/*.jpg)
  awk -v n="$count" -v w="$wall" -v c="$cpu" -v r="$rss" -v f="$floor" -v two="$two" 'BEGIN {
    printf "raw: %d RAW files (CRW, NEF, RAF previews) %.2f s wall, %.2f s CPU, peak %d MB; floor: libjpeg decoding their previews at the tiles'"'"' scale, %.2f s CPU on one thread, %.2f s on both cores: imagewall %.2fx the floor (%.2fx its CPU halved)\n", n, w, c, r, f, two, w / two, w / (f / 2) }'
  # A photographer's folder: 100 files whose previews are the camera's full 24 MP (the D7100's
  # 6000x4000 JpgFromRaw); and how much of the render the decode stage is, against its floor.
  mkdir -p "$work/raw24" "$work/floor24"
  for i in $(seq -w 1 100); do
    cp "$raw/nikon-d7100-head.NEF" "$work/raw24/$i.NEF"
    ln -s "$work/previews/nikon-d7100-head.NEF.jpg" "$work/floor24/$i.jpg"
  done
  : > "$work/raw24.runs"; : > "$work/floor24.runs"
  for run in $(seq "$runs"); do
    rm -f "$work/raw24.png"  # a new sheet each run, as bench.sh: none replaced
    measure "$bin" render "$work/raw24" -o "$work/raw24.png" $sheet >> "$work/raw24.runs"
    measure "$work/jpeg_floor" --threads 2 --tile 487 "$work"/floor24/*.jpg >> "$work/floor24.runs"
  done
  "$bin" render "$work/raw24" -o "$work/raw24.png" $sheet --profile 2>"$work/profile" >/dev/null
  decode=$(sed -n 's/.* decode \([0-9.]*\) s CPU.*/\1/p' "$work/profile")
  wall=$(cut -d' ' -f1 "$work/raw24.runs" | median); cpu=$(cut -d' ' -f2 "$work/raw24.runs" | median)
  rss=$(cut -d' ' -f3 "$work/raw24.runs" | median); two=$(cut -d' ' -f1 "$work/floor24.runs" | median)
  paired=$(paired_median "$work/raw24.runs" "$work/floor24.runs")
  floor=$(floor_cpu "$work/jpeg_floor" --tile 487 "$work"/floor24/*.jpg)
  awk -v w="$wall" -v c="$cpu" -v r="$rss" -v f="$floor" -v d="$decode" -v two="$two" -v p="$paired" -v n="$runs" 'BEGIN {
    printf "raw: 100 NEFs with 24 MP previews %.2f s wall, %.2f s CPU, peak %d MB; floor %.2f s CPU on one thread, %.2f s on both cores: imagewall %.2fx the floor, %.2fx run by run (the median of %d pairs; target <= 1.25x: %s); against the CPU halved (%.2f s; the floor on both cores takes %.2fx that): %.2fx; its decode stage %.2f s CPU, %.2fx the floor'"'"'s, the rest resamples and encodes the sheet\n", w, c, r, f, two, w / two, p, n, (p == "" ? "no pairs" : p <= 1.25 ? "met" : "not met"), f / 2, two / (f / 2), w / (f / 2), d, d / f }'
  result "Sheet of 100 NEFs with 24 MP previews" "$(figure '%.2f s, %d MB' 'w, r' w="$wall" r="$rss")" \
    "the decoders alone (libjpeg decoding the previews): $(figure '%.2fx' p p="$paired") run by run" \
    "≤ 1.25x the decoders: $(verdict 'p != "" && p <= 1.25' p="$paired")"
  # The same as instructions (callgrind, one thread, 10 of the NEFs), which repeat where seconds do not.
  if command -v valgrind >/dev/null; then
    cp "$bin" "$work/imagewall-grind" && strip --strip-debug "$work/imagewall-grind"
    mkdir -p "$work/raw10" "$work/floor10"
    for i in $(seq -w 1 100 | head -10); do
      ln -s "$work/raw24/$i.NEF" "$work/raw10/"
      ln -s "$work/floor24/$i.jpg" "$work/floor10/"
    done
    nef_i=$(instructions "$work/imagewall-grind" render "$work/raw10" -o "$work/raw10.png" $sheet --threads 1 -q)
    nef_f=$(instructions "$work/jpeg_floor" --tile 487 "$work"/floor10/*.jpg)
    awk -v i="$nef_i" -v f="$nef_f" 'BEGIN {
      printf "instructions, 10 NEFs with 24 MP previews: imagewall %.2f G, the floor (libjpeg decoding the previews) %.2f G: %.2fx\n", i, f, i / f }'
    result "Instructions, 10 NEFs with 24 MP previews, one thread" "$nef_i G" \
      "the decoders alone (libjpeg decoding the previews): $nef_f G, $(figure '%.2fx' 'i / f' i="$nef_i" f="$nef_f")"
  fi
  read -r wall cpu rss < <(measure "$bin" render "$raw" -o "$work/all.png" $sheet --threads 1)
  echo "raw: the whole corpus ($(ls "$raw" | grep -v -e '\.txt$' -e '\.tsv$' | wc -l) files, drawn or refused by name), one thread: $wall s wall, $cpu s CPU, peak $rss MB"
fi

# Videos: 50 clips of 4 s (40 H.264 1080p, 10 HEVC 720p), made once by ffmpeg.
if command -v ffmpeg >/dev/null; then
  clips="$base/clips"
  if [ ! -d "$clips" ]; then
    mkdir -p "$clips.tmp"
    for i in $(seq -w 1 50); do
      if [ "$i" -le 40 ]; then
        ffmpeg -v error -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=4" -c:v libx264 -preset veryfast \
          -pix_fmt yuv420p "$clips.tmp/clip_$i.mp4"
      else
        ffmpeg -v error -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=4" -c:v libx265 -preset veryfast \
          -x265-params log-level=error -tag:v hvc1 "$clips.tmp/clip_$i.mov"
      fi
    done
    mv "$clips.tmp" "$clips"
  fi
  : > "$work/clips.runs"; : > "$work/ffmpeg.runs"
  for run in $(seq "$runs"); do
    rm -f "$work/clips.png"  # a new sheet each run, as bench.sh: none replaced
    measure "$bin" render "$clips" -o "$work/clips.png" $sheet >> "$work/clips.runs"
    start=$(date +%s.%N)
    for f in "$clips"/*; do
      ffmpeg -v error -y -ss 1 -i "$f" -frames:v 1 -vf scale=974:-2 "$work/frame.png"
    done
    echo "$start $(date +%s.%N)" | awk '{ printf "%.2f\n", $2 - $1 }' >> "$work/ffmpeg.runs"
  done
  wall=$(cut -d' ' -f1 "$work/clips.runs" | median); cpu=$(cut -d' ' -f2 "$work/clips.runs" | median)
  rss=$(cut -d' ' -f3 "$work/clips.runs" | median); ffmpeg_wall=$(median < "$work/ffmpeg.runs")
  awk -v w="$wall" -v c="$cpu" -v r="$rss" -v f="$ffmpeg_wall" 'BEGIN {
    printf "videos: 50 clips (40 H.264 1080p, 10 HEVC 720p) %.2f s wall, %.2f s CPU, peak %d MB; ffmpeg -ss 1 -frames:v 1 -vf scale once a clip %.2f s: imagewall %.2fx faster\n", w, c, r, f, f / w }'
  result "Sheet of 50 clips (40 H.264 1080p, 10 HEVC 720p)" "$(figure '%.2f s, %d MB' 'w, r' w="$wall" r="$rss")" \
    "\`ffmpeg -ss 1 -frames:v 1\` once a clip: $(figure '%.1fx slower' 'f / w' f="$ffmpeg_wall" w="$wall")"
fi
