#!/usr/bin/env bash
# Renders a broad set with two builds of imagewall and says which outputs differ: for a change
# that must leave every output as it was (a reshaping of the code).
#   Tools/compare-builds.sh OLD_BINARY NEW_BINARY [OUTDIR]
# PNG sheets, manifests (paths aside), Deep Zoom pyramids, parts and their assembly, replays,
# batch variants and a gallery site are compared byte for byte; JPEG and WebP sheets decoded
# (pixels), PDFs drawn back by pdftoppm. Uses ../shared/corpora when present.
set -uo pipefail
old=$(realpath "$1"); new=$(realpath "$2"); out=${3:-$(mktemp -d)}
cd "$(dirname "$0")/.."
samples=$PWD/SampleImages corpora=$PWD/../shared/corpora
rm -rf "$out"; mkdir -p "$out/old" "$out/new"

render_all() {  # BINARY FOLDER
  local bin=$1 d=$2
  export XDG_CACHE_HOME=$d/cache
  local sets=("samples|$samples|" "w600|$samples|--width 600 --columns 4 --threads 2"
    "captions|$samples|--caption {stem}·{camera}·{date} --caption-height 16 --width 1200 --columns 6"
    "justified|$samples|--layout justified --row-height 120 --width 1000"
    "linear-fast|$samples|--linear --fast --width 800")
  if [ -d "$corpora" ]; then
    sets+=("pillow|$corpora/pillow-formats|--columns 8 --width 1600" "raw|$corpora/raw|--columns 4 --width 1200"
      "exif|$corpora/exif-orientation|--columns 6 --width 1200" "pngsuite|$corpora/pngsuite|--columns 12 --width 1200"
      "libjpeg|$corpora/libjpeg-turbo-testimages|--columns 6 --width 1200"
      "libpng|$corpora/libpng-testpngs|-r --columns 10 --width 1200"
      "afl|$corpora/afl-jpeg-edges|-r --columns 10 --width 1000"
      "jpegdec|$corpora/jpeg-decoder-tests|-r --columns 10 --width 1200")
  fi
  for set in "${sets[@]}"; do
    IFS='|' read -r name input args <<< "$set"
    # shellcheck disable=SC2086
    "$bin" render "$input" $args -o "$d/$name.png" --manifest "$d/$name.json" --no-cache -q 2> "$d/$name.err"
  done
  "$bin" render "$samples" -o "$d/s.jpg" --no-cache -q
  "$bin" render "$samples" -o "$d/s-{page}.jpg" --max-height 1500 --quality 60 --no-cache -q
  "$bin" render "$samples" -o "$d/s.webp" --no-cache -q
  "$bin" render "$samples" -o "$d/s.pdf" --title Holidays --no-cache -q
  "$bin" render "$samples" -o "$d/s2.pdf" --paper letter --layout grid --order down --quality lossless --no-cache -q
  "$bin" render "$samples" -o "$d/wall.dzi" --no-cache -q
  "$bin" render "$samples" -o "$d/wallj.dzi" --tile-format jpeg --width 1200 --no-cache -q
  "$bin" layout "$samples" --json > "$d/plan.json"
  for k in 1 2 3; do "$bin" render --from-manifest "$d/plan.json" --part $k/3 -o "$d/part-$k" -q; done
  "$bin" assemble "$d/part-1" "$d/part-2" "$d/part-3" -o "$d/assembled.png" -q
  for k in 1 2; do "$bin" render --from-manifest "$d/plan.json" --part $k/2 --format dzi -o "$d/dpart-$k" -q; done
  "$bin" assemble "$d/dpart-1" "$d/dpart-2" -o "$d/assembled.dzi" --manifest "$d/plan.json" -q
  "$bin" render --from-manifest "$d/samples.json" -o "$d/replay.png" --no-cache -q
  "$bin" render "$samples" -o "$d/v-{columns}x{width}.png" --columns 2,4 --width 800,1600 --no-cache -q
  "$bin" gallery "$samples" -o "$d/site" -q
}
render_all "$old" "$out/old"
render_all "$new" "$out/new"

cd "$out"
same=0 differ=0
while read -r f; do
  case "$f" in
    *.jpg | *.webp | *.pdf) continue ;;
    *.json) cmp -s <(sed "s#$out/old/##g" "old/$f") <(sed "s#$out/new/##g" "new/$f") ;;
    *) cmp -s "old/$f" "new/$f" ;;
  esac && same=$((same + 1)) || { differ=$((differ + 1)); echo "differs: $f"; }
done < <(cd old && find . -type f ! -path './cache/*' ! -name '*.err' ! -name '.imagewall-gallery*' | sort)
lossy=$(/usr/bin/python3 - <<'EOF'
import glob
from PIL import Image
n = bad = 0
for f in glob.glob('old/**/*', recursive=True):
    if not f.endswith(('.jpg', '.webp')) or '/cache/' in f: continue
    a, b = Image.open(f), Image.open('new' + f[3:])
    n += 1
    if a.size != b.size or a.tobytes() != b.tobytes():
        bad += 1
        print('pixels differ:', f)
print(f'{n} JPEG and WebP files decoded, {bad} differing in pixels')
EOF
)
pdfs=0
for f in s s2; do
  pdftoppm -r 72 -png "old/$f.pdf" "old-$f" && pdftoppm -r 72 -png "new/$f.pdf" "new-$f"
  for page in old-$f-*.png; do cmp -s "$page" "new${page#old}" || { pdfs=$((pdfs + 1)); echo "pdf page differs: $page"; }; done
done
echo "$same files byte-identical, $differ differing; $lossy; PDF pages drawn back: $pdfs differing ($out)"
