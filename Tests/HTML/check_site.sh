#!/usr/bin/env bash
# A gallery site of a real tree, walked in headless Chromium (check_site.py): ../shared/corpora
# (when it is there), SampleImages, a camera folder (RAW files, a phone's HEIC and clip) and a
# folder of files with hostile names, nested; then built again, which must change nothing.
# usage: check_site.sh IMAGEWALL FOLDER
set -euo pipefail
imagewall=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
samples="$here/../../SampleImages"
corpora="$here/../../../shared/corpora"
rm -rf "$2" && mkdir -p "$2/tree/Camera/DCIM/100CANON" "$2/tree/Hostile"
tree="$2/tree"
cp -r "$samples" "$tree/Samples"
if [ -d "$corpora" ]; then
  ln -s "$(realpath "$corpora")" "$tree/corpora"
  cp "$corpora/raw/nikon-d7100-head.NEF" "$corpora/raw/canon-eos-r6-pruned.CR3" "$tree/Camera/DCIM/100CANON/"
else
  echo "check-site: ../shared/corpora absent: SampleImages, a camera folder and hostile names only"
fi
cp "$samples/heic-rotated-6.heic" "$samples/video-rotated-6.mov" "$samples/orientation-6.jpg" "$tree/Camera/DCIM/100CANON/"
names=("javascript:alert(1).jpg" "<img src=x onerror=alert(1)>.png" "\"><svg onload=alert(2)>.jpg" "&copy;&lt.jpg" "a'b\\c.jpg")
cp "$samples/orientation-1.jpg" "$tree/Hostile/${names[0]}"
cp "$samples/png-rgb.png" "$tree/Hostile/${names[1]}"
cp "$samples/orientation-3.jpg" "$tree/Hostile/${names[2]}"
cp "$samples/cmyk-adobe.jpg" "$tree/Hostile/${names[3]}"
cp "$samples/orientation-8.jpg" "$tree/Hostile/${names[4]}"
"$imagewall" gallery "$tree" -o "$2/site" --name 'Check <b>site</b>' --no-cache -q
python3 "$here/check_site.py" "$2/site/index.html" "${names[@]}"
again=$("$imagewall" gallery "$tree" -o "$2/site" --name 'Check <b>site</b>' --no-cache)
case "$again" in
  *"nothing changed"*) echo "check-site: built again: ${again#*: }" ;;
  *) echo "check-site: FAILED: a second build changed something: $again"; exit 1 ;;
esac
