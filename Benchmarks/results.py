"""The performance table's rows, as Benchmarks/common.sh's `result` writes them."""
import os


def result(measure, imagewall, against="", target=""):
    """Adds a row (what was measured, ImageWall's figure, what it is against, the target and its
    verdict) to $BENCH_RESULTS, when it is set."""
    path = os.environ.get("BENCH_RESULTS")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write("\t".join((measure, imagewall, against, target)) + "\n")
