#!/usr/bin/env python3
"""maskclean beside the tools its users already trust, on the same file: make bench-peers.

    python3 bench/peers.py --maskclean PATH [--rows N] [--repeat K] [--data-dir DIR]
                           [--only peers|phones]

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

Then the phones section (issue 27), on its own with --only phones: a column of N mixed
international phone numbers (bench/phones.py, DIR/phones-N.csv, reused while its stamp matches),

  maskclean phones, --jobs 1   maskclean run bench/phones.json phones-N.csv -o OUT --jobs 1 --quiet
                               (kind: phone, defaultRegion US)
  libphonenumber C++           bench/peers/phone_peer.cc, built here with g++ -O2 against Debian's
                               libphonenumber-dev: Parse(value, "US"), IsValidNumber, Format
                               INTERNATIONAL and E164 per value, one thread, to a file

taking turns, K rounds; it prints wall and CPU time, microseconds per number and the ratio, and
the target: maskclean at --jobs 1 at least 20x faster than the C++ peer. A maskclean that refuses
the spec (exit 78, a bad spec, while kind: phone is not built), or exits with any status but 0
and 1 on the first 100 numbers, is reported as such and the peer is still timed.
"""

import argparse
import collections
import csv
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from run import (BENCH_DIR, REPO_ROOT, SPEC, BenchError, Case, ensure_dataset, file_digest,
                 find_gnu_time, log, resolve_maskclean, run_cases, warm_page_cache, warn_if_busy)

PEERS = BENCH_DIR / "peers"
PACKAGES = ["polars", "duckdb", "orjson"]

PHONES_GENERATOR = BENCH_DIR / "phones.py"
PHONES_SPEC = BENCH_DIR / "phones.json"
PHONES_SEED = 2027  # phones.py's default too
PHONE_PEER_SOURCE = PEERS / "phone_peer.cc"
PHONE_HEADER = Path("/usr/include/phonenumbers/phonenumberutil.h")
PHONE_TARGET = 20  # issue 27: maskclean --jobs 1 at least 20x faster than the C++ peer


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


def peers_section(args, maskclean, gnu_time, data_dir):
    """maskclean beside Polars, DuckDB and orjson on bench/spec.json's job; prints its tables."""
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


# ----------------------------------------------------------------------------- phones (issue 27)


def ensure_phones(data_dir, rows):
    """DIR/phones-ROWS.csv from bench/phones.py, unless its stamp says a matching copy is there."""
    path = data_dir / f"phones-{rows}.csv"
    stamp_path = data_dir / f"phones-{rows}.stamp"
    # The generator's own hash is in the stamp so that editing phones.py invalidates old data.
    wanted = {"rows": rows, "seed": PHONES_SEED, "generator": file_digest(PHONES_GENERATOR)}
    try:
        stamp = json.loads(stamp_path.read_text())
        if (all(stamp.get(k) == v for k, v in wanted.items())
                and stamp["csvBytes"] == path.stat().st_size):
            log(f"reusing {path}")
            return path
    except (OSError, ValueError, KeyError):
        pass
    log(f"generating {rows:,} phone numbers into {path} ...")
    stamp_path.unlink(missing_ok=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, str(PHONES_GENERATOR), str(rows), str(path.with_suffix("")),
                    "--seed", str(PHONES_SEED)], check=True)
    log(f"  generated in {time.perf_counter() - start:.1f} s")
    stamp_path.write_text(json.dumps({**wanted, "csvBytes": path.stat().st_size}, indent=2)
                          + "\n")
    return path


def build_phone_peer(data_dir):
    """bench/peers/phone_peer.cc built into DIR/phone_peer (again when the source is newer)."""
    gxx = shutil.which("g++")
    if gxx is None or not PHONE_HEADER.exists():
        raise BenchError("the phone peer needs g++ and libphonenumber's headers "
                         f"({PHONE_HEADER}): apt-get install g++ libphonenumber-dev "
                         "(make bench-peers installs them)")
    binary = data_dir / "phone_peer"
    if binary.exists() and binary.stat().st_mtime >= PHONE_PEER_SOURCE.stat().st_mtime:
        return binary
    argv = [gxx, "-O2", "-std=c++17", "-o", str(binary), str(PHONE_PEER_SOURCE), "-lphonenumber"]
    log(f"building {binary.name}: {' '.join(argv)}")
    result = subprocess.run(argv, capture_output=True, text=True)
    if result.returncode != 0:
        binary.unlink(missing_ok=True)
        raise BenchError(f"building the phone peer failed ({' '.join(argv)}):\n"
                         f"{result.stderr[-4000:]}")
    return binary


def libphonenumber_version():
    try:
        found = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "libphonenumber-dev"],
                               capture_output=True, text=True)
    except OSError:
        return "unknown version"
    return found.stdout.strip() if found.returncode == 0 else "unknown version"


