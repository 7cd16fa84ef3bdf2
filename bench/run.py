#!/usr/bin/env python3
"""Benchmark maskclean against the C floor on a messy customer export.

    python3 bench/run.py --maskclean PATH [--rows N] [--repeat K] [--data-dir DIR] [--big-rows M]

What it measures, on N generated rows (default 1,000,000; bench/generate.py, fixed seed):

  floor               bench/floor.c, built here with gcc -O2: libcsv parse + buffered write of
                      every record, one thread, to /dev/null. The least any CSV-to-CSV pass
                      through libcsv can cost.
  csv, --jobs 1       maskclean run bench/spec.json messy-N.csv -o /dev/null --quiet --jobs 1
  csv, default jobs   the same without --jobs (maskclean uses every active core)
  csv, to a file      the same, -o DIR/out.csv: what a real run also pays to write its output
                      (2.4 times the input's bytes here) through the page cache
  ndjson, default     the same on messy-N.ndjson, -o /dev/null

maskclean writes to /dev/null as the floor does, so that the ratio compares the same work; the
"to a file" line shows the cost of the bigger output on its own.

How: the input files are read once first so every run finds them in the page cache. Then each
command runs K times (default 5), the commands taking turns so that a slow spell of the machine
does not fall on one of them only. Each run goes through GNU time (/usr/bin/time -f %M), whose
report is the peak RSS of that one command; wall time is taken here around the run. The
table shows the median wall time of the K runs and the largest peak RSS, with MB/s (input bytes
/ wall, MB = 10^6 bytes), rows/s and masked values/s (rows x the spec's 4 masked columns / wall),
then the ratios: default-jobs time / floor time, and --jobs 1 time / default time (the speed-up).

With --big-rows M it also runs maskclean once on an M-row file of each kind (e.g. 5,000,000) and
compares the peak RSS with the N-row runs: memory should depend on the chunk size, not the file.

Data files live in DIR (default bench-data/ at the repository root, which git ignores) and are
reused while a stamp file beside them says they came from the same generator, seed and row count.

maskclean exit 1 (a minComplete threshold not met) still counts as a finished run; any other
non-zero exit, a signal or a missing binary stops the benchmark with exit status 1.
Progress goes to standard error, the Markdown report to standard output.

Needs: Python 3 (stdlib only), gcc, libcsv-dev, GNU time (Debian package "time").
"""

import argparse
import dataclasses
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
GENERATOR = BENCH_DIR / "generate.py"
FLOOR_SOURCE = BENCH_DIR / "floor.c"
SPEC = BENCH_DIR / "spec.json"
SEED = 4180  # generate.py's default too, so files made by hand with no --seed match


class BenchError(Exception):
    """A failure that stops the benchmark; the message is shown to the user as it is."""


@dataclasses.dataclass
class Dataset:
    rows: int
    csv: Path
    ndjson: Path


@dataclasses.dataclass
class Case:
    label: str
    argv: list
    input: Path
    rows: int
    stdout: Path = Path(os.devnull)
    masks: bool = True            # floor masks nothing: no masked values/s for it
    walls: list = dataclasses.field(default_factory=list)
    rss_kib: list = dataclasses.field(default_factory=list)

    @property
    def wall(self):
        return statistics.median(self.walls)

    @property
    def peak_rss_mib(self):
        return max(self.rss_kib) / 1024


def log(message):
    print(message, file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- data


def file_digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def ensure_dataset(data_dir, rows):
    """Generate DIR/messy-ROWS.{csv,ndjson} unless a matching copy is already there."""
    prefix = data_dir / f"messy-{rows}"
    data = Dataset(rows, prefix.with_name(prefix.name + ".csv"),
                   prefix.with_name(prefix.name + ".ndjson"))
    stamp_path = prefix.with_name(prefix.name + ".stamp")
    # The generator's own hash is in the stamp so that editing generate.py invalidates old data.
    wanted = {"rows": rows, "seed": SEED, "generator": file_digest(GENERATOR)}
    if stamp_matches(stamp_path, wanted, data):
        log(f"reusing {data.csv} and {data.ndjson.name}")
        return data

    log(f"generating {rows:,} rows into {prefix}.csv/.ndjson ...")
    stamp_path.unlink(missing_ok=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, str(GENERATOR), str(rows), str(prefix), "--seed", str(SEED)],
                   check=True)
    log(f"  generated in {time.perf_counter() - start:.1f} s")
    sizes = {"csvBytes": data.csv.stat().st_size, "ndjsonBytes": data.ndjson.stat().st_size}
    stamp_path.write_text(json.dumps({**wanted, **sizes}, indent=2) + "\n")
    return data


def bare_cr_copy(data):
    """The CSV with every LF turned into a CR: an old Mac export of the same records."""
    target = data.csv.with_name(data.csv.stem + ".cr.csv")
    if not target.exists() or target.stat().st_mtime < data.csv.stat().st_mtime:
        log(f"writing {target.name} (bare CR line ends) ...")
        target.write_bytes(data.csv.read_bytes().replace(b"\n", b"\r"))
    return target


