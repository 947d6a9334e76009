#!/bin/bash
# Big design and VFX stills: peak memory of one render for an 800 px tile,
# against libvips' thumbnail of the same file. The files are made here by ffmpeg (testsrc2) and
# ImageMagick (the PSD, from the TGA); the 8K OpenEXR is held to 400 MB.
# Usage: Benchmarks/big_stills.sh IMAGEWALL, a command that renders without the cache (bench.sh
# passes its wrapper that adds --no-cache).
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/common.sh"
command -v ffmpeg >/dev/null || { echo "big stills: ffmpeg missing: skipped"; exit 0; }
make_still() { # NAME SIZE PIXEL_FORMAT CODEC [OPTIONS…]
  local name=$1 size=$2 format=$3 codec=$4
  shift 4
  ffmpeg -v error -y -f lavfi -i "testsrc2=s=$size" -frames 1 -pix_fmt "$format" -c:v "$codec" "$@" "$work/$name"
}
make_still float-8k.exr 8192x4608 gbrpf32le exr -compression zip16
make_still half-8k.exr 8192x4608 gbrpf32le exr -format half -compression zip16
make_still float-4k.exr 4096x2160 gbrpf32le exr -compression zip16
make_still big.tga 10000x5625 bgr24 targa -rle 0
make_still big.bmp 10000x5625 bgr24 bmp
make_still big.fits 8000x4500 gray16be fits
# Uncompressed, with a layer beside the composite, as ImageMagick writes it.
if command -v convert >/dev/null; then convert "$work/big.tga" "$work/big.psd"; fi
printf '%-14s %14s %12s %12s %s\n' file size imagewall_MB libvips_MB target
for name in float-8k.exr half-8k.exr float-4k.exr big.psd big.tga big.bmp big.fits; do
  [ -f "$work/$name" ] || continue
  read -r _ _ rss < <(measure "$bin" render "$work/$name" -o "$work/sheet.png" --width 800 --columns 1)
  vrss=-
  if command -v vips >/dev/null; then
    read -r _ _ vrss < <(measure vips thumbnail "$work/$name" "$work/vips.png" 800)
  fi
  case $name in *-8k.exr) size=8192x4608 ;; *-4k.exr) size=4096x2160 ;; *.fits) size=8000x4500 ;; *) size=10000x5625 ;; esac
  target=
  [ "$name" = float-8k.exr ] && target="< 400 MB: $([ "$rss" -lt 400 ] && echo met || echo not met)"
  printf '%-14s %14s %12s %12s %s\n' "$name" "$size" "$rss" "$vrss" "$target"
  result "Memory: one $size $name for an 800 px tile" "$rss MB peak" "$([ "$vrss" != - ] && echo "libvips \`thumbnail\`: $vrss MB")" "${target:+≤ 400 MB: ${target##*: }}"
done
