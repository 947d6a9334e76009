#!/usr/bin/env bash
# ImageWall benchmark: the same 2000 px, 4-column masonry sheet made by imagewall and by the
# peers (libvips, ImageMagick montage) when installed, runs alternating, medians and ratios.
# Also the cache, parts with GNU parallel, a Deep Zoom wall of 20,000 images, the layout engine
# on 1,000,000 sizes, the header-probe rate over 10,000 files, camera folders, fixture suites and
# a photo library's gallery site against sigal (Benchmarks/gallery.sh). Absolute times on shared
# machines are noise; read the ratios.
#   usage: Benchmarks/bench.sh            (env: RUNS=3 CORPORA="wallpapers photos" PEERS="vips montage"
#                                          SECTIONS="sheets cache manifests", of: sheets quality memory
#                                          threads cache parts diff send deflate deepzoom layout
#                                          manifests probe stills camera fixtures gallery smartcrop stacks)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
corpora=${CORPORA:-"wallpapers photos heic webp"}
peers=${PEERS:-"vips montage"}
shared=../shared/bench
base=${BENCH_CORPUS:-/tmp/imagewall-corpus}
work=$(mktemp -d)
shm=""  # a folder in /dev/shm while the manifests section uses one
trap 'rm -rf "$work" ${shm:+"$shm"}' EXIT
# Every render below does its whole work: the cache is off but where the cache is measured.
real_bin=$PWD/.build/release/imagewall
bin=$work/imagewall-no-cache
printf '#!/bin/sh\nif [ "$1" = render ]; then shift; exec %s render --no-cache "$@"; fi\nexec %s "$@"\n' \
  "$real_bin" "$real_bin" > "$bin"
chmod +x "$bin"
# A copy valgrind can read (it cannot read Swift's debug information), for instruction counts.
grind=$work/imagewall-grind
if command -v valgrind >/dev/null; then cp "$real_bin" "$grind" && strip --strip-debug "$grind"; fi
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is needed (apt-get install time)"; exit 1; }

have_vips() { python3 -c 'import pyvips' >/dev/null 2>&1; }

prepare() {  # $1 corpus name
  case $1 in
    wallpapers) [ -d "$base/wallpapers" ] || bash "$shared/corpus.sh" "$base/wallpapers" ;;
    photos)
      if [ ! -d "$base/photos" ]; then
        have_vips || { echo "bench: photos corpus needs pyvips; skipped"; return 1; }
        prepare wallpapers && python3 "$shared/photos.py" "$base/wallpapers" "$base/photos"
      fi ;;
    heic|webp)
      # The photos as a phone writes HEIC (512 px thumbnail, irot) and as a web page serves WebP.
      if [ ! -d "$base/$1" ]; then
        prepare photos || return 1
        swift build -c release --product imagewall-corpus >/dev/null
        .build/release/imagewall-corpus "$1" "$base/photos" "$base/$1"
      fi ;;
  esac
}

source Benchmarks/common.sh
# Whether SECTIONS (all when unset) names section $1.
want() { [ -z "${SECTIONS:-}" ] || [[ " $SECTIONS " == *" $1 "* ]]; }
# The rows of the performance table, which `make bench` writes into docs/performance.md.
export BENCH_RESULTS=${BENCH_RESULTS:-$PWD/out/bench/results.tsv}
mkdir -p "$(dirname "$BENCH_RESULTS")"
: > "$BENCH_RESULTS"

tool_command() {  # $1 tool, $2 source dir, $3 output
  case $1 in
    imagewall) echo "$bin render $2 -o $3 --width 2000 --columns 4 --gap 10 --background #202020" ;;
    fast) echo "$bin render $2 -o $3 --width 2000 --columns 4 --gap 10 --background #202020 --fast" ;;
    vips) echo "python3 $shared/peers/vips_sheet.py $2 $3 --width 2000 --columns 4 --gap 10" ;;
    vips2) echo "python3 $shared/peers/vips_sheet.py $2 $3 --width 2000 --columns 4 --gap 10 --threads 2" ;;
    montage) echo "bash $shared/peers/montage.sh $2 $3 2000 4 10" ;;
    floor) echo "bash -e $work/floor-$(basename "$2").sh" ;;  # a file it cannot decode stops the bench
  esac
}

# The decoders' floor: the libraries alone decoding a corpus the way imagewall and libvips must
# (JPEG and WebP shrunk while decoding to keep twice the 487 px tile, PNG in full: no PNG
# decoder can shrink, HEIC from the thumbnail that covers the tile), pixels discarded, on both
# cores: two threads taking the files from one queue (Benchmarks/floor.h). It is timed as a tool
# among the others, its runs alternating with imagewall's, and the targets are against its wall.
floors=false
if command -v cc >/dev/null; then
  cc -O2 Benchmarks/jpeg_floor.c -ljpeg -lpthread -o "$work/jpeg_floor"
  cc -O2 Benchmarks/png_floor.c -lpng -lpthread -o "$work/png_floor"
  cc -O2 Benchmarks/webp_floor.c -lwebp -lpthread -o "$work/webp_floor"
  cc -O2 Benchmarks/heif_floor.c $(pkg-config --cflags --libs libheif) -lpthread -o "$work/heif_floor"
  floors=true
fi
floor_script() {  # $1 corpus: writes $work/floor-$1.sh, its floor (a command a line); fails for none
  local src="$base/${1%-whole}" chosen=()
  $floors || return 1
  # a floor program on $FLOOR_THREADS threads (2 unless told), its arguments quoted for bash
  command_line() { printf '%q --threads "${FLOOR_THREADS:-2}" ' "$1"; shift; printf '%q ' "$@"; echo; }
  files() { find "$src" -maxdepth 1 "$@" | sort; }
  case $1 in
    photos) mapfile -t chosen < <(files -iname '*.jpg'); command_line "$work/jpeg_floor" --tile 487 "${chosen[@]}" ;;
    wallpapers)  # the JPEGs on both cores, then the PNGs
      mapfile -t chosen < <(files \( -iname '*.jpg' -o -iname '*.jpeg' \))
      if [ ${#chosen[@]} -gt 0 ]; then command_line "$work/jpeg_floor" --tile 487 "${chosen[@]}"; fi
      mapfile -t chosen < <(files -iname '*.png')
      if [ ${#chosen[@]} -gt 0 ]; then command_line "$work/png_floor" "${chosen[@]}"; fi ;;
    webp) mapfile -t chosen < <(files -iname '*.webp'); command_line "$work/webp_floor" 970 "${chosen[@]}" ;;
    heic) mapfile -t chosen < <(files -iname '*.heic'); command_line "$work/heif_floor" 487 "${chosen[@]}" ;;
    heic-whole) mapfile -t chosen < <(files -iname '*.heic'); command_line "$work/heif_floor" 995 "${chosen[@]}" ;;
    *) return 1 ;;
  esac > "$work/floor-$1.sh"
}

