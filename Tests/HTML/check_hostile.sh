#!/usr/bin/env bash
# Pages made for files with hostile names — a scheme (javascript:…), markup that would end a
# script (<!--<script>…), HTML entities (&copy;&lt…) — with the page in the photos' folder, as a
# user makes one: the gallery page, the Deep Zoom viewer and a diff report, each driven in
# headless Chromium by check_hostile.py (every link clicked; nothing may run).
# usage: check_hostile.sh IMAGEWALL FOLDER
set -euo pipefail
imagewall=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
samples="$here/../../SampleImages"
rm -rf "$2" && mkdir -p "$2/a"
cd "$2/a"
cp "$samples/orientation-6.jpg" "javascript:alert(1).jpg"
cp "$samples/heic-rotated-6.heic" "javascript:document.title='JS'.heic"
cp "$samples/png-rgb.png" "<!--<script>x.png"
cp "$samples/cmyk-adobe.jpg" "&copy;&lt.jpg"
cp "$samples/png-gray.png" "a&amp;b.png"
"$imagewall" render . -o sheet.png --manifest sheet.json --html index.html --no-cache -q
"$imagewall" render . -o wall.dzi --manifest wall.json --html wall.html --no-cache -q
python3 "$here/check_hostile.py" index.html sheet.json
python3 "$here/check_hostile.py" wall.html wall.json
# A diff report naming the changed tiles: their names are text, its links stay in the page.
mkdir ../b && cp -- *.jpg *.png *.heic ../b/ && rm ../b/sheet.png ../b/hostile.png
cp "$samples/cmyk-adobe.jpg" "../b/javascript:alert(1).jpg"
cp "$samples/png-rgb.png" "../b/a&amp;b.png"
cd ..
"$imagewall" render b -o b.png --manifest b.json --no-cache -q
"$imagewall" render a -o a.png --manifest a.json --no-cache -q
"$imagewall" diff a.png b.png --manifest a.json b.json --report report.html > diff.txt || test $? -eq 1
python3 "$here/check_hostile.py" report.html "javascript:alert(1).jpg" "a&amp;b.png"
