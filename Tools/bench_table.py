#!/usr/bin/env python3
"""Writes the performance table of docs/performance.md from the rows `make bench` recorded.

    usage: Tools/bench_table.py RESULTS.tsv docs/performance.md

RESULTS.tsv holds a row a line (Benchmarks/common.sh's `result`): what was measured, ImageWall's
figure, what it is against, the target with its verdict. The table sits between the page's two
`bench-table` comments. After a whole run (the file ends with `# complete`) its rows are the
table. After a partial one (some corpora or peers, or a run stopped part-way) a row measured
replaces the row of the same measure, and the rows it did not measure stay with the date of the
run that measured them, so a partial run never drops a figure silently.
"""
import datetime
import os
import re
import sys

BEGIN = "<!-- bench-table: begin (written by `make bench` through Tools/bench_table.py) -->"
END = "<!-- bench-table: end -->"
HEADER = ["Measure", "ImageWall", "Against", "Target", "Run"]


def cells(line):
    """The cells of a Markdown table row, `\\|` kept as part of a cell."""
    parts = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [part.strip() for part in parts]


def row(values):
    return "| " + " | ".join(value.replace("|", "\\|") for value in values) + " |"


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores"


def main(results_path, page_path):
    today = datetime.date.today().isoformat()
    measured, complete = [], False
    with open(results_path, encoding="utf-8") as results:
        for line in results:
            if line.startswith("#"):
                complete = complete or line.strip() == "# complete"
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 4 or not fields[0]:
                sys.exit(f"bench_table: {results_path}: not a row of four cells: {line!r}")
            measured.append([field.replace("\\|", "|") for field in fields] + [today])
    if not measured:
        sys.exit(f"bench_table: {results_path} holds no rows; the table is left as it was")

    with open(page_path, encoding="utf-8") as page:
        text = page.read()
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        sys.exit(f"bench_table: {page_path} needs one '{BEGIN}' and one '{END}'")
    head, rest = text.split(BEGIN)
    table, tail = rest.split(END)

    earlier = [] if complete else [cells(line) for line in table.splitlines() if line.startswith("| ")]
    earlier = [values for values in earlier if values and values != HEADER and not set(values[0]) <= set("-")]
    fresh = {values[0]: values for values in measured}
    rows, seen = [], set()
    for values in earlier:
        key = values[0].replace("\\|", "|")
        rows.append(fresh.get(key, [value.replace("\\|", "|") for value in values]))
        seen.add(key)
    rows += [values for values in measured if values[0] not in seen]

    runs = os.environ.get("RUNS", "3")
    lines = [
        BEGIN,
        "",
        f"Last run {today} on {machine()}, medians of {runs} runs alternating with the tools beside them.",
        "",
        row(HEADER),
        row(["---"] * len(HEADER)),
    ] + [row(values) for values in rows] + ["", END]
    with open(page_path + ".tmp", "w", encoding="utf-8") as page:
        page.write(head + "\n".join(lines) + tail)
    os.replace(page_path + ".tmp", page_path)
    print(f"bench_table: {len(measured)} rows measured, {len(rows)} in {page_path}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