printf '%-11s %-10s %5s %9s %8s %8s %9s %10s\n' corpus tool images wall_s cpu_s rss_mb images/s vs_imagewall
for corpus in $(want sheets && echo "$corpora"); do
  prepare "$corpus" || continue
  src="$base/$corpus"
  count=$(ls "$src" | wc -l)
  echo "$count files, $(du -smL "$src" | cut -f1) MB" > "$work/$corpus.size"
  tools="imagewall fast"
  if floor_script "$corpus"; then tools="$tools floor"; fi
  for peer in $peers; do
    case $peer in
      vips) have_vips && tools="$tools vips vips2" ;;
      montage) case $corpus in heic|webp) ;; *) command -v montage >/dev/null && tools="$tools montage" ;; esac ;;
    esac
  done
  for tool in $tools; do : > "$work/$tool.runs"; done
  for run in $(seq "$runs"); do
    for tool in $tools; do
      # A new sheet each run: replacing the last run's means freeing its pages (about 3 ms of
      # kernel time for a 30 MB sheet, and up to 25 ms waiting while it is still written back),
      # which is the file system's cost and not the sheet's.
      rm -f "$work/$tool.png"
      measure $(tool_command "$tool" "$src" "$work/$tool.png") >> "$work/$tool.runs"
    done
  done
  iw_wall=$(cut -d' ' -f1 "$work/imagewall.runs" | median)
  echo "$iw_wall" > "$work/$corpus.imagewall"
  cut -d' ' -f3 "$work/imagewall.runs" | median > "$work/$corpus.rss"
  case " $tools " in *" floor "*)
    cut -d' ' -f1 "$work/floor.runs" | median > "$work/$corpus.floor"
    paired_median "$work/imagewall.runs" "$work/floor.runs" > "$work/$corpus.paired" ;;
  esac
  case " $tools " in *" vips "*) cut -d' ' -f1 "$work/vips.runs" | median > "$work/$corpus.vips" ;; esac
  case " $tools " in *" vips2 "*) cut -d' ' -f1 "$work/vips2.runs" | median > "$work/$corpus.vips2" ;; esac
  case " $tools " in *" montage "*) cut -d' ' -f1 "$work/montage.runs" | median > "$work/$corpus.montage" ;; esac
  for tool in $tools; do
    wall=$(cut -d' ' -f1 "$work/$tool.runs" | median)
    cpu=$(cut -d' ' -f2 "$work/$tool.runs" | median)
    rss=$(cut -d' ' -f3 "$work/$tool.runs" | median)
    awk -v c="$corpus" -v t="$tool" -v n="$count" -v w="$wall" -v u="$cpu" -v r="$rss" -v iw="$iw_wall" \
      'BEGIN { printf "%-11s %-10s %5d %9.2f %8.2f %8.0f %9.1f %9.2fx\n", c, t, n, w, u, r, n / w, w / iw }'
  done
done

# Each corpus against its floor: imagewall's wall against the floor's on both cores (timed in the
# same alternating runs), as the ratio of their medians and as the median of the runs' ratios
# (paired_median), which the target's verdict is on: a drift of the machine's speed between runs
# does not move it. Beside it, against the floor's one-thread CPU halved (the ideal of two cores
# that each run as fast as one alone), and how far the floor itself is from each libvips peer,
# i.e. what ratio is possible.
floor_line() {  # $1 corpus, $2 the floor's CPU on one thread, $3 what it decoded, $4 the target ratio
  local iw two paired v1 v2 rss
  iw=$(cat "$work/$1.imagewall")
  two=$(cat "$work/$1.floor")
  paired=$(cat "$work/$1.paired")
  v1=$(cat "$work/$1.vips" 2>/dev/null || echo 0)
  v2=$(cat "$work/$1.vips2" 2>/dev/null || echo 0)
  rss=$(cat "$work/$1.rss" 2>/dev/null || echo 0)
  awk -v c="$1" -v f="$2" -v two="$two" -v what="$3" -v target="$4" -v iw="$iw" -v v1="$v1" -v v2="$v2" -v rss="$rss" \
    -v paired="$paired" -v runs="$runs" 'BEGIN {
    printf "floor, %s: %s: %.2f s CPU on one thread, %.2f s on both cores; imagewall %.2f s = %.2fx that, %.2fx run by run (the median of %d pairs; target <= %.2fx: %s), peak %.0f MB (target <= 256 MB: %s)", \
      c, what, f, two, iw, iw / two, paired, runs, target, paired == "" ? "no pairs" : paired <= target ? "met" : "not met", rss, rss <= 256 ? "met" : "not met"
    printf "; against the CPU halved (%.2f s; the floor on both cores takes %.2fx that): %.2fx", f / 2, two / (f / 2), iw / (f / 2)
    if (v1 > 0) printf "; the floor is %.2fx faster than libvips 1 thread (%.2f s), %.2fx than 2 threads (%.2f s)", v1 / two, v1, v2 / two, v2
    printf "\n" }'
  local label against
  case $1 in
    photos) label="12 MP JPEG photos" ;;
    wallpapers) label="wallpapers, JPEG and PNG" ;;
    heic) label="phone HEICs at tile size" ;;
    heic-whole) label="phone HEICs decoded whole, \`--columns 2\`" ;;
    webp) label="the photos as WebP" ;;
    *) label=$1 ;;
  esac
  against="the decoders alone (${3%% (*}): $(figure '%.2fx' p p="$paired") run by run"
  if [ "$v1" != 0 ]; then
    against="$against; libvips $(figure '%.1fx / %.1fx' 'v1 / iw, v2 / iw' v1="$v1" v2="$v2" iw="$iw") slower (1 / 2 threads)"
  fi
  if [ -s "$work/$1.montage" ]; then
    against="$against; ImageMagick montage $(figure '%.1fx' 'm / iw' m="$(cat "$work/$1.montage")" iw="$iw") slower"
  fi
  result "Sheet of $label: $(cat "$work/${1%-whole}.size")" "$(figure '%.2f s, %.0f MB' 'iw, r' iw="$iw" r="$rss")" \
    "$against" "≤ $4x the decoders, ≤ 256 MB: $(verdict 'p != "" && p <= t && r <= 256' p="$paired" t="$4" r="$rss")"
}
# The floor's CPU on one thread (the same commands with FLOOR_THREADS=1), the median of $runs runs
# of each of its commands, one a line.
corpus_floor_cpu() {  # $1 corpus
  local k run
  for run in $(seq "$runs"); do FLOOR_THREADS=1 bash -e "$work/floor-$1.sh" > "$work/floor-$1.one.$run"; done
  for k in $(seq "$(wc -l < "$work/floor-$1.sh")"); do
    for run in $(seq "$runs"); do sed -n "${k}p" "$work/floor-$1.one.$run"; done | cut -d' ' -f1 | median
  done
}
total() { awk '{ t += $1 } END { print t }'; }
if $floors && want sheets; then
  echo
  if [ -f "$work/photos.floor" ]; then
    floor_line photos "$(corpus_floor_cpu photos | total)" "libjpeg shrinking to twice the tile" 1.15
  fi
  if [ -f "$work/wallpapers.floor" ]; then
    # libjpeg on the JPEGs, then libpng on the PNGs (a line each, as floor_script writes them)
    mapfile -t parts < <(corpus_floor_cpu wallpapers)
    floor_line wallpapers "$(printf '%s\n' "${parts[@]}" | total)" \
      "libjpeg on the JPEGs, then libpng on the PNGs ($(printf '%s s + ' "${parts[@]}" | sed 's/ + $//') of CPU)" 1.25
  fi
  if [ -f "$work/webp.floor" ]; then
    floor_line webp "$(corpus_floor_cpu webp | total)" "libwebp scaling to 970 px" 1.2
  fi
  if [ -f "$work/heic.floor" ]; then
    # "Phone HEICs at tile size": the usual sheet, 487 px tiles drawn from the phones'
    # stored thumbnails.
    floor_line heic "$(corpus_floor_cpu heic | total)" \
      "libheif decoding to RGB (a stored thumbnail when it covers the tile)" 1.4
    # Tiles larger than the phones' 512 px thumbnails: every image decoded whole.
    floor_script heic-whole
    : > "$work/heic-whole.runs"; : > "$work/heic-whole.floor.runs"
    for run in $(seq "$runs"); do
      rm -f "$work/heic-whole.png"
      measure "$bin" render "$base/heic" -o "$work/heic-whole.png" --width 2000 --columns 2 --gap 10 --background '#202020' \
        >> "$work/heic-whole.runs"
      measure bash -e "$work/floor-heic-whole.sh" >> "$work/heic-whole.floor.runs"
    done
    cut -d' ' -f1 "$work/heic-whole.runs" | median > "$work/heic-whole.imagewall"
    cut -d' ' -f3 "$work/heic-whole.runs" | median > "$work/heic-whole.rss"
    cut -d' ' -f1 "$work/heic-whole.floor.runs" | median > "$work/heic-whole.floor"
    paired_median "$work/heic-whole.runs" "$work/heic-whole.floor.runs" > "$work/heic-whole.paired"
    floor_line "heic-whole" "$(corpus_floor_cpu heic-whole | total)" \
      "libheif decoding every 12 MP image whole (--columns 2: 995 px tiles)" 1.3
  fi
