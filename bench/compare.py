#!/usr/bin/env python3
"""Compare maskclean binaries side by side, for a change's before/after figures.

    python3 bench/compare.py NAME=PATH NAME=PATH ... [--repeat K] [--data PREFIX]

Runs `maskclean run bench/spec.json PREFIX.csv|.ndjson -o /dev/null --quiet` (CSV with the
default jobs and with --jobs 1, NDJSON with the default jobs) with every binary, K times each
(default 9), the binaries taking turns within each round so that a slow spell of a shared machine
falls on all of them alike. PREFIX defaults to bench-data/messy-1000000 (make bench writes it).
Prints a Markdown table of median wall times and the largest peak RSS (GNU time), and each
binary's median as a ratio of the first one's. Exit status 1 when a binary fails (any exit but 0
or 1, which is a missed threshold).

Needs: Python 3 (stdlib only), GNU time (Debian package "time").
"""
import argparse
import statistics
import subprocess
import sys
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binaries", nargs="+", help="NAME=PATH, the first is the reference")
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--data", default="bench-data/messy-1000000")
    args = parser.parse_args()
    binaries = [item.split("=", 1) for item in args.binaries]
    cases = [
        ("CSV, default jobs", [f"{args.data}.csv"]),
        ("CSV, --jobs 1", [f"{args.data}.csv", "--jobs", "1"]),
        ("NDJSON, default jobs", [f"{args.data}.ndjson"]),
    ]
    for suffix in (".csv", ".ndjson"):  # into the page cache
        with open(args.data + suffix, "rb") as file:
            while file.read(1 << 24):
                pass
    results = {}
    for _ in range(args.repeat):
        for case, input_args in cases:
            for name, path in binaries:
                command = ["/usr/bin/time", "-f", "%M", path, "run", "bench/spec.json", input_args[0],
                           "-o", "/dev/null", "--quiet"] + input_args[1:]
                start = time.perf_counter()
                done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                elapsed = time.perf_counter() - start
                if done.returncode not in (0, 1):
                    sys.stderr.write(f"{name} failed on {case} ({done.returncode}): {done.stderr[-500:]!r}\n")
                    sys.exit(1)
                rss_kib = int(done.stderr.decode().split()[-1])
                results.setdefault((case, name), []).append((elapsed, rss_kib))
    names = [name for name, _ in binaries]
    print(f"Medians of {args.repeat} interleaved runs (peak RSS, MiB), ratio to {names[0]}:\n")
    print("| case | " + " | ".join(names) + " | " + " | ".join(f"{n} ÷ {names[0]}" for n in names[1:]) + " |")
    print("| --- |" + " ---: |" * (2 * len(names) - 1))
    for case, _ in cases:
        medians = [statistics.median(t for t, _ in results[(case, n)]) for n in names]
        peaks = [max(r for _, r in results[(case, n)]) / 1024 for n in names]
        cells = [f"{m:.3f} s ({p:.0f})" for m, p in zip(medians, peaks)]
        ratios = [f"{m / medians[0]:.3f}" for m in medians[1:]]
        print(f"| {case} | " + " | ".join(cells + ratios) + " |")


if __name__ == "__main__":
    main()
