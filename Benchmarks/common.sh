# Helpers the benchmark scripts share; they expect $work (a scratch folder) to be set.

# Runs a command under /usr/bin/time; prints "wall cpu rss_mb". Earlier runs' files are written
# out first (sync, untimed): a run never waits on, or shares the cores with, the writing back of
# another's.
measure() {
  sync
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || {
    echo "bench: failed: $*" >&2; cat "$work/stderr" >&2; return 1; }
  awk '{ printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024 }' "$work/time"
}

# The median of the numbers on standard input, one a line.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The median of the walls' ratios run by run: line k of the first runs file (as `measure` writes
# them) over line k of the second, whose runs alternated with the first's. A pair is timed a few
# seconds apart, so a drift of the machine's speed over the runs moves both of its walls alike and
# leaves the ratio, where a ratio of the two medians takes each from a different moment.
paired_median() {  # $1 the runs, $2 the runs they are measured against
  paste -d' ' "$1" "$2" | awk 'NF >= 6 && $4 > 0 { print $1 / $4 }' | median
}

# Runs a command under valgrind's callgrind; prints the instructions it ran, in billions: a
# figure that repeats on a busy machine where times do not. (valgrind cannot read the debug
# information of Swift binaries: give it a copy made with strip --strip-debug.)
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$work/callgrind" || {
    echo "bench: failed under callgrind: $*" >&2; tail -5 "$work/callgrind" >&2; return 1; }
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/callgrind" | awk '{ printf "%.2f\n", $1 / 1e9 }'
}

# A floor program's CPU on one thread, the median of $runs runs: what its decoding costs. (Its
# wall on two threads, the targets' floor, is timed beside imagewall's runs: see bench.sh.)
floor_cpu() {  # the floor program, then its arguments
  for run in $(seq "$runs"); do "$@" | cut -d' ' -f1; done | median
}

# Adds a row to the performance table (docs/performance.md, made by Tools/bench_table.py) in
# $BENCH_RESULTS, when it is set: what was measured, ImageWall's figure, what it is measured
# against, and the target with its verdict (empty where there is none).
result() {  # measure, imagewall, against, target
  [ -n "${BENCH_RESULTS:-}" ] || return 0
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "${3:-}" "${4:-}" >> "$BENCH_RESULTS"
}

# printf with awk's arithmetic: `figure '%.2fx' 'a / b' a=3 b=2` prints 1.50x.
figure() {  # format, expression, name=value…
  local format=$1 expression=$2 assignments=()
  shift 2
  for a in "$@"; do assignments+=(-v "$a"); done
  awk "${assignments[@]}" "BEGIN { printf \"$format\", $expression }"
}

# "met" or "not met": whether an awk condition holds.
verdict() {  # condition, name=value…
  local condition=$1 assignments=()
  shift
  for a in "$@"; do assignments+=(-v "$a"); done
  awk "${assignments[@]}" "BEGIN { print ($condition) ? \"met\" : \"not met\" }"
}