def stamp_matches(stamp_path, wanted, data):
    try:
        stamp = json.loads(stamp_path.read_text())
        return (all(stamp.get(k) == v for k, v in wanted.items())
                and stamp["csvBytes"] == data.csv.stat().st_size
                and stamp["ndjsonBytes"] == data.ndjson.stat().st_size)
    except (OSError, ValueError, KeyError):
        return False


def warn_if_busy():
    """Other work on the machine skews every figure: say so rather than report it silently."""
    load = os.getloadavg()[0]
    if load > 0.5:
        log(f"warning: load average {load:.2f} before timing; figures will be noisy")
    return load


def warm_page_cache(*paths):
    for path in paths:
        with open(path, "rb") as f:
            while f.read(1 << 20):
                pass


# ----------------------------------------------------------------------------- programs


def build_floor(data_dir):
    gcc = shutil.which("gcc")
    if gcc is None:
        raise BenchError("gcc not found: it is needed to build bench/floor.c")
    binary = data_dir / "floor"
    argv = [gcc, "-O2", "-o", str(binary), str(FLOOR_SOURCE), "-lcsv"]
    result = subprocess.run(argv, capture_output=True, text=True)
    if result.returncode != 0:
        raise BenchError(f"building the floor failed ({' '.join(argv)}):\n{result.stderr}"
                         "(it needs libcsv's header and library: apt-get install libcsv-dev)")
    return binary


def resolve_maskclean(path):
    found = shutil.which(path) if os.sep not in path else None
    candidate = Path(found or path)
    if not candidate.is_file() or not os.access(candidate, os.X_OK):
        raise BenchError(f"maskclean binary not found or not executable: {path}\n"
                         "build it first, e.g. swift build -c release, and pass "
                         "--maskclean .build/release/maskclean")
    return candidate.resolve()


def masked_column_count():
    return len(json.loads(SPEC.read_text())["columns"])


# ----------------------------------------------------------------------------- running


# Why not os.wait4 on a child started from here: on exec, Linux folds the peak RSS of the address
# space being replaced into the process's ru_maxrss, and a child spawned from Python replaces a
# copy of (or, with vfork, the very) Python address space. Every child would then report at least
# this script's own peak, 20-200 MB, which buries a 3 MB floor. GNU time forks from a ~2 MB process.
def find_gnu_time():
    gnu_time = shutil.which("time") or "/usr/bin/time"
    with tempfile.NamedTemporaryFile("r") as report:
        try:
            subprocess.run([gnu_time, "-f", "%M", "-o", report.name, "true"], check=True,
                           capture_output=True)
            int(report.read().split()[-1])
            return gnu_time
        except (OSError, subprocess.CalledProcessError, ValueError, IndexError):
            raise BenchError("GNU time is needed to measure peak RSS per command "
                             "(Debian: apt-get install time)") from None


def run_once(case, gnu_time):
    """Run the case's command once; return (wall seconds, its peak RSS in KiB)."""
    with open(case.stdout, "wb") as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as rss_report:
        argv = [gnu_time, "-f", "%M", "-o", rss_report.name, *map(str, case.argv)]
        start = time.perf_counter()
        code = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err).returncode
        wall = time.perf_counter() - start
        # GNU time passes the command's exit status on, and reports a signal as 128 + N.
        if code not in (0, 1) or (code == 1 and not case.masks):
            err.seek(0)
            raise BenchError(f"{case.label} failed: {describe_exit(code)}\n"
                             f"command: {' '.join(map(str, case.argv))}\n"
                             + err.read().decode("utf-8", "replace")[-4000:])
        if code == 1:
            log(f"  {case.label}: exit 1, a minComplete threshold not met (still timed)")
        # On a non-zero exit GNU time puts a "Command exited with ..." line before the figure.
        return wall, int(rss_report.read().split()[-1])


def describe_exit(code):
    if code > 128:
        return f"exit status {code} (killed by signal {code - 128}?)"
    return f"exit status {code}"


def run_cases(cases, repeat, gnu_time):
    # Taking turns spreads any slow spell of the machine over every case alike.
    for round_number in range(1, repeat + 1):
        log(f"round {round_number}/{repeat}")
        for case in cases:
            wall, rss = run_once(case, gnu_time)
            case.walls.append(wall)
            case.rss_kib.append(rss)
            log(f"  {case.label}: {wall:.3f} s, {rss / 1024:.1f} MiB")


def maskclean_case(label, maskclean, data_dir, source, rows, jobs=None, to_file=False):
    output = data_dir / ("out" + source.suffix) if to_file else Path(os.devnull)
    argv = [str(maskclean), "run", str(SPEC), str(source), "-o", str(output), "--quiet"]
    if jobs is not None:
        argv += ["--jobs", str(jobs)]
    return Case(label, argv, source, rows)


# ----------------------------------------------------------------------------- report


def fmt_rate(value):
    return f"{value / 1e6:.2f} M" if value >= 1e6 else f"{value / 1e3:.0f} k"