fi

# The same ratios to the floor as instructions (valgrind's callgrind, one thread, a slice of each
# corpus: 10 files), which repeat where seconds do not: imagewall's whole render against the
# floor program decoding the same files as it must.
if command -v valgrind >/dev/null && command -v cc >/dev/null && want sheets; then
  echo
  instruction_line() {  # $1 what, $2 imagewall's billions, $3 the floor's billions, $4 the floor
    awk -v w="$1" -v i="$2" -v f="$3" -v what="$4" 'BEGIN {
      printf "instructions, %s: imagewall %.2f G, the floor (%s) %.2f G: %.2fx\n", w, i, what, f, i / f }'
    result "Instructions, $1, one thread" "$2 G" "the decoders alone ($4): $3 G, $(figure '%.2fx' 'i / f' i="$2" f="$3")"
  }
  sheet="--width 2000 --columns 4 --gap 10 --background #202020 --no-cache --threads 1 -q"
  if [ -d "$base/photos" ]; then
    mkdir -p "$work/slice-photos"
    for f in $(ls "$base"/photos/*.jpg | head -10); do ln -sf "$f" "$work/slice-photos/"; done
    instruction_line "10 photos" "$(instructions "$grind" render "$work/slice-photos" -o "$work/g.png" $sheet)" \
      "$(instructions "$work/jpeg_floor" --tile 487 "$work"/slice-photos/*.jpg)" "libjpeg shrinking to twice the tile"
  fi
  if [ -d "$base/wallpapers" ]; then
    mkdir -p "$work/slice-wallpapers"
    for f in $(ls "$base"/wallpapers/*.jpg | head -7) $(ls "$base"/wallpapers/*.png | head -3); do
      ln -sf "$f" "$work/slice-wallpapers/"
    done
    jpeg=$(instructions "$work/jpeg_floor" --tile 487 "$work"/slice-wallpapers/*.jpg)
    png=$(instructions "$work/png_floor" "$work"/slice-wallpapers/*.png)
    instruction_line "10 wallpapers (7 JPEG, 3 PNG)" \
      "$(instructions "$grind" render "$work/slice-wallpapers" -o "$work/g.png" $sheet)" \
      "$(awk -v j="$jpeg" -v p="$png" 'BEGIN { print j + p }')" "libjpeg $jpeg G + libpng $png G"
  fi
  if [ -d "$base/heic" ]; then
    mkdir -p "$work/slice-heic"
    for f in $(ls "$base"/heic/*.heic | head -10); do ln -sf "$f" "$work/slice-heic/"; done
    instruction_line "10 phone HEICs at tile size (487 px, from their thumbnails)" \
      "$(instructions "$grind" render "$work/slice-heic" -o "$work/g.png" $sheet)" \
      "$(instructions "$work/heif_floor" 487 "$work"/slice-heic/*.heic)" "libheif decoding their thumbnails"
    instruction_line "10 phone HEICs decoded whole (--columns 2)" \
      "$(instructions "$grind" render "$work/slice-heic" -o "$work/g.png" ${sheet/--columns 4/--columns 2})" \
      "$(instructions "$work/heif_floor" 995 "$work"/slice-heic/*.heic)" "libheif decoding each whole"
  fi
fi

# Quality: our tiles against libvips thumbnails of the same sources (pyvips).
if want quality && have_vips && [ -d "$base/wallpapers" ]; then
  echo
  "$bin" render "$base/wallpapers" -o "$work/q.png" --manifest "$work/q.json" --background '#202020' 2>/dev/null
  python3 Benchmarks/psnr.py "$work/q.json"
  "$bin" render "$base/wallpapers" -o "$work/q.png" --manifest "$work/q.json" --background '#202020' --fast 2>/dev/null
  printf -- '--fast: '
  python3 Benchmarks/psnr.py "$work/q.json"
  for corpus in heic webp; do
    [ -d "$base/$corpus" ] || continue
    "$bin" render "$base/$corpus" -o "$work/q.png" --manifest "$work/q.json" --background '#202020' 2>/dev/null
    printf -- '%s: ' "$corpus"
    python3 Benchmarks/psnr.py "$work/q.json"
  done
fi

# Bounded memory: a 2000 px sheet of 1,050 images (the wallpapers ten times), about 100,000 px tall.
if want memory && [ -d "$base/wallpapers" ]; then
  mkdir -p "$work/tall"
  # Copies, not links: links to one file are one input, drawn once.
  for r in 0 1 2 3 4 5 6 7 8 9; do for f in "$base"/wallpapers/*; do cp "$f" "$work/tall/r${r}_$(basename "$f")"; done; done
  read -r wall cpu rss < <(measure "$bin" render "$work/tall" -o "$work/tall.png")
  height=$(python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(24); print(struct.unpack('>I', d[20:24])[0])" "$work/tall.png")
  echo
  echo "tall sheet: 1050 images, 2000x$height px: $wall s wall, $cpu s CPU, peak $rss MB"
  result "Memory: 1,050 wallpapers on one sheet, 2000 × $height px" "$rss MB peak, $wall s"
  rm -rf "$work/tall"

  # PNG encoder settings on the wallpaper sheet, against libpng's defaults (level 6, adaptive).
  echo
  printf '%-28s %6s %9s %10s %10s\n' encoder wall_s encode_s size_MB vs_libpng
  for setting in "6 adaptive" "rle paeth" "rle up" "1 paeth" "3 paeth" "9 paeth"; do
    set -- $setting
    read -r wall cpu rss < <(measure "$bin" render "$base/wallpapers" -o "$work/c.png" --compression "$1" --png-filter "$2" --profile)
    encode=$(sed -n 's/.* encode \([0-9.]*\) s CPU.*/\1/p' "$work/stderr")
    echo "$1 $2 $wall $(stat -c %s "$work/c.png") $encode" >> "$work/levels"
  done
  six=$(awk '$2 == "adaptive" { print $4 }' "$work/levels")
  read -r rle_size rle_encode < <(awk '$1 == "rle" && $2 == "paeth" { print $4, $5 }' "$work/levels")
  read -r six_encode < <(awk '$2 == "adaptive" { print $5 }' "$work/levels")
  result "PNG encoding of the wallpaper sheet (run-length deflate after Paeth, the default)" \
    "$(figure '%.2f s CPU, %.1f MB' 'e, b / 1048576' e="$rle_encode" b="$rle_size")" \
    "libpng's defaults (level 6, adaptive filters): $(figure '%.1fx the time, %.2fx the bytes' 'l / e, b / s' l="$six_encode" e="$rle_encode" b="$six" s="$rle_size")"
  awk -v six="$six" '{ label = ($2 == "adaptive" ? "libpng default (6, adaptive)" : ($1 == "rle" ? "run-length" : "level " $1) " " $2 (($1 == "rle" && $2 == "paeth") ? " (default)" : "")); printf "%-28s %6.2f %9.2f %10.2f %9.2fx\n", label, $3, $5, $4 / 1048576, $4 / six }' "$work/levels"
fi

# Both cores: --threads 1 against --threads 2, and batch variants: four column counts in one
# run (each source decoded once) against one column count alone.
if want threads && [ -d "$base/wallpapers" ]; then
  echo
  : > "$work/t1.runs"; : > "$work/t2.runs"; : > "$work/pair.runs"
  sets="4,5,6,8 3,4,5,6 2,3,4,6"
  singles="4 3 2"
  for c in $singles $sets; do : > "$work/v$c.runs"; done
  for run in $(seq "$runs"); do
    measure "$bin" render "$base/wallpapers" -o "$work/t1.png" --threads 1 | cut -d' ' -f1 >> "$work/t1.runs"
    # The machine's own ceiling: two one-thread renders side by side, no sharing between them.
    start=$(date +%s.%N)
    "$bin" render "$base/wallpapers" -o "$work/p1.png" --threads 1 -q & first=$!
    "$bin" render "$base/wallpapers" -o "$work/p2.png" --threads 1 -q
    wait "$first"
    echo "$start $(date +%s.%N)" | awk '{ printf "%.2f\n", $2 - $1 }' >> "$work/pair.runs"
    measure "$bin" render "$base/wallpapers" -o "$work/t2.png" --threads 2 | cut -d' ' -f1 >> "$work/t2.runs"
    for c in $singles $sets; do
      measure "$bin" render "$base/wallpapers" -o "$work/v-{columns}.png" --columns "$c" --gap 10 --background '#202020' \
        | cut -d' ' -f1 >> "$work/v$c.runs"
    done
  done
  awk -v a="$(median < "$work/t1.runs")" -v b="$(median < "$work/t2.runs")" -v p="$(median < "$work/pair.runs")" \
    'BEGIN { printf "threads: 1 thread %.2f s, 2 threads %.2f s: %.2fx speed-up (two 1-thread renders side by side take %.2f s: the cores give at most %.2fx)\n", a, b, a / b, p, 2 * a / p }'
  result "\`--threads 2\` against \`--threads 1\`, wallpapers" \
    "$(figure '%.2fx faster' 'a / b' a="$(median < "$work/t1.runs")" b="$(median < "$work/t2.runs")")" \
    "two one-thread renders side by side: $(figure '%.2fx' '2 * a / p' a="$(median < "$work/t1.runs")" p="$(median < "$work/pair.runs")") at most"
  # A set costs at least its costliest member (the fewest columns: the biggest tiles, which
  # set the decode size); the rest is what the other three add. Against --columns 4 too.
  for c in $singles; do printf -- "variants: --columns %s alone %.2f s\n" "$c" "$(median < "$work/v$c.runs")"; done
  for c in $sets; do
    costliest=${c%%,*}
    awk -v set="$c" -v one="$costliest" -v t="$(median < "$work/v$c.runs")" -v m="$(median < "$work/v$costliest.runs")" \
      -v f="$(median < "$work/v4.runs")" \
      'BEGIN { printf "variants: --columns %s %.2f s: %.2fx --columns %s alone (its costliest member), %.2fx --columns 4\n", set, t, t / m, one, t / f }'
    result "\`--columns $c\` in one run, wallpapers" "$(median < "$work/v$c.runs") s" \
      "$(figure "%.2fx \`--columns $costliest\` alone (its costliest member), %.2fx \`--columns 4\`" 't / m, t / f' \
        t="$(median < "$work/v$c.runs")" m="$(median < "$work/v$costliest.runs")" f="$(median < "$work/v4.runs")")"
  done
fi

# The cache, on the photos and the wallpapers, runs alternating: a cold render with the cache on
# (an empty folder) against --no-cache (target: within 5 %, CPU and wall), the same render warm
# (target: 30x faster than cold), then with that warm cache another column count and a batch of
# four against --no-cache (target: at least as fast), and the cache's size after all of them
# against the folder's (target: at most 1x). Instruction counts (one thread) on 20 of the files.
cache_bench() {  # $1 corpus name
  local folder="$base/$1" sheet="--width 2000 --columns 4 --gap 10 --background #202020"
  local n; for n in off cold warm three three-off batch batch-off; do : > "$work/cache-$n.runs"; done
  for run in $(seq "$runs"); do
    rm -rf "$work/cache"
    measure "$real_bin" render "$folder" -o "$work/c.png" $sheet --no-cache >> "$work/cache-off.runs"
    measure "$real_bin" render "$folder" -o "$work/c.png" $sheet --cache "$work/cache" >> "$work/cache-cold.runs"
    measure "$real_bin" render "$folder" -o "$work/c.png" $sheet --cache "$work/cache" >> "$work/cache-warm.runs"
    measure "$real_bin" render "$folder" -o "$work/c.png" $sheet --columns 3 --cache "$work/cache" >> "$work/cache-three.runs"
    measure "$real_bin" render "$folder" -o "$work/c.png" $sheet --columns 3 --no-cache >> "$work/cache-three-off.runs"
    measure "$real_bin" render "$folder" -o "$work/b-{columns}.png" $sheet --columns 2,3,4,6 --cache "$work/cache" >> "$work/cache-batch.runs"
    measure "$real_bin" render "$folder" -o "$work/b-{columns}.png" $sheet --columns 2,3,4,6 --no-cache >> "$work/cache-batch-off.runs"
  done
  cpu() { awk '{ print $2 }' "$1"; }
  local wall cc co cold warm three batch files kept
  wall=$(paired_median "$work/cache-cold.runs" "$work/cache-off.runs")
  cc=$(cpu "$work/cache-cold.runs" | median); co=$(cpu "$work/cache-off.runs" | median)
  cold=$(cut -d' ' -f1 "$work/cache-cold.runs" | median); warm=$(cut -d' ' -f1 "$work/cache-warm.runs" | median)
  three=$(paired_median "$work/cache-three.runs" "$work/cache-three-off.runs")
  batch=$(paired_median "$work/cache-batch.runs" "$work/cache-batch-off.runs")
  files=$(du -skL "$folder" | cut -f1); kept=$(du -sk "$work/cache" | cut -f1)
  awk -v c="$1" -v wall="$wall" -v cc="$cc" -v co="$co" -v cold="$cold" -v warm="$warm" -v three="$three" \
    -v batch="$batch" -v f="$files" -v a="$kept" 'BEGIN {
    printf "cache: %s cold with the cache %.2fx the wall of --no-cache, %.2fx its CPU (target <= 1.05: %s)\n", c, wall, cc / co, (wall <= 1.05 && cc / co <= 1.05 ? "met" : "not met")
    printf "cache: %s warm %.2f s against %.2f s cold: %.1fx (target >= 30x: %s)\n", c, warm, cold, cold / warm, (cold / warm >= 30 ? "met" : "not met")
    printf "cache: %s warm cache, --columns 3 %.2fx the wall of --no-cache, --columns 2,3,4,6 %.2fx (target <= 1: %s)\n", c, three, batch, (three <= 1 && batch <= 1 ? "met" : "not met")
    printf "cache: %s %.0f MB of files, %.0f MB of cache after column counts 4, 3 and 2,3,4,6: %.2fx (target <= 1: %s)\n", c, f / 1024, a / 1024, a / f, (a <= f ? "met" : "not met") }'
  result "Cache, $1: a first render with the cache" "$(figure '%.2fx the wall, %.2fx the CPU' 'w, a / b' w="$wall" a="$cc" b="$co")" \
    "\`--no-cache\`, run by run" "≤ 1.05x: $(verdict 'w <= 1.05 && a / b <= 1.05' w="$wall" a="$cc" b="$co")"
  result "Cache, $1: the same render again" "$(figure '%.2f s, %.1fx faster' 'w, c / w' w="$warm" c="$cold")" \
    "the first render, $cold s" "≥ 30x: $(verdict 'c / w >= 30' w="$warm" c="$cold")"
  result "Cache, $1: \`--columns 3\`, then \`--columns 2,3,4,6\`, after \`--columns 4\`" \
    "$(figure '%.2fx, %.2fx the wall' 't, b' t="$three" b="$batch")" "\`--no-cache\`, run by run" \
    "≤ 1x: $(verdict 't <= 1 && b <= 1' t="$three" b="$batch")"
  result "Cache, $1: its size after all of them" "$(figure '%.0f MB' 'a / 1024' a="$kept")" \
    "the folder, $(figure '%.0f MB: %.2fx' 'f / 1024, a / f' f="$files" a="$kept")" \
    "≤ 1x: $(verdict 'a <= f' a="$kept" f="$files")"
  if [ -x "$grind" ]; then
    local few="$work/few-$1"; mkdir -p "$few"
    find "$folder" -maxdepth 1 -type f | sort | head -20 | while read -r f; do ln -s "$f" "$few/"; done
    rm -rf "$work/cache-g"
    local off cold warm
    off=$(instructions "$grind" render "$few" -o "$work/g.png" $sheet --threads 1 --no-cache)
    cold=$(instructions "$grind" render "$few" -o "$work/g.png" $sheet --threads 1 --cache "$work/cache-g")
    warm=$(instructions "$grind" render "$few" -o "$work/g.png" $sheet --threads 1 --cache "$work/cache-g")
    echo "instructions, 20 $1, one thread: --no-cache $off G, cold cache $cold G, warm $warm G"
    rm -rf "$few" "$work/cache-g"
  fi
  "$real_bin" cache --cache "$work/cache" | sed 's/^/cache: /'
  rm -rf "$work/cache" "$work"/b-*.png
}
for corpus in photos wallpapers; do
  if want cache && [ -d "$base/$corpus" ]; then echo; cache_bench "$corpus"; fi
done

# The cache with five new photos added to the folder (named after the others, as a camera
# numbers them; and spread among them) for masonry and justified against a cold render of the
# grown folder.
if want cache && [ -d "$base/photos" ] && have_vips; then
  echo
  grown="$work/grown"; spread="$work/spread"; extra="$work/extra"
  mkdir -p "$grown" "$spread" "$extra"
  for f in "$base"/photos/*.jpg; do ln -s "$f" "$grown/"; ln -s "$f" "$spread/"; done
  python3 - "$base/photos" "$extra" <<'PY'
import sys, pyvips
for k, i in enumerate([5, 25, 45, 65, 85]):
    im = pyvips.Image.new_from_file(f"{sys.argv[1]}/photo_{i:03d}.jpg").fliphor()
    im.jpegsave(f"{sys.argv[2]}/x{k}.jpg", Q=92, subsample_mode="on")
PY
  for k in 0 1 2 3 4; do cp "$extra/x$k.jpg" "$grown/photo_10$k.jpg"; cp "$extra/x$k.jpg" "$spread/photo_0$((k * 2 + 1))5a.jpg"; done
  sheet="--width 2000 --columns 4 --gap 10 --background #202020"
  for n in masonry-grown justified-grown masonry-spread justified-spread \
    masonry-grown-off justified-grown-off masonry-spread-off justified-spread-off; do : > "$work/cache-$n.runs"; done
  for run in $(seq "$runs"); do
    for layout in masonry justified; do
      for folder in grown spread; do
        rm -rf "$work/cache-$layout"
        "$real_bin" render "$base/photos" -o "$work/c.png" $sheet --layout "$layout" --cache "$work/cache-$layout" -q
        measure "$real_bin" render "$work/$folder" -o "$work/c.png" $sheet --layout "$layout" --cache "$work/cache-$layout" \
          | cut -d' ' -f1 >> "$work/cache-$layout-$folder.runs"
        measure "$real_bin" render "$work/$folder" -o "$work/c.png" $sheet --layout "$layout" --no-cache \
          | cut -d' ' -f1 >> "$work/cache-$layout-$folder-off.runs"
      done
    done
  done
  for layout in masonry justified; do
    for folder in grown spread; do
      awk -v l="$layout" -v f="$folder" -v a="$(median < "$work/cache-$layout-$folder.runs")" \
        -v b="$(median < "$work/cache-$layout-$folder-off.runs")" 'BEGIN {
        what = f == "grown" ? "named after the others" : "spread among them"
        printf "cache: %s, 5 photos added (%s): %.2f s against %.2f s cold: %.1fx\n", l, what, a, b, b / a }'
      result "Cache, 5 photos added to 100 (\`--layout $layout\`, $([ "$folder" = grown ] && echo "named after the others" || echo "spread among them"))" \
        "$(median < "$work/cache-$layout-$folder.runs") s" \
        "$(figure '%.1fx faster than `--no-cache`' 'b / a' a="$(median < "$work/cache-$layout-$folder.runs")" b="$(median < "$work/cache-$layout-$folder-off.runs")")"
    done
  done
fi

# Parts: the photos planned once, rendered in 4 parts by GNU parallel on both cores, and
# assembled, against one process rendering the same manifest; the pages must be the same bytes.
if want parts && [ -d "$base/photos" ] && command -v parallel >/dev/null; then
  echo
  "$real_bin" layout "$base/photos" --width 2000 --columns 4 --gap 10 --json > "$work/plan.json"
  : > "$work/one.runs"; : > "$work/parts.runs"
  for run in $(seq "$runs"); do
    measure "$bin" render --from-manifest "$work/plan.json" -o "$work/one.png" | cut -d' ' -f1 >> "$work/one.runs"
    rm -f "$work"/part-*
    start=$(date +%s.%N)
    parallel -j2 "$bin" render --from-manifest "$work/plan.json" --part {}/4 -o "$work/part-{}" -q ::: 1 2 3 4
    "$real_bin" assemble "$work"/part-* -o "$work/assembled.png" -q
    echo "$start $(date +%s.%N)" | awk '{ printf "%.2f\n", $2 - $1 }' >> "$work/parts.runs"
    cmp -s "$work/one.png" "$work/assembled.png" || { echo "bench: parts assembled differ from one render" >&2; exit 1; }
  done
  awk -v o="$(median < "$work/one.runs")" -v p="$(median < "$work/parts.runs")" 'BEGIN {
    printf "parts: photos in 4 parts (parallel -j2) + assemble %.2f s against one process %.2f s: %.2fx (same bytes)\n", p, o, p / o }'
  result "The photos in 4 parts (GNU parallel, 2 jobs) and assembled" "$(median < "$work/parts.runs") s, the same bytes" \
    "$(figure 'one process: %.2fx its time' 'p / o' p="$(median < "$work/parts.runs")" o="$(median < "$work/one.runs")")"
fi

# Diff: the wallpaper sheet against the sheet of the same folder with one wallpaper 3 % brighter,
# both written by ImageWall (in bands: only the bands that differ are decoded), and against that
# second sheet rewritten by ImageMagick (a PNG like any other: decoded whole); imagewall diff
# (exact, and with --threshold and anti-aliasing detection) against ImageMagick's compare -metric AE.
if want diff && [ -d "$base/wallpapers" ] && command -v compare >/dev/null; then
  echo
  mkdir -p "$work/brighter"
  for f in "$base/wallpapers"/*; do ln -s "$f" "$work/brighter/"; done
  changed=$(ls "$base/wallpapers" | grep -m1 '\.png$')
  rm "$work/brighter/$changed"
  convert "$base/wallpapers/$changed" -evaluate multiply 1.03 "$work/brighter/$changed"
  "$bin" render "$base/wallpapers" -o "$work/da.png" -q
  "$bin" render "$work/brighter" -o "$work/db.png" -q
  convert "$work/db.png" -define png:compression-level=6 "$work/dc.png"
  # time(1) puts "Command exited with non-zero status 1" before the time when they differ: last line.
  timed() { /usr/bin/time -f '%e' -o "$work/time" "$@" > /dev/null 2>&1 || true; tail -n 1 "$work/time"; }
  : > "$work/diff-iw.runs"; : > "$work/diff-iwt.runs"; : > "$work/diff-im.runs"; : > "$work/diff-iwo.runs"
  for run in $(seq "$runs"); do
    timed "$bin" diff "$work/da.png" "$work/db.png" >> "$work/diff-iw.runs"
    timed "$bin" diff "$work/da.png" "$work/db.png" --threshold 0.1 >> "$work/diff-iwt.runs"
    timed "$bin" diff "$work/da.png" "$work/dc.png" >> "$work/diff-iwo.runs"
    timed compare -metric AE "$work/da.png" "$work/db.png" null: >> "$work/diff-im.runs"
  done
  awk -v a="$(median < "$work/diff-iw.runs")" -v t="$(median < "$work/diff-iwt.runs")" -v m="$(median < "$work/diff-im.runs")" \
    -v o="$(median < "$work/diff-iwo.runs")" -v n="$changed" 'BEGIN {
    printf "diff: two 2000 px wallpaper sheets, %s brighter: imagewall %.2f s, with --threshold 0.1 %.2f s, ImageMagick compare -metric AE %.2f s: %.1fx / %.1fx\n", n, a, t, m, m / a, m / t
    printf "diff: the second sheet rewritten by ImageMagick (decoded whole): imagewall %.2f s: %.1fx\n", o, m / o }'
  result "\`imagewall diff\` of two 2000 px wallpaper sheets, one wallpaper 3 % brighter" \
    "$(median < "$work/diff-iw.runs") s; $(median < "$work/diff-iwo.runs") s when the second was written by ImageMagick" \
    "ImageMagick \`compare -metric AE\`: $(figure '%.1fx / %.1fx slower' 'm / a, m / o' m="$(median < "$work/diff-im.runs")" a="$(median < "$work/diff-iw.runs")" o="$(median < "$work/diff-iwo.runs")")"
fi

# Sheets to send: the wallpaper sheet as PNG, JPEG and WebP (quality 85), cold: the bytes and the
# encode stage's CPU (--profile), the rest of the render being the same.
if want send && [ -d "$base/wallpapers" ]; then
  echo
  line="sheets to send, 2000 px wallpaper sheet:"
  for ext in png jpg webp; do
    "$bin" render "$base/wallpapers" -o "$work/send.$ext" -q --no-cache --profile 2> "$work/send.profile"
    encode=$(sed -n 's/.* encode \([0-9.]*\) s CPU.*/\1/p' "$work/send.profile")
    line="$line $ext $(du -k "$work/send.$ext" | cut -f1) KB (encode $encode s CPU),"
  done
  echo "${line%,}"
fi

# ImageWall's deflater against zlib's Z_RLE on the same filtered rows, in the render's
# bands of 128 rows: the photo, wallpaper and SampleImages sheets, and a sheet of screenshots and
# flat graphics (the README's pictures). Targets: 3x the speed, at most 5 % larger.
if want deflate; then
  echo
  cc -O2 -ISources/CDeflate/include Benchmarks/deflate_vs_zlib.c Sources/CDeflate/iw_deflate.c -lz -lpthread \
    -o "$work/deflate_vs_zlib"
  sheets="SampleImages"
  for corpus in photos wallpapers; do [ -d "$base/$corpus" ] && sheets="$sheets $base/$corpus"; done
  for source in $sheets docs; do
    name=$(basename "$source")
    "$bin" render "$source" -o "$work/rows-$name.png" --width 2000 --columns 4 --compression rle -q
    "$work/deflate_vs_zlib" "$work/rows-$name.png" | sed "s|$work/rows-||"
  done
fi

# Deep Zoom: a 20,000-image wall (SampleImages over and over), 4000 px wide in 20 columns, as a
# pyramid and as one PNG; and libvips' dzsave making the pyramid from that PNG.
if want deepzoom; then
  echo
  mkdir -p "$work/wall20k"
  samples=(SampleImages/*)
  # Copies (1.5 GB), not links: links to one file are one input, drawn once.
  for i in $(seq 0 19999); do cp "${samples[$((i % ${#samples[@]}))]}" "$work/wall20k/$(printf 's%05d' "$i")"; done
  read -r dwall dcpu drss < <(measure "$bin" render "$work/wall20k" -o "$work/wall.dzi" --width 4000 --columns 20)
  read -r pwall pcpu prss < <(measure "$bin" render "$work/wall20k" -o "$work/wall.png" --width 4000 --columns 20 --max-sheet-pixels 4000000000)
  size=$(sed -n 's/.*Width="\([0-9]*\)" Height="\([0-9]*\)".*/\1x\2/p' "$work/wall.dzi")
  echo "deep zoom: 20,000 images, $size px: pyramid $dwall s wall, $dcpu s CPU, peak $drss MB, $(du -sm "$work/wall_files" | cut -f1) MB of tiles; one PNG $pwall s, peak $prss MB"
  if command -v vips >/dev/null; then
    read -r vwall vcpu vrss < <(measure vips dzsave "$work/wall.png" "$work/vips" --tile-size 254 --overlap 1 --suffix .png)
    echo "deep zoom: libvips dzsave of that PNG (pyramid only, no images decoded) $vwall s wall, $vcpu s CPU, peak $vrss MB"
  fi
  result "Deep Zoom wall of 20,000 images, $size px" "$dwall s, $drss MB peak" \
    "$([ -n "${vwall:-}" ] && echo "libvips \`dzsave\` of the finished PNG alone (no image decoded): $vwall s, $vrss MB")"
  rm -rf "$work/wall20k" "$work/wall_files" "$work/vips_files" "$work/wall.png"
fi

# The layout engine on 1,000,000 sizes per layout.
if want layout; then
  echo
  swift build -c release --product imagewall-layout-bench >/dev/null
  .build/release/imagewall-layout-bench
fi

# The manifest of a million tiles, end to end: sizes read, laid out, JSON written, each tile
# made from the layout as it is written (never a million of them held).
if want manifests; then
  awk 'BEGIN { srand(1); for (i = 0; i < 1000000; i++) printf "%d %d\n", 300 + int(rand() * 5700), 300 + int(rand() * 5700) }' \
    > "$work/sizes.txt"
  /usr/bin/time -f '%e %M' -o "$work/time" "$bin" layout --sizes "$work/sizes.txt" --json > "$work/million.json"
  read -r laid_wall laid_kb < "$work/time"
  result "A layout's JSON of 1,000,000 tiles (\`layout --sizes --json\`)" "$(figure '%.2f s, %.0f MB' 'w, k / 1024' w="$laid_wall" k="$laid_kb")" "" \
    "< 1 s, < 300 MB: $(verdict 'w < 1 && k / 1024 < 300' w="$laid_wall" k="$laid_kb")"
  awk -v bytes="$(stat -c %s "$work/million.json")" '{ printf "\nmanifest: 1,000,000 tiles (layout --sizes --json, %.0f MB of JSON) in %.2f s (target < 1 s: %s), %.0f MB peak (target < 300 MB: %s)\n", bytes / 1e6, $1, $1 < 1 ? "met" : "not met", $2 / 1024, $2 / 1024 < 300 ? "met" : "not met" }' "$work/time"
  if command -v valgrind >/dev/null; then
    laid=$(instructions "$grind" layout --sizes "$work/sizes.txt" --json)
    echo "instructions, the million-tile layout's JSON: imagewall $laid G"
  fi
  # The manifest a render writes, at a million tiles: a grid of 2 px cells, every tile drawn again
  # (--from-manifest, --no-cache) from one 20 x 13 JPEG, so that drawing a million tiles takes a
  # minute, not an hour. --profile's manifest-write is the render's writing of its manifest, each
  # tile made from the plan as it is written; the peak is the whole render's, which holds the
  # million tiles it read to draw them again.
  "$real_bin" render SampleImages/orientation-1.jpg -o "$work/tiny.jpg" --width 20 --columns 1 --padding 0 --gap 0 -q --no-cache
  awk 'BEGIN { for (i = 0; i < 1000000; i++) print "20 13" }' > "$work/tiny-sizes.txt"
  "$bin" layout --sizes "$work/tiny-sizes.txt" --layout grid --columns 1000 --width 2000 --gap 0 --padding 0 --json |
    sed "s|\"source\":\"sizes\[[0-9]*\]\"|\"source\":\"$work/tiny.jpg\"|" > "$work/grid.json"
  /usr/bin/time -f '%e %M' -o "$work/time" "$bin" render --from-manifest "$work/grid.json" -o "$work/grid.png" \
    --manifest "$work/rendered.json" -q --profile 2> "$work/grid.profile"
  # --profile's manifest-write time in the profile PATH; the bench stops when it has none.
  write_time() {
    local seconds
    seconds=$(sed -n 's/.*manifest-write \([0-9.]*\) s wall.*/\1/p' "$1")
    [ -n "$seconds" ] || { echo "bench: no manifest-write time in $1" >&2; exit 1; }
    echo "$seconds"
  }
  written=$(write_time "$work/grid.profile")
  awk -v w="$written" -v bytes="$(stat -c %s "$work/rendered.json")" '{ printf "manifest: a render writes one of 1,000,000 tiles (render --from-manifest --manifest, %.0f MB of JSON) in %.2f s (target < 1 s: %s); the render %.0f s, %.0f MB peak with the tiles it read (target < 300 MB: %s)\n", bytes / 1e6, w, w < 1 ? "met" : "not met", $1, $2 / 1024, $2 / 1024 < 300 ? "met" : "not met" }' "$work/time"
  result "A render's manifest of 1,000,000 tiles (\`--profile\`'s manifest-write)" "$written s" "" \
    "< 1 s: $(verdict 'w < 1' w="$written")"
  # The same manifest written to memory (tmpfs: its flush to the disk costs nothing), so that the
  # writer's own time is told from the disk's: the file is flushed to the disk as it is written
  # (fsync), and this disk's rate for a file of that size is measured beside it.
  if [ -d /dev/shm ] && [ "$(df --output=avail -k /dev/shm | tail -1)" -gt 1000000 ]; then
    shm=$(mktemp -d /dev/shm/imagewall-bench.XXXXXX)
    "$bin" render --from-manifest "$work/grid.json" -o "$work/grid.png" --manifest "$shm/rendered.json" \
      -q --profile 2> "$work/grid.profile"
    in_memory=$(write_time "$work/grid.profile")
    rm -rf "$shm"
    shm=""
    bytes=$(stat -c %s "$work/rendered.json")
    synced=$( { /usr/bin/time -f '%e' dd if=/dev/zero of="$work/synced.bin" bs=4M count=$((bytes / 4194304 + 1)) \
      conv=fsync status=none; } 2>&1)
    rm -f "$work/synced.bin"
    echo "manifest: the same written to memory (tmpfs) in $in_memory s; this disk takes $synced s to write and flush as many bytes (dd conv=fsync)"
    result "A render's manifest of 1,000,000 tiles written to memory (tmpfs)" "$in_memory s" \
      "the disk: $synced s to write and flush as many bytes (\`dd conv=fsync\`)" \
      "< 1 s: $(verdict 'w < 1' w="$in_memory")"
  fi
  rm -f "$work/grid.json" "$work/grid.png" "$work/rendered.json" "$work/tiny-sizes.txt" "$work/tiny.jpg"
  # Reading it back: one part of 4000 of the same million tiles paged (every source one sample),
  # as each worker of a scale-out render does: the part keeps each tile's page and cell, then reads
  # its own ~250 tiles; --profile gives the time until drawing begins (the manifest's reading).
  "$bin" layout --sizes "$work/sizes.txt" --max-height 20000 --json |
    sed "s|\"source\":\"sizes\[[0-9]*\]\"|\"source\":\"$PWD/SampleImages/landscape-baseline-420.jpg\"|" > "$work/million.json"
  /usr/bin/time -f '%e %M' -o "$work/time" "$bin" render --from-manifest "$work/million.json" --part 1/4000 \
    -o "$work/million.part" -q --no-cache --profile 2> "$work/million.profile"
  read_part=$(sed -n 's/.*manifest \([0-9.]*\) s wall.*/\1/p' "$work/million.profile")
  awk -v read="$read_part" '{ printf "manifest: one part of 4000 begins drawing after %.2f s (target < 1 s: %s), whole part %.2f s (target < 2 s: %s), %.0f MB peak (target < 300 MB)\n", read, read < 1 ? "met" : "not met", $1, $1 < 2 ? "met" : "not met", $2 / 1024 }' "$work/time"
  read -r part_wall part_kb < "$work/time"
  result "One part of 4,000 of a 1,000,000-tile wall (\`--from-manifest --part\`)" \
    "$(figure 'drawing begins after %.2f s, done in %.2f s, %.0f MB' 'r, w, k / 1024' r="$read_part" w="$part_wall" k="$part_kb")" "" \
    "< 1 s, < 2 s, < 300 MB: $(verdict 'r < 1 && w < 2 && k / 1024 < 300' r="$read_part" w="$part_wall" k="$part_kb")"
  if command -v valgrind >/dev/null; then
    part=$(instructions "$grind" render --from-manifest "$work/million.json" --part 1/4000 -o "$work/million.part" -q --no-cache --threads 1)
    echo "instructions, one part of 4000 of the million-tile wall: imagewall $part G"
  fi
  # The same manifest read whole, as --from-manifest in one process reads it.
  swift build -c release --product imagewall-manifest-bench >/dev/null
  read -r _ whole whole_mb < <(.build/release/imagewall-manifest-bench "$work/million.json")
  awk -v w="$whole" -v m="$whole_mb" 'BEGIN { printf "manifest: read whole in one process in %.2f s (target < 2.5 s: %s), %s MB peak\n", w, w < 2.5 ? "met" : "not met", m }'
  result "The same manifest read whole (\`--from-manifest\`, one process)" "$whole s, $whole_mb MB" "" \
    "< 2.5 s: $(verdict 'w < 2.5' w="$whole")"
  rm -f "$work/million.json" "$work/million.part" "$work/sizes.txt"
fi

# Header probing: 10,000 files (hard links to the samples), one process.
if want probe; then
  probe_dir="$work/probe"
  mkdir -p "$probe_dir"
  samples=(SampleImages/*)
  for i in $(seq 0 9999); do ln "${samples[$((i % ${#samples[@]}))]}" "$probe_dir/$(printf 'img%05d' "$i")"; done
  read -r wall cpu rss < <(measure "$bin" probe "$probe_dir")
  result "Header probe of 10,000 files" "$(figure '%.0f files/s, %d MB' '10000 / (w > 0 ? w : 0.01), r' w="$wall" r="$rss")"
  awk -v w="$wall" -v r="$rss" 'BEGIN { printf "\nprobe: 10000 files in %.2f s wall (%.0f files/s), %d MB peak\n", w, 10000 / (w > 0 ? w : 0.01), r }'
fi

# Big stills read through FFmpeg and OpenEXR, peak memory against libvips'.
if want stills; then
  echo
  Benchmarks/big_stills.sh "$bin"
fi

# Camera folders: RAW files against their previews' floor, clips against ffmpeg once a clip.
if want camera; then
  echo
  RUNS=$runs BENCH_CORPUS=$base Benchmarks/camera.sh
fi

# A fixture suite of 50 sheets checked in one run, against the renders alone.
if want fixtures; then
  echo
  RUNS=$runs Benchmarks/fixtures.sh
fi

# A photo library's gallery site: a cold build against sigal, a rebuild with nothing changed,
# one picture added, and the watch.
if want gallery; then
  echo
  BENCH_CORPUS=$base Benchmarks/gallery.sh
fi

# Crops that keep the subject: a portrait pasted near the sides of 12 wallpapers, cut
# to 1:2 cells, by --gravity center, attention, entropy and faces and by libvips' smartcrop attention.
echo
if ! want smartcrop; then
  :
elif have_vips && [ -f "$shared/../corpora/pillow-formats/hopper.tif" ]; then
  python3 Benchmarks/smartcrop.py "$bin" "$base/wallpapers" "$shared/../corpora/pillow-formats/hopper.tif"
else
  echo "smartcrop: pyvips or ../shared/corpora/pillow-formats/hopper.tif missing: skipped"
fi

# Stacks: bursts (frames of a pan encoded by ffmpeg), sets of copies and distinct
# scenes made from the wallpapers, stacked by --stack bursts and similar; and what the
# fingerprints cost on the 12 MP photos, with and without the thumbnail a camera writes.
echo
if ! want stacks; then
  :
elif python3 -c "import PIL" 2>/dev/null && command -v ffmpeg >/dev/null && command -v exiv2 >/dev/null; then
  python3 Benchmarks/stacks.py "$bin" "$base/wallpapers" "$base/photos"
else
  echo "stacks: Pillow, ffmpeg or exiv2 missing: skipped"
fi

# The whole bench ran: its rows replace the performance table's (Tools/bench_table.py).
if [ -z "${CORPORA:-}" ] && [ -z "${PEERS:-}" ] && [ -z "${SECTIONS:-}" ]; then
  echo "# complete" >> "$BENCH_RESULTS"
fi
