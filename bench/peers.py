#!/usr/bin/env python3
"""maskclean beside the tools its users already trust, on the same file: make bench-peers.

    python3 bench/peers.py --maskclean PATH [--rows N] [--repeat K] [--data-dir DIR]

The job, written idiomatically in each (bench/peers/job.py is its table): keep a column's digits
(a regular expression), choose a format by how many there are, and call the value complete, lossy,
incomplete or empty by its length, for the four columns of bench/spec.json; write every input
column and the formatted, extracted and status columns to a CSV file.

  maskclean csv, to a file   maskclean run bench/spec.json messy-N.csv -o OUT (default jobs; it
                             also fsyncs its output before renaming it into place, which the
                             peers do not)
  polars, to a file          bench/peers/polars_clean.py: scan_csv, expressions, sink_csv
  duckdb, to a file          bench/peers/duckdb_clean.py: COPY (SELECT ... FROM read_csv) TO
  maskclean ndjson           maskclean run on messy-N.ndjson -o /dev/null, default jobs and --jobs 1
  orjson, load and dump      bench/peers/orjson_roundtrip.py: every line loaded and dumped, one core

Polars, DuckDB and orjson come from PyPI into a virtual environment, DIR/venv, made when missing.
The commands take turns, K rounds (default 3); each goes through GNU time for its CPU time and
peak RSS. Prints the table and the targets: maskclean at least 4x faster than the faster of Polars
and DuckDB with a fifth of the memory or less, and NDJSON at least 3x orjson's rate.
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

from run import (BENCH_DIR, REPO_ROOT, SPEC, BenchError, Case, ensure_dataset, find_gnu_time, log,
                 resolve_maskclean, run_cases, warm_page_cache, warn_if_busy)

PEERS = BENCH_DIR / "peers"
PACKAGES = ["polars", "duckdb", "orjson"]


def ensure_venv(data_dir):
    """DIR/venv with the peers installed; made or completed when something is missing."""
    venv = data_dir / "venv"
    python = venv / "bin" / "python"
    check = [str(python), "-c", "import " + ", ".join(PACKAGES)]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    log(f"installing {', '.join(PACKAGES)} from PyPI into {venv} ...")
    if not python.exists():
        made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True,
                              text=True)
        if made.returncode != 0:
            raise BenchError(f"could not make a virtual environment in {venv}:\n{made.stderr}"
                             "(Debian: apt-get install python3-venv)")
    installed = subprocess.run([str(python), "-m", "pip", "install", "-q", *PACKAGES],
                               capture_output=True, text=True)
    if installed.returncode != 0:
        raise BenchError(f"pip install {' '.join(PACKAGES)} failed:\n{installed.stderr[-3000:]}")
    return python


def versions(python):
    code = "import " + ", ".join(PACKAGES) + "; print(" + ", ".join(
        f"'{name}', {name}.__version__" for name in PACKAGES) + ")"
    return subprocess.run([str(python), "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--maskclean", required=True)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data-dir", type=Path, default=REPO_ROOT / "bench-data")
    args = parser.parse_args(argv)
    try:
        maskclean = str(resolve_maskclean(args.maskclean))
        gnu_time = find_gnu_time()
        args.data_dir.mkdir(parents=True, exist_ok=True)
        data_dir = args.data_dir.resolve()
        python = ensure_venv(data_dir)
        data = ensure_dataset(data_dir, args.rows)
        out = data_dir / "peers"
        out.mkdir(exist_ok=True)
        warm_page_cache(data.csv, data.ndjson)
        load = warn_if_busy()

        def peer(label, script, source, target):
            return Case(label, [str(python), str(PEERS / script), str(source), str(target)],
                        source, data.rows, masks=False)

        def masks(label, source, target, *extra):
            return Case(label, [maskclean, "run", str(SPEC), str(source), "-o", str(target),
                                "--quiet", *extra], source, data.rows)

        csv_cases = [
            masks("maskclean csv, to a file", data.csv, out / "maskclean.csv"),
            peer("polars, to a file", "polars_clean.py", data.csv, out / "polars.csv"),
            peer("duckdb, to a file", "duckdb_clean.py", data.csv, out / "duckdb.csv"),
        ]
        ndjson_cases = [
            masks("maskclean ndjson, default jobs", data.ndjson, os.devnull),
            masks("maskclean ndjson, --jobs 1", data.ndjson, os.devnull, "--jobs", "1"),
            peer("orjson, load and dump (one core)", "orjson_roundtrip.py", data.ndjson,
                 os.devnull),
        ]
        run_cases(csv_cases + ndjson_cases, args.repeat, gnu_time)
        # Every one wrote the input's columns and twelve more: far more bytes than it read.
        for case in csv_cases:
            written = Path(case.argv[-1] if not case.masks else case.argv[-2])
            if written.stat().st_size < data.csv.stat().st_size:
                raise BenchError(f"{case.label} wrote only {written.stat().st_size} bytes")
    except BenchError as error:
        print(f"bench-peers: {error}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as error:
        print(f"bench-peers: {error}", file=sys.stderr)
        return 1

    print(f"## maskclean and its peers\n\n{data.rows:,} rows ({data.csv.name} "
          f"{data.csv.stat().st_size / 1e6:.1f} MB, {data.ndjson.name} "
          f"{data.ndjson.stat().st_size / 1e6:.1f} MB); {len(os.sched_getaffinity(0))} cores, "
          f"load average {load:.2f} before timing; median of {args.repeat} interleaved runs, "
          f"peak RSS the largest.\n{versions(python)}\n")
    print("| what | wall s | CPU s | MB/s | peak RSS MiB | wall / maskclean | RSS / maskclean |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for group in (csv_cases, ndjson_cases):
        reference = group[0]
        for case in group:
            print(f"| {case.label} | {case.wall:.3f} | {case.cpu:.3f} "
                  f"| {case.input.stat().st_size / 1e6 / case.wall:.0f} | {case.peak_rss_mib:.1f} "
                  f"| {case.wall / reference.wall:.2f} "
                  f"| {case.peak_rss_mib / reference.peak_rss_mib:.2f} |")
    mine, faster = csv_cases[0], min(csv_cases[1:], key=lambda case: case.wall)
    speed = faster.wall / mine.wall
    memory = mine.peak_rss_mib / faster.peak_rss_mib
    orjson = ndjson_cases[2]
    rate = orjson.wall / ndjson_cases[0].wall
    rate_one = orjson.wall / ndjson_cases[1].wall
    marks = {True: "met", False: "**not met**"}
    print("\n### Targets (issue 14)\n")
    print("| target | this run | goal | |\n| --- | ---: | --- | --- |")
    print(f"| maskclean faster than the faster peer ({faster.label.split(',')[0]}) "
          f"| {speed:.2f}x | >= 4x | {marks[speed >= 4]} |")
    print(f"| maskclean's peak RSS / that peer's | {memory:.2f} | <= 0.20 | {marks[memory <= 0.2]} |")
    print(f"| NDJSON rate / orjson's (default jobs; --jobs 1: {rate_one:.2f}x) | {rate:.2f}x "
          f"| >= 3x | {marks[rate >= 3]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