def probe_phone_spec(maskclean, data_dir, phones):
    """maskclean's answer to bench/phones.json on the file's first 100 numbers: None when it runs
    (exit 0 or 1), else (exit status, its message): 78, a bad spec, while kind: phone is not
    built."""
    sample = data_dir / "phones-probe.csv"
    with open(phones, encoding="utf-8") as source:
        sample.write_text("".join(line for _, line in zip(range(101), source)), encoding="utf-8")
    result = subprocess.run([maskclean, "run", str(PHONES_SPEC), str(sample), "-o",
                             os.devnull, "--jobs", "1", "--quiet"],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if result.returncode in (0, 1):
        return None
    message = (result.stderr.strip() or result.stdout.strip() or "(no message)")
    return result.returncode, message


def status_counts(path, column):
    """How many of each value the CSV file's column holds; None when it has no such column."""
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        names = next(reader, [])
        if column not in names:
            return None
        at = names.index(column)
        return collections.Counter(row[at] if at < len(row) else "" for row in reader)


def phones_section(args, maskclean, gnu_time, data_dir):
    """maskclean's kind: phone beside libphonenumber's C++ library on one core; prints its table."""
    phones = ensure_phones(data_dir, args.rows)
    peer_binary = build_phone_peer(data_dir)
    out = data_dir / "peers"
    out.mkdir(exist_ok=True)
    refused = probe_phone_spec(maskclean, data_dir, phones)
    peer = Case("libphonenumber C++ (one thread), to a file",
                [str(peer_binary), str(phones), str(out / "phones-peer.csv")], phones, args.rows,
                masks=False)
    mine = Case("maskclean phones, --jobs 1, to a file",
                [maskclean, "run", str(PHONES_SPEC), str(phones), "-o",
                 str(out / "phones-maskclean.csv"), "--jobs", "1", "--quiet"], phones, args.rows)
    if refused is not None:
        code, message = refused
        log(f"maskclean exits {code} on {PHONES_SPEC.name}; timing the peer alone:\n  "
            + message.replace("\n", "\n  "))
    cases = [peer] if refused is not None else [mine, peer]
    warm_page_cache(phones)
    load = warn_if_busy()
    run_cases(cases, args.repeat, gnu_time)

    print(f"## Phone numbers of every country (issue 27)\n\n{args.rows:,} mixed international "
          f"numbers ({phones.name} {phones.stat().st_size / 1e6:.1f} MB, bench/phones.py seed "
          f"{PHONES_SEED}); spec bench/phones.json (kind: phone, defaultRegion US); "
          f"{len(os.sched_getaffinity(0))} cores, load average {load:.2f} before timing; median "
          f"of {args.repeat} interleaved runs, peak RSS the largest.\n"
          f"libphonenumber-dev {libphonenumber_version()}\n")
    print("| what | wall s | CPU s | µs per number (wall) | µs per number (CPU) | peak RSS MiB "
          "| wall / maskclean |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for case in cases:
        ratio = f"{case.wall / mine.wall:.2f}" if refused is None else "n/a"
        print(f"| {case.label} | {case.wall:.3f} | {case.cpu:.3f} "
              f"| {case.wall * 1e6 / args.rows:.3f} | {case.cpu * 1e6 / args.rows:.3f} "
              f"| {case.peak_rss_mib:.1f} | {ratio} |")
    if refused is not None:
        code, message = refused
        first = message.splitlines()[0] if message else ""
        print(f"| maskclean phones, --jobs 1 | not run: exit {code} on bench/phones.json "
              f"(`{first[:200]}`) | | | | | |")

    peer_counts = status_counts(out / "phones-peer.csv", "status")
    # Every number got a line: a peer that stopped early would look fast.
    if peer_counts is None or sum(peer_counts.values()) != args.rows:
        raise BenchError(f"the phone peer did not write one line per number into "
                         f"{out / 'phones-peer.csv'}")
    counts = {"libphonenumber C++": peer_counts}
    if refused is None:
        counts["maskclean"] = status_counts(out / "phones-maskclean.csv", "phone_status")
    print("\nStatuses: " + "; ".join(
        f"{who} " + (", ".join(f"{name or '(none)'} {n:,}" for name, n in sorted(c.items()))
                     if c is not None else "(no status column found)")
        for who, c in counts.items()))

    marks = {True: "met", False: "**not met**"}
    print("\n### Target (issue 27)\n")
    print("| target | this run | goal | |\n| --- | ---: | --- | --- |")
    goal = (f"maskclean --jobs 1 at least {PHONE_TARGET}x faster than libphonenumber C++ "
            f"(issue 27)")
    if refused is None:
        speed = peer.wall / mine.wall
        print(f"| {goal} | {speed:.2f}x (CPU {peer.cpu / mine.cpu:.2f}x) | >= {PHONE_TARGET}x "
              f"| {marks[speed >= PHONE_TARGET]} |")
    else:
        print(f"| {goal} | not measured: maskclean exits {refused[0]} on bench/phones.json "
              f"| >= {PHONE_TARGET}x | **not met** |")

SECTIONS = ("peers", "phones")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--maskclean", required=True)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data-dir", type=Path, default=REPO_ROOT / "bench-data")
    parser.add_argument("--only", choices=SECTIONS,
                        help="run one section: peers (Polars, DuckDB, orjson) or phones (issue "
                             "27's libphonenumber peer); both by default")
    args = parser.parse_args(argv)
    if args.rows < 1 or args.repeat < 1:
        parser.error("--rows and --repeat must be 1 or more")
    sections = [args.only] if args.only else list(SECTIONS)
    try:
        maskclean = str(resolve_maskclean(args.maskclean))
        gnu_time = find_gnu_time()
        args.data_dir.mkdir(parents=True, exist_ok=True)
        data_dir = args.data_dir.resolve()
        if "peers" in sections:
            peers_section(args, maskclean, gnu_time, data_dir)
        if "phones" in sections:
            if "peers" in sections:
                print()
            phones_section(args, maskclean, gnu_time, data_dir)
    except BenchError as error:
        print(f"bench-peers: {error}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as error:
        print(f"bench-peers: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