def results_table(cases, floor, masked_columns):
    lines = ["| what | median wall s | MB/s | rows/s | masked values/s | peak RSS MiB | x floor |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for case in cases:
        wall = case.wall
        mb_per_s = case.input.stat().st_size / 1e6 / wall
        masked = fmt_rate(case.rows * masked_columns / wall) if case.masks else "-"
        lines.append(f"| {case.label} | {wall:.3f} | {mb_per_s:.0f} | {fmt_rate(case.rows / wall)}"
                     f" | {masked} | {case.peak_rss_mib:.1f} | {wall / floor.wall:.2f} |")
    return "\n".join(lines)


def ratio_lines(floor, jobs1, default, cores):
    return "\n".join([
        f"- default jobs / floor (CSV): **{default.wall / floor.wall:.2f}x** the time of a bare "
        "libcsv parse + write",
        f"- --jobs 1 / default jobs (CSV): **{jobs1.wall / default.wall:.2f}x** speed-up "
        f"with {cores} active cores",
    ])


def big_table(small_cases, big_cases):
    lines = ["| what | rows | wall s | peak RSS MiB |", "| --- | ---: | ---: | ---: |"]
    for case in [*small_cases, *big_cases]:
        lines.append(f"| {case.label} | {case.rows:,} | {case.wall:.3f} "
                     f"| {case.peak_rss_mib:.1f} |")
    return "\n".join(lines)


def header(data, repeat, maskclean, cores, load):
    return (f"## maskclean benchmark\n\n"
            f"{data.rows:,} rows: {data.csv.name} {data.csv.stat().st_size / 1e6:.1f} MB, "
            f"{data.ndjson.name} {data.ndjson.stat().st_size / 1e6:.1f} MB; "
            f"{cores} active cores, load average {load:.2f} before timing; "
            f"median of {repeat} runs, peak RSS the largest of them.\n"
            f"maskclean: `{maskclean}`; spec: bench/spec.json.\n")


# ----------------------------------------------------------------------------- main


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Time maskclean against the C floor on generated messy data.")
    parser.add_argument("--maskclean", required=True, help="path of the maskclean binary")
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows (default 1,000,000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each command (default 5)")
    parser.add_argument("--data-dir", type=Path, default=REPO_ROOT / "bench-data",
                        help="where data, the floor binary and outputs go (default bench-data/)")
    parser.add_argument("--big-rows", type=int, metavar="M",
                        help="also run once on an M-row file and compare peak RSS")
    args = parser.parse_args(argv)
    if args.rows < 1 or args.repeat < 1 or (args.big_rows is not None and args.big_rows < 1):
        parser.error("--rows, --repeat and --big-rows must be 1 or more")
    return args


def main(argv=None):
    args = parse_args(argv)
    try:
        maskclean = resolve_maskclean(args.maskclean)
        gnu_time = find_gnu_time()
        args.data_dir.mkdir(parents=True, exist_ok=True)
        data_dir = args.data_dir.resolve()
        floor_binary = build_floor(data_dir)
        data = ensure_dataset(data_dir, args.rows)
        warm_page_cache(data.csv, data.ndjson)
        load = warn_if_busy()

        floor = Case("floor (C, libcsv parse + write)", [str(floor_binary), str(data.csv)],
                     data.csv, data.rows, masks=False)
        jobs1 = maskclean_case("maskclean csv, --jobs 1", maskclean, data_dir, data.csv,
                               data.rows, jobs=1)
        default = maskclean_case("maskclean csv, default jobs", maskclean, data_dir, data.csv,
                                 data.rows)
        to_file = maskclean_case("maskclean csv, default jobs, to a file", maskclean, data_dir,
                                 data.csv, data.rows, to_file=True)
        ndjson = maskclean_case("maskclean ndjson, default jobs", maskclean, data_dir,
                                data.ndjson, data.rows)
        # The same records with bare CR line ends: cut into chunks at CRs, in linear time.
        bare_cr = maskclean_case("maskclean csv, bare CR line ends, default jobs", maskclean,
                                 data_dir, bare_cr_copy(data), data.rows)
        cases = [floor, jobs1, default, to_file, ndjson, bare_cr]
        run_cases(cases, args.repeat, gnu_time)

        big_cases = []
        if args.big_rows:
            big = ensure_dataset(data_dir, args.big_rows)
            warm_page_cache(big.csv, big.ndjson)
            big_cases = [
                maskclean_case("maskclean csv, default jobs", maskclean, data_dir, big.csv,
                               big.rows),
                maskclean_case("maskclean ndjson, default jobs", maskclean, data_dir,
                               big.ndjson, big.rows),
            ]
            log(f"{args.big_rows:,}-row runs")
            run_cases(big_cases, 1, gnu_time)
    except BenchError as error:
        print(f"bench: {error}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as error:
        print(f"bench: {error}", file=sys.stderr)
        return 1

    cores = len(os.sched_getaffinity(0))
    print(header(data, args.repeat, maskclean, cores, load))
    print(results_table(cases, floor, masked_column_count()))
    print("\nx floor: median wall time / the floor's median wall time on the CSV file.\n")
    print(ratio_lines(floor, jobs1, default, cores))
    if big_cases:
        print("\n### Peak memory against file size\n")
        print(big_table([default, ndjson], big_cases))
    return 0


if __name__ == "__main__":
    sys.exit(main())
