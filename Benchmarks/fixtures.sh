#!/usr/bin/env bash
# A fixture suite of 50 SampleImages sheets (five layouts, several column counts), checked in one
# run (`imagewall check`) against the same run writing the goldens (`--update` into an empty
# folder: the renders alone, and their files): the checking's own cost. Medians of RUNS runs.
#   usage: Benchmarks/fixtures.sh     (env: RUNS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
bin=$PWD/.build/release/imagewall
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source Benchmarks/common.sh
[ -x "$bin" ] || { echo "fixtures: build the release binary first (make build)"; exit 1; }
python3 - "$work/suite.json" "$PWD/SampleImages" <<'PY'
import json, sys
layouts = ["masonry", "grid", "justified", "columns", "mosaic"]
fixtures = []
for i in range(50):
    layout = layouts[i % 5]
    arguments = ["--layout", layout] + (["--row-height", str(80 + 10 * (i % 5))] if layout == "justified"
                                          else ["--columns", str(2 + i % 5)])
    fixtures.append({"name": f"f{i:02d}", "inputs": [sys.argv[2]], "arguments": arguments})
json.dump({"goldens": "goldens", "arguments": ["--width", "600", "--no-cache"], "fixtures": fixtures},
          open(sys.argv[1], "w"))
PY
: > "$work/update.runs"; : > "$work/check.runs"
for run in $(seq "$runs"); do
  rm -rf "$work/goldens"
  measure "$bin" check "$work/suite.json" --update | cut -d' ' -f1 >> "$work/update.runs"
  measure "$bin" check "$work/suite.json" | cut -d' ' -f1 >> "$work/check.runs"
done
awk -v u="$(median < "$work/update.runs")" -v c="$(median < "$work/check.runs")" 'BEGIN {
  printf "fixtures: 50 SampleImages sheets checked in %.2f s; rendered with their goldens written %.2f s: checking costs %+.0f%%\n", c, u, 100 * (c / u - 1) }'
result "A fixture suite of 50 sheets, \`imagewall check\`" "$(median < "$work/check.runs") s" \
  "the same renders writing their goldens: $(figure '%+.0f %%' '100 * (c / u - 1)' c="$(median < "$work/check.runs")" u="$(median < "$work/update.runs")")"
