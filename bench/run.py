#!/usr/bin/env python3
"""Benchmark maskclean against the C floor on a messy customer export, and check issue 14's targets.

    python3 bench/run.py --maskclean PATH [--rows N] [--repeat K] [--data-dir DIR] [--big-rows M]
                         [--limit S] [--no-instructions]

What it measures, on N generated rows (default 1,000,000; bench/generate.py, fixed seed):

  floor               bench/floor.c, built here with gcc -O2: libcsv parse + buffered write of
                      every record, one thread, to /dev/null. The least any CSV-to-CSV pass
                      through libcsv can cost.
  csv, --jobs 1       maskclean run bench/spec.json messy-N.csv -o /dev/null --quiet --jobs 1
  csv, default jobs   the same without --jobs (maskclean uses every active core)
  csv, to a file      the same, -o DIR/out.csv: what a real run also pays to write its output
                      (2.4 times the input's bytes here), fsync it and rename it over the last one
  dd                  dd writing and fsyncing as many bytes: the disk's own share of "to a file"
  ndjson              the same on messy-N.ndjson, -o /dev/null, --jobs 1 and default jobs
  bare CR             the CSV with every LF turned into CR, default jobs
  inputs (issue 31)   the CSV's text in Windows-1252 (--encoding windows-1252) against the same
                      text in UTF-8; check and run of its records cut into 40 files (a
                      directory) against the same records in one file; the NDJSON with phone and
                      zip under "contact" (bench/spec-nested.json) against the flat NDJSON

How: the input files are read once first so every run finds them in the page cache. Then each
command runs K times (default 5), the commands taking turns so that a slow spell of the machine
does not fall on one of them only. Each run goes through GNU time (/usr/bin/time -f %M), whose
report is the peak RSS of that one command; CPU time is the kernel's count for the run (getrusage
of the finished children, in microseconds) and wall time is taken here around it. With --big-rows M it also runs maskclean once on an M-row file of each kind (e.g.
5,000,000): memory should depend on the chunk size, not the file. Then it runs long formats and
many formats on short values once each (stopped after --limit seconds), and counts instructions
per row with callgrind on the first 50,000 records (unless --no-instructions), and `describe`:
by default (the whole N-row CSV read twice, a sample of 10,000 records spread over it) three
times, taking turns with `check` of the same file with the bench spec at --jobs 1 and by default
(issue 28: describe takes at most 3x a check), then once each with --head 10,000, --sample
200,000, --sample 0 on the N-row CSV and --sample 0 on a wide CSV (100,000 columns, 10 rows):
describe keeps counts, not cells, so its memory should not grow with the records once a column's
tables are full. The report: the timing table, the memory, describe and long-format tables,
and the targets with this run's figures.

With --jobs-sweep 1,2,4,8,16 it runs the sweep alone (issue 32): the CSV, the NDJSON and the
CSV as .gz, each --copies times over in one file (default 1), at each --jobs value, --repeat
times taking turns, output to /dev/null, the inputs copied to /dev/shm when it has room (in
memory, as the issue measures). For each value: median wall, median CPU (user + system), the
speed-up over --jobs 1, CPU over CPU at --jobs 1, and peak RSS. On 2 cores only the first values
mean anything.

Data files live in DIR (default bench-data/ at the repository root, which git ignores) and are
reused while a stamp file beside them says they came from the same generator, seed and row count.

maskclean exit 1 (a minComplete threshold not met) still counts as a finished run; any other
non-zero exit, a signal or a missing binary stops the benchmark with exit status 1.
Progress goes to standard error, the Markdown report to standard output.

Needs: Python 3 (stdlib only), gcc, libcsv-dev, GNU time (Debian package "time"), dd, and
valgrind for the instruction counts.
"""

import argparse
import dataclasses
import hashlib
import json
import os
import resource
import shlex
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
# A card and a date column, without and with their checks (issue 26): the price of a check.
CHECK_SPECS = (BENCH_DIR / "checks-off.json", BENCH_DIR / "checks-on.json")
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
    cpus: list = dataclasses.field(default_factory=list)   # user + system seconds
    # With --pipeline-times: each run's serial CPU seconds (maskclean's own account).
    serials: list = dataclasses.field(default_factory=list)

    @property
    def wall(self):
        return statistics.median(self.walls)

    @property
    def cpu(self):
        return statistics.median(self.cpus)

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


def input_copies(data, parts=40):
    """Issue 31's inputs, made again when the CSV is newer: the CSV's text in Windows-1252 (a
    character it lacks becomes '?') and the same text in UTF-8; and the CSV's records cut into
    `parts` files of equal rows, each with the header, with the whole written by the same CSV
    writer, so that the files hold exactly the whole's bytes but for their headers."""
    import csv
    import io
    latin = data.csv.with_name(data.csv.stem + ".cp1252.csv")
    utf8 = data.csv.with_name(data.csv.stem + ".cp1252-as-utf8.csv")
    folder = data.csv.with_name(data.csv.stem + f".{parts}-parts")
    whole = data.csv.with_name(data.csv.stem + f".{parts}-whole.csv")
    if not whole.exists() or whole.stat().st_mtime < data.csv.stat().st_mtime:
        log(f"writing {latin.name}, {utf8.name} and {folder.name}/ ...")
        text = data.csv.read_text(encoding="utf-8")
        encoded = text.encode("cp1252", errors="replace")
        latin.write_bytes(encoded)
        utf8.write_bytes(encoded.decode("cp1252").encode("utf-8"))
        rows = list(csv.reader(io.StringIO(text, newline="")))
        header, body = rows[0], rows[1:]
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        size = -(-len(body) // parts)
        for part in range(parts):
            with open(folder / f"part-{part:02d}.csv", "w", newline="", encoding="utf-8") as out:
                writer = csv.writer(out, lineterminator="\n")
                writer.writerow(header)
                writer.writerows(body[part * size:(part + 1) * size])
        with open(whole, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(body)
    nested = data.ndjson.with_name(data.ndjson.stem + ".nested.ndjson")
    if not nested.exists() or nested.stat().st_mtime < data.ndjson.stat().st_mtime:
        log(f"writing {nested.name} ...")
        with open(data.ndjson, encoding="utf-8") as source, open(nested, "w", encoding="utf-8") as out:
            for line in source:
                record = json.loads(line)
                contact = {"phone": record.pop("phone"), "zip": record.pop("zip")}
                record = {"id": record.pop("id"), "name": record.pop("name"), "contact": contact, **record}
                out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    return {"cp1252": latin, "cp1252 as utf-8": utf8, "parts": folder, "whole": whole,
            "nested": nested}


def compressed_copies(data):
    """The CSV export as gzip (level 6, what `gzip` does by default) and zstd (level 3, zstd's
    default): how nightly exports arrive. Made again when the CSV is newer."""
    copies = {}
    for tool, suffix in (("gzip", ".gz"), ("zstd", ".zst")):
        if shutil.which(tool) is None:
            raise BenchError(f"{tool} not found: it makes the compressed inputs (apt-get install {tool})")
        target = data.csv.with_name(data.csv.name + suffix)
        if not target.exists() or target.stat().st_mtime < data.csv.stat().st_mtime:
            log(f"writing {target.name} ...")
            with open(target, "wb") as out:
                subprocess.run([tool, "-c", str(data.csv)], stdout=out, check=True)
        copies[tool] = target
    return copies


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


def inflate_speeds(data_dir, gz_path):
    """One core's gzip inflate speed, zlib's and ISA-L's igzip's (bench/inflate.c, built here
    with gcc -O2 against Debian's libisal-dev): (zlib MB/s, igzip MB/s), or None without them."""
    gcc = shutil.which("gcc")
    binary = data_dir / "inflate"
    argv = [gcc or "gcc", "-O2", "-o", str(binary), str(BENCH_DIR / "inflate.c"), "-lz", "-lisal"]
    if gcc is None or subprocess.run(argv, capture_output=True).returncode != 0:
        log("bench/inflate.c not built (it needs gcc and libisal-dev): inflate speeds not measured")
        return None
    out = subprocess.run([str(binary), str(gz_path)], capture_output=True, text=True, check=True).stdout
    # "zlib 386.1 MB/s, igzip 991.4 MB/s"
    zlib, igzip = (float(part.split()[1]) for part in out.split(","))
    return zlib, igzip


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


def run_once_wait4(case):
    """`run_once` without GNU time (a bare machine): the command's own peak RSS and CPU time from
    wait4, which reports them for that one child."""
    with open(case.stdout, "wb") as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(list(map(str, case.argv)), stdin=subprocess.DEVNULL, stdout=out,
                                 stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        note_serial(case, err.read().decode("utf-8", "replace"))
        if child.returncode not in (0, 1):
            err.seek(0)
            raise BenchError(f"{case.label} failed: exit status {child.returncode}\n"
                             + err.read().decode("utf-8", "replace")[-4000:])
        return wall, usage.ru_maxrss, usage.ru_utime + usage.ru_stime


def run_once(case, gnu_time):
    """Run the case's command once; return (wall seconds, peak RSS in KiB, CPU seconds)."""
    if gnu_time is None:
        return run_once_wait4(case)
    with open(case.stdout, "wb") as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as rss_report:
        argv = [gnu_time, "-f", "%M %U %S", "-o", rss_report.name, *map(str, case.argv)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        code = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err).returncode
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # GNU time passes the command's exit status on, and reports a signal as 128 + N.
        if code not in (0, 1) or (code == 1 and not case.masks):
            err.seek(0)
            raise BenchError(f"{case.label} failed: {describe_exit(code)}\n"
                             f"command: {' '.join(map(str, case.argv))}\n"
                             + err.read().decode("utf-8", "replace")[-4000:])
        if code == 1:
            log(f"  {case.label}: exit 1, a minComplete threshold not met (still timed)")
        # On a non-zero exit GNU time puts a "Command exited with ..." line before the figures.
        # CPU time from the kernel's microsecond counts, not GNU time's hundredths: a 5% CPU
        # difference is 20 ms here. It covers GNU time too, which waited for the command, and
        # costs about a millisecond.
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        err.seek(0)
        note_serial(case, err.read().decode("utf-8", "replace"))
        return wall, int(rss_report.read().split()[-3]), cpu


def note_serial(case, stderr):
    """Keeps the serial CPU seconds of a run made with --pipeline-times (`pipeline: cpu C s,
    serial S s: ...` on stderr)."""
    for line in stderr.splitlines():
        if line.startswith("pipeline: cpu "):
            case.serials.append(float(line.split("serial ")[1].split(" s")[0]))


def describe_exit(code):
    if code > 128:
        return f"exit status {code} (killed by signal {code - 128}?)"
    return f"exit status {code}"


def run_cases(cases, repeat, gnu_time):
    # Taking turns spreads any slow spell of the machine over every case alike.
    for round_number in range(1, repeat + 1):
        log(f"round {round_number}/{repeat}")
        for case in cases:
            wall, rss, cpu = run_once(case, gnu_time)
            case.walls.append(wall)
            case.rss_kib.append(rss)
            case.cpus.append(cpu)
            log(f"  {case.label}: {wall:.3f} s, CPU {cpu:.3f} s, {rss / 1024:.1f} MiB")


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
    lines = ["| what | median wall s | CPU s | MB/s | rows/s | masked values/s | peak RSS MiB"
             " | x floor |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for case in cases:
        wall = case.wall
        if case.input is None:   # dd: no input, no rows
            lines.append(f"| {case.label} | {wall:.3f} | {case.cpu:.3f} | - | - | - "
                         f"| {case.peak_rss_mib:.1f} | {wall / floor.wall:.2f} |")
            continue
        mb_per_s = case.input.stat().st_size / 1e6 / wall
        masked = fmt_rate(case.rows * masked_columns / wall) if case.masks else "-"
        lines.append(f"| {case.label} | {wall:.3f} | {case.cpu:.3f} | {mb_per_s:.0f} "
                     f"| {fmt_rate(case.rows / wall)} | {masked} | {case.peak_rss_mib:.1f} "
                     f"| {wall / floor.wall:.2f} |")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- instructions


def instruction_counts(maskclean, data_dir):
    """Instructions per row at --jobs 1, counted by callgrind: repeatable where wall time is not.

    The first 50,000 records of the export (generate.py with the same seed writes the same records
    first), minus a run on the header alone (CSV) or on an empty file (NDJSON), so that start-up
    and the spec's compilation do not count. Returns {"csv": n, "ndjson": n}, or None without
    valgrind."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        log("valgrind not found: no instruction counts (Debian: apt-get install valgrind)")
        return None
    rows = 50_000
    data = ensure_dataset(data_dir, rows)
    header_only = data_dir / "header-only.csv"
    with open(data.csv, "rb") as source:
        header_only.write_bytes(source.readline())
    empty = data_dir / "empty.ndjson"
    empty.write_bytes(b"")

    def count(source, *extra, spec=SPEC):
        return callgrind_count(valgrind, maskclean, spec, source, *extra)

    log("counting instructions with callgrind (about a minute) ...")
    csv = (count(data.csv) - count(header_only)) / rows
    ndjson = (count(data.ndjson) - count(empty, "--input-format", "ndjson")) / rows
    # The card and date columns without and with their checks, CSV.
    off, on = ((count(data.csv, spec=spec) - count(header_only, spec=spec)) / rows
               for spec in CHECK_SPECS)
    return {"csv": csv, "ndjson": ndjson, "checks off": off, "checks on": on}


def callgrind_count(valgrind, maskclean, spec, source, *extra):
    """Instructions of one `maskclean run` at --jobs 1, as callgrind counts them."""
    argv = [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", str(maskclean),
            "run", str(spec), str(source), "-o", os.devnull, "--quiet", "--jobs", "1", *extra]
    done = subprocess.run(argv, capture_output=True, text=True)
    # 0, or 1 for a baseline with no records (minRows): any other status means the run did not
    # do its work (a usage error exits 64 before the spec is read), and its count is not one.
    if done.returncode not in (0, 1):
        raise BenchError(f"maskclean exited {done.returncode} under callgrind for {source}:\n{done.stderr[-2000:]}")
    for line in done.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    raise BenchError(f"callgrind gave no count for {source}:\n{done.stderr[-2000:]}")


def check_cases(maskclean, data):
    """The card and date columns at --jobs 1, without and with their checks, on the CSV."""
    return [Case(f"card + date, {label}, --jobs 1",
                 [str(maskclean), "run", str(spec), str(data.csv), "-o", os.devnull, "--quiet",
                  "--jobs", "1"], data.csv, data.rows)
            for label, spec in zip(("no checks", "check luhn + date"), CHECK_SPECS)]


# ----------------------------------------------------------------------------- long formats


# About 200,000 characters each, in the shapes that cost most when a walk does not stop once the
# value is used up: two slots, then a long tail of literals, or of optional slots.
LONG_FORMATS = [
    ("input-mask", "literal tail", "[00]" + "-" * 199_996),
    ("input-mask", "optional-slot tail", "[00][" + "9" * 199_994 + "]"),
    ("akmask", "literal tail", "{dd}" + "-" * 199_996),
    ("maskara", "literal tail", "DD" + "-" * 199_998),
    ("maskara", "optional-slot tail", "DD" + "D?" * 99_999),
]
SHORT_VALUES = ["5551234567", "(555) 123-4567", "555", "", "+44 20 7946 0958", "12-34", "abc"]


def short_values_csv(path, rows):
    lines = ["id,value"] + [f"{i},\"{SHORT_VALUES[i % len(SHORT_VALUES)]}\"" for i in range(rows)]
    path.write_text("\n".join(lines) + "\n")


def long_format_cases(maskclean, data_dir):
    """The shapes where a format's size could multiply a cell's cost: a 200,000-character format
    in each syntax on 10,000 short values, and an affine choice among 10,000 formats on 100,000
    short values."""
    folder = data_dir / "long-formats"
    folder.mkdir(exist_ok=True)
    values_10k = folder / "short-10000.csv"
    values_100k = folder / "short-100000.csv"
    short_values_csv(values_10k, 10_000)
    short_values_csv(values_100k, 100_000)
    cases = []
    for number, (syntax, shape, form) in enumerate(LONG_FORMATS):
        spec = folder / f"spec-{number}.json"
        spec.write_text(json.dumps({"columns": [{"name": "value", "syntax": syntax,
                                                 "format": form}]}))
        cases.append(Case(f"{len(form):,}-character {syntax} format ({shape}), 10,000 short values",
                          [str(maskclean), "run", str(spec), str(values_10k), "-o", os.devnull,
                           "--quiet"], values_10k, 10_000))
    spec = folder / "spec-10000-formats.json"
    spec.write_text(json.dumps({"columns": [{
        "name": "value", "format": "[000]-[0000]",
        "affineFormats": [f"+{i} ([000]) [000]-[0000]" for i in range(1, 10_000)]}]}))
    cases.append(Case("affine choice among 10,000 formats, 100,000 short values",
                      [str(maskclean), "run", str(spec), str(values_100k), "-o", os.devnull,
                       "--quiet"], values_100k, 100_000))
    return cases


def run_with_limit(case, gnu_time, limit):
    """One run that may not finish: a run past `limit` seconds is stopped and counted as such."""
    with tempfile.NamedTemporaryFile("r") as rss_report:
        argv = [gnu_time, "-f", "%M %U %S", "-o", rss_report.name, *case.argv]
        start = time.perf_counter()
        try:
            done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, timeout=limit)
        except subprocess.TimeoutExpired:
            log(f"  {case.label}: stopped after {limit} s")
            return None
        wall = time.perf_counter() - start
        if done.returncode not in (0, 1):
            raise BenchError(f"{case.label} failed: {describe_exit(done.returncode)}\n"
                             + done.stderr.decode("utf-8", "replace")[-2000:])
        rss, user, system = rss_report.read().split()[-3:]
        case.walls.append(wall)
        case.rss_kib.append(int(rss))
        case.cpus.append(float(user) + float(system))
        log(f"  {case.label}: {wall:.3f} s, {int(rss) / 1024:.1f} MiB")
        return case


# ----------------------------------------------------------------------------- describe


def wide_csv(path, columns=100_000, rows=10):
    """A CSV of many short columns (codes of a capital and three digits), as a wide export is:
    describe proposes every one of them. (Numbers alone, as it once held, are left out as whole
    numbers, and describe then proposes nothing and exits 65.)"""
    if path.exists():
        return path
    log(f"writing {path.name} ({columns:,} columns, {rows} rows) ...")
    lines = [",".join(f"c{i}" for i in range(columns))]
    lines += [",".join(f"K{(row * 7919 + i * 104729) % 1000:03d}" for i in range(columns))
              for row in range(rows)]
    path.write_text("\n".join(lines) + "\n")
    return path


def describe_case(maskclean, data_dir, label, source, rows, *extra):
    """describe writing its spec to DIR (--force: the same file each run), so that standard output
    is not what is measured."""
    argv = [str(maskclean), "describe", str(source), "-o", str(data_dir / "described.yaml"),
            "--force", *extra]
    return Case(label, argv, source, rows, masks=False)


def describe_against_check(maskclean, data_dir, data):
    """describe by default (the whole file) and check of the same file with the bench spec, at
    --jobs 1 and by default: run in turns, for issue 28's 3x."""
    def check(label, *extra):
        argv = [str(maskclean), "check", str(SPEC), str(data.csv), "--quiet", *extra]
        # A threshold not met (exit 1) is still a timed check.
        return Case(label, argv, data.csv, data.rows)

    return [describe_case(maskclean, data_dir, f"describe, whole file ({data.rows:,} rows), "
                          "sample 10,000", data.csv, data.rows),
            check("check, --jobs 1", "--jobs", "1"), check("check, default jobs")]


def describe_cases(maskclean, data_dir, data):
    """describe with --head 10,000, --sample 200,000 and --sample 0 on the N-row CSV; and
    --sample 0 on a wide CSV."""
    wide = wide_csv(data_dir / "wide-codes-100000.csv")

    def case(label, source, rows, *extra):
        return describe_case(maskclean, data_dir, label, source, rows, *extra)

    part = min(200_000, data.rows)
    return [case("describe --head 10,000 (the first records)", data.csv, 10_000, "--head", "10000"),
            case(f"describe --sample {part:,}", data.csv, part, "--sample", str(part)),
            case(f"describe --sample 0, {data.rows:,} rows", data.csv, data.rows, "--sample", "0"),
            case("describe --sample 0, 100,000 columns x 10 rows", wide, 10, "--sample", "0")]


def describe_table(cases):
    lines = ["| what | wall s | CPU s | peak RSS MiB |", "| --- | ---: | ---: | ---: |"]
    lines += [f"| {c.label} | {c.wall:.3f} | {c.cpu:.3f} | {c.peak_rss_mib:.1f} |" for c in cases]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- targets


@dataclasses.dataclass
class Target:
    name: str
    figure: str
    goal: str
    met: object   # True, False, or None when not measured


def targets(measured):
    """Issue 14's targets, each with this run's figure. `measured` holds the cases by key."""
    m = measured
    rows = []

    def add(name, figure, goal, met):
        rows.append(Target(name, figure, goal, met))

    counts = m.get("instructions")
    for kind, goal in (("csv", 7_740), ("ndjson", 10_740)):
        if counts:
            add(f"instructions per {kind.upper()} row (callgrind, --jobs 1)",
                f"{counts[kind]:,.0f}", f"<= {goal:,}", counts[kind] <= goal)
        else:
            add(f"instructions per {kind.upper()} row", "not measured (no valgrind)",
                f"<= {goal:,}", None)
    for kind in ("csv", "ndjson"):
        one, default = m[f"{kind} jobs 1"], m[f"{kind} default"]
        overhead = default.cpu / one.cpu - 1
        add(f"{kind.upper()}: CPU of default jobs over --jobs 1", f"{overhead:+.1%}", "<= +5%",
            overhead <= 0.05)
        if m["cores"] >= 2:
            speedup = one.wall / default.wall
            add(f"{kind.upper()}: speed-up --jobs 1 -> default ({m['cores']} cores)",
                f"{speedup:.2f}x", ">= 1.85x", speedup >= 1.85)
        else:
            add(f"{kind.upper()}: speed-up", "one core: not measurable", ">= 1.85x", None)
    ratio = m["csv default"].wall / m["floor"].wall
    add("CSV to /dev/null / the one-core C floor", f"{ratio:.2f}x", "<= 0.65x", ratio <= 0.65)
    to_file, devnull, dd = m["csv to file"], m["csv default"], m["dd"]
    durability = to_file.wall / devnull.wall - 1
    extra = to_file.wall - devnull.wall
    # Where the disk is the limit, no program does better than the disk writing the same bytes.
    add("durability: to a file (fsync, rename) over /dev/null",
        f"{durability:+.0%} ({extra:.3f} s; dd of the same bytes + fsync {dd.wall:.3f} s)",
        "<= +15%, or no more than the disk's own time (dd)", durability <= 0.15 or extra <= dd.wall)
    peaks = [c.peak_rss_mib for c in m["maskclean cases"]]
    add("peak RSS, every maskclean run", f"{max(peaks):.1f} MiB", "<= 64 MiB", max(peaks) <= 64)
    if m.get("big"):
        small = max(m["csv default"].peak_rss_mib, m["ndjson default"].peak_rss_mib)
        big = max(c.peak_rss_mib for c in m["big"])
        add(f"peak RSS at {m['big'][0].rows:,} rows over {m['csv default'].rows:,}",
            f"{big:.1f} / {small:.1f} MiB", "<= 64 MiB, flat (<= 1.1x)",
            big <= 64 and big <= small * 1.1)
    for case, finished in m.get("long formats", []):
        limit = 10 if "10,000 formats" in case.label else 1
        if finished:
            add(case.label, f"{case.wall:.2f} s, {case.peak_rss_mib:.0f} MiB",
                f"< {limit} s, < 100 MiB", case.wall < limit and case.peak_rss_mib < 100)
        else:
            add(case.label, "did not finish in time", f"< {limit} s, < 100 MiB", False)
    if m.get("describe"):
        _, part, whole, wide = m["describe"]
        described, check1, check = m["describe against check"]
        for against in (check1, check):
            ratio = described.wall / against.wall
            add(f"describe of the whole file over {against.label} (median wall)",
                f"{described.wall:.3f} / {against.wall:.3f} s = {ratio:.2f}x", "<= 3x", ratio <= 3)
        add("describe of the whole file, peak RSS", f"{described.peak_rss_mib:.1f} MiB",
            "<= 100 MiB", described.peak_rss_mib <= 100)
        # Past 10,000 distinct values a column's tables are full: more records add nothing.
        add(f"describe peak RSS, --sample 0 ({whole.rows:,} rows) over --sample {part.rows:,}",
            f"{whole.peak_rss_mib:.1f} / {part.peak_rss_mib:.1f} MiB", "flat (<= 1.1x), <= 100 MiB",
            whole.peak_rss_mib <= part.peak_rss_mib * 1.1 and whole.peak_rss_mib <= 100)
        add("describe --sample 0, 100,000 columns x 10 rows (4 MB), peak RSS",
            f"{wide.peak_rss_mib:.1f} MiB", "<= 200 MiB", wide.peak_rss_mib <= 200)
    # Issue 26: a column with a check costs at most 15% over the same column without one.
    if counts:
        ratio = counts["checks on"] / counts["checks off"]
        add("card + date with checks over without: instructions per row",
            f"{counts['checks on']:,.0f} / {counts['checks off']:,.0f} = {ratio:.3f}x", "<= 1.15x",
            ratio <= 1.15)
    off, on = m["checks"]
    ratio = on.wall / off.wall
    add("card + date with checks over without: median wall, --jobs 1",
        f"{on.wall:.3f} / {off.wall:.3f} s = {ratio:.3f}x", "<= 1.15x", ratio <= 1.15)
    zst = m["from zst"].wall / m["csv default"].wall
    add("reading .csv.zst over the plain CSV (default jobs)", f"{zst:.2f}x", "<= 1.20x", zst <= 1.2)
    gz = m["from gz"].wall / m["gzip -dc"].wall
    add("reading .csv.gz over gzip -dc of the same file", f"{gz:.2f}x", "<= 1.20x", gz <= 1.2)
    # Issue 32: gzip inflated by ISA-L, ahead of the workers on a thread of its own.
    if m["inflate speeds"]:
        zlib, igzip = m["inflate speeds"]
        add("gzip inflate, one core: ISA-L igzip over zlib (bench/inflate.c)",
            f"{igzip:.0f} / {zlib:.0f} MB/s = {igzip / zlib:.2f}x", "(measured)", None)
    gz_plain = m["from gz"].wall / m["csv default"].wall
    add("reading .csv.gz over the plain CSV (default jobs)",
        f"{m['from gz'].wall:.3f} / {m['csv default'].wall:.3f} s = {gz_plain:.2f}x", "<= 1.20x",
        gz_plain <= 1.2)
    if m["inflate speeds"]:
        # What no reader of one gzip stream can beat here, when it and the plain run use the
        # cores equally well: the stream is inflated on one core at igzip's speed, and the
        # plain run's CPU is spent as well, so the ratio is at least the CPU both take over the
        # plain run's CPU (or, with many cores, the inflate alone over the plain run's share).
        plain = m["csv default"]
        cores = os.cpu_count() or 1
        inflate_s = plain.input.stat().st_size / 1e6 / m["inflate speeds"][1]
        least = max(cores * inflate_s, plain.cpu + inflate_s) / plain.cpu
        add("reading .csv.gz over the plain CSV: the least one stream allows, max(cores x inflate,"
            " plain CPU + inflate) over plain CPU",
            f"max({cores} x {inflate_s:.3f}, {plain.cpu:.3f} + {inflate_s:.3f}) / {plain.cpu:.3f} s"
            f" = {least:.2f}x", "(bound)", None)
    zlib_run = m["from gz zlib"].wall / m["from gz"].wall
    add("reading .csv.gz inflated by zlib over by igzip (default jobs)",
        f"{m['from gz zlib'].wall:.3f} / {m['from gz'].wall:.3f} s = {zlib_run:.2f}x", "(measured)", None)
    utf8_run, latin_run, one_file, forty, one_run, forty_run, flat_json, nested_json = m["inputs"]
    speed = utf8_run.wall / latin_run.wall
    add("Windows-1252 speed over the same text in UTF-8 (median wall)",
        f"{utf8_run.wall:.3f} / {latin_run.wall:.3f} s = {speed:.2f}x", ">= 0.50x", speed >= 0.5)
    for one, many, what in ((one_file, forty, "check"), (one_run, forty_run, "run")):
        ratio = many.wall / one.wall
        add(f"{what}: 40 files of {one.rows // 40:,} rows over 1 file of {one.rows:,}",
            f"{many.wall:.3f} / {one.wall:.3f} s = {ratio:.2f}x", "<= 1.20x", ratio <= 1.2)
    ratio = nested_json.wall / flat_json.wall
    add("NDJSON with two masked keys under \"contact\" over the flat NDJSON (median wall)",
        f"{nested_json.wall:.3f} / {flat_json.wall:.3f} s = {ratio:.2f}x", "(measured)", None)
    if m["cores"] >= 2:
        scale = m["to zst 1"].wall / m["to zst"].wall
        add(f"writing .zst: --jobs 1 over default jobs ({m['cores']} cores)", f"{scale:.2f}x",
            ">= 1.60x", scale >= 1.6)
    return rows


def targets_table(rows):
    marks = {True: "met", False: "**not met**", None: "-"}
    lines = ["| target | this run | goal | |", "| --- | ---: | --- | --- |"]
    lines += [f"| {t.name} | {t.figure} | {t.goal} | {marks[t.met]} |" for t in rows]
    return "\n".join(lines)


def output_bytes(maskclean, data, data_dir):
    """The size of the CSV run's output, for dd to write as many bytes."""
    out = data_dir / "out.csv"
    subprocess.run([str(maskclean), "run", str(SPEC), str(data.csv), "-o", str(out), "--quiet"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return out.stat().st_size


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
    parser.add_argument("--limit", type=int, default=60,
                        help="seconds after which a long-format run is stopped (default 60)")
    parser.add_argument("--no-instructions", dest="instructions", action="store_false",
                        help="skip the callgrind instruction counts")
    parser.add_argument("--jobs-sweep", metavar="J,J,...",
                        help="run only the jobs sweep, at these --jobs values (e.g. 1,2,4,8,16)")
    parser.add_argument("--copies", type=int, default=1,
                        help="for the sweep: the data this many times over in one file (default 1)")
    args = parser.parse_args(argv)
    if args.rows < 1 or args.repeat < 1 or (args.big_rows is not None and args.big_rows < 1):
        parser.error("--rows, --repeat and --big-rows must be 1 or more")
    if args.jobs_sweep is not None:
        try:
            args.jobs_sweep = [int(value) for value in args.jobs_sweep.split(",")]
        except ValueError:
            parser.error("--jobs-sweep takes whole numbers separated by commas: 1,2,4,8,16")
        if not args.jobs_sweep or min(args.jobs_sweep) < 1 or args.copies < 1:
            parser.error("--jobs-sweep values and --copies must be 1 or more")
    return args


# ----------------------------------------------------------------------------- jobs sweep


def sweep_inputs(data, copies):
    """The CSV (one header), the NDJSON and the CSV gzipped, each `copies` times over, in
    /dev/shm when it has room for them (else beside the data): what a 16-core run reads from
    memory."""
    shm = Path("/dev/shm")
    size = (data.csv.stat().st_size + data.ndjson.stat().st_size) * copies * 1.4
    folder = shm / "maskclean-sweep" if shm.is_dir() and shutil.disk_usage(shm).free > size \
        else data.csv.parent / "sweep"
    folder.mkdir(parents=True, exist_ok=True)
    csv_path = folder / f"sweep-{data.rows}x{copies}.csv"
    ndjson_path = folder / f"sweep-{data.rows}x{copies}.ndjson"
    gz_path = folder / f"sweep-{data.rows}x{copies}.csv.gz"
    if not gz_path.exists():
        log(f"writing the sweep's inputs ({copies}x) into {folder} ...")
        body = data.csv.read_bytes()
        header_end = body.index(b"\n") + 1
        with open(csv_path, "wb") as out:
            out.write(body)
            for _ in range(copies - 1):
                out.write(memoryview(body)[header_end:])
        lines = data.ndjson.read_bytes()
        with open(ndjson_path, "wb") as out:
            for _ in range(copies):
                out.write(lines)
        with open(gz_path, "wb") as out:
            subprocess.run(["gzip", "-c", str(csv_path)], stdout=out, check=True)
    return folder, {"csv": csv_path, "ndjson": ndjson_path, "csv.gz": gz_path}


def jobs_sweep(args, maskclean, gnu_time, data):
    folder, inputs = sweep_inputs(data, args.copies)
    warm_page_cache(*inputs.values())
    rows = data.rows * args.copies
    cases = {}
    for kind, path in inputs.items():
        for jobs in args.jobs_sweep:
            cases[(kind, jobs)] = Case(
                f"{kind}, --jobs {jobs}",
                [str(maskclean), "run", str(SPEC), str(path), "-o", os.devnull, "--quiet",
                 "--jobs", str(jobs), "--pipeline-times"], path, rows)
    # The machine's own ceiling: J runs of the CSV at --jobs 1 side by side share nothing but
    # the machine (its memory, caches, and the clock its cores slow to when all are busy, or
    # that two hardware threads of one core share), so their speed-up is the most a run with J
    # workers could reach there.
    one_job = [str(maskclean), "run", str(SPEC), str(inputs["csv"]), "-o", os.devnull, "--quiet",
               "--jobs", "1"]
    side_by_side = ('pids=; for i in $(seq "$1"); do "$@" & pids="$pids $!"; done; '
                    'status=0; for pid in $pids; do wait "$pid" || status=$?; done; exit "$status"')
    for jobs in args.jobs_sweep:
        cases[("side by side", jobs)] = Case(
            f"{jobs} runs at --jobs 1 side by side",
            ["sh", "-c", side_by_side.replace('"$@"', " ".join(map(shlex.quote, one_job))), "sh",
             str(jobs)], inputs["csv"], rows * jobs)
    run_cases(list(cases.values()), args.repeat, gnu_time)
    cores = len(os.sched_getaffinity(0))
    print(f"## maskclean jobs sweep: {rows:,} rows ({data.rows:,} x {args.copies}), "
          f"medians of {args.repeat} runs taking turns, {cores} cores\n")
    print(f"Inputs in {folder}: " + ", ".join(
        f"{kind} {path.stat().st_size / 1e6:.0f} MB" for kind, path in inputs.items()) + "\n")
    for kind in inputs:
        base = cases[(kind, args.jobs_sweep[0])]
        print(f"### {kind}\n")
        print("| jobs | wall s | speed-up | CPU s | CPU / CPU at "
              f"{args.jobs_sweep[0]} job{'s' if args.jobs_sweep[0] > 1 else ''} | MB/s | peak RSS MiB "
              "| serial CPU s | serial fraction |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for jobs in args.jobs_sweep:
            case = cases[(kind, jobs)]
            mbs = inputs[kind].stat().st_size / 1e6 / case.wall
            serial = statistics.median(case.serials) if case.serials else float("nan")
            print(f"| {jobs} | {case.wall:.3f} | {base.wall / case.wall:.2f} | {case.cpu:.3f} | "
                  f"{case.cpu / base.cpu:.2f} | {mbs:.0f} | {case.peak_rss_mib:.1f} | "
                  f"{serial:.3f} | {serial / case.cpu:.2%} |")
        print()
    alone = cases[("side by side", args.jobs_sweep[0])]
    ours = cases[("csv", args.jobs_sweep[0])]
    print("### the machine's ceiling: J runs of the CSV at --jobs 1 side by side\n")
    print("| J | wall s | their speed-up | CPU / (J x CPU of one) | CSV speed-up at --jobs J "
          "| share of the ceiling |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for jobs in args.jobs_sweep:
        case = cases[("side by side", jobs)]
        # Speed-ups against the first sweep value's runs, as in the tables above.
        ceiling = (case.rows / alone.rows) * alone.wall / case.wall
        reached = ours.wall / cases[("csv", jobs)].wall
        print(f"| {jobs} | {case.wall:.3f} | {ceiling:.2f} | "
              f"{case.cpu / (alone.cpu * case.rows / alone.rows):.2f} | {reached:.2f} | "
              f"{reached / ceiling:.0%} |")
    print()
    print("Their speed-up: J times the work in the wall time one run of it takes alone (the "
          "first sweep value's runs); no run with J workers can beat it on this machine. Where "
          "their CPU grows with J, the cores slow when all are busy (a lower all-core clock, "
          "hardware threads sharing a core, memory), and the speed-up targets are read against "
          "this ceiling.\n")
    print("Serial: CPU time where no other worker can run (reading a chunk under the reader's "
          "lock, writing results in input order, the main thread outside the workers), as "
          "maskclean --pipeline-times counts it; its share of all CPU time bounds the speed-up "
          "on many cores (Amdahl's law: 1% allows about 14x at 16).")
    return 0


def main(argv=None):
    args = parse_args(argv)
    try:
        maskclean = resolve_maskclean(args.maskclean)
        # The sweep runs on bare machines too: without GNU time, wait4 gives the same figures.
        gnu_time = find_gnu_time() if not args.jobs_sweep or shutil.which("time") else None
        args.data_dir.mkdir(parents=True, exist_ok=True)
        data_dir = args.data_dir.resolve()
        floor_binary = None if args.jobs_sweep else build_floor(data_dir)
        data = ensure_dataset(data_dir, args.rows)
        warm_page_cache(data.csv, data.ndjson)
        load = warn_if_busy()
        if args.jobs_sweep:
            return jobs_sweep(args, maskclean, gnu_time, data)

        floor = Case("floor (C, libcsv parse + write)", [str(floor_binary), str(data.csv)],
                     data.csv, data.rows, masks=False)
        jobs1 = maskclean_case("maskclean csv, --jobs 1", maskclean, data_dir, data.csv,
                               data.rows, jobs=1)
        default = maskclean_case("maskclean csv, default jobs", maskclean, data_dir, data.csv,
                                 data.rows)
        to_file = maskclean_case("maskclean csv, default jobs, to a file", maskclean, data_dir,
                                 data.csv, data.rows, to_file=True)
        # What the disk itself takes to write and fsync as many bytes: the part of "to a file"
        # that no program can avoid.
        mib = -(-output_bytes(maskclean, data, data_dir) // (1 << 20))
        dd = Case(f"dd, {mib} MiB (the CSV output's size) + fsync",
                  ["dd", "if=/dev/zero", f"of={data_dir / 'dd.out'}", "bs=1M", f"count={mib}",
                   "conv=fsync", "status=none"], None, 0, masks=False)
        ndjson1 = maskclean_case("maskclean ndjson, --jobs 1", maskclean, data_dir, data.ndjson,
                                 data.rows, jobs=1)
        ndjson = maskclean_case("maskclean ndjson, default jobs", maskclean, data_dir,
                                data.ndjson, data.rows)
        # The same records with bare CR line ends: cut into chunks at CRs, in linear time.
        bare_cr = maskclean_case("maskclean csv, bare CR line ends, default jobs", maskclean,
                                 data_dir, bare_cr_copy(data), data.rows)
        cases = [floor, jobs1, default, to_file, dd, ndjson1, ndjson, bare_cr]
        run_cases(cases, args.repeat, gnu_time)
        checked = check_cases(maskclean, data)
        run_cases(checked, args.repeat, gnu_time)

        # Compressed exports in and out (issue 15), against the decompressors' own speed.
        copies = compressed_copies(data)
        warm_page_cache(*copies.values())
        gunzip = Case("gzip -dc (zlib's one-stream inflate), to /dev/null",
                      ["gzip", "-dc", str(copies["gzip"])], copies["gzip"], data.rows, masks=False)
        unzstd = Case("zstd -dc, to /dev/null", ["zstd", "-dcq", str(copies["zstd"])], copies["zstd"],
                      data.rows, masks=False)
        from_gz = maskclean_case("maskclean csv.gz in, default jobs", maskclean, data_dir,
                                 copies["gzip"], data.rows)
        from_gz_zlib = maskclean_case("maskclean csv.gz in, inflated by zlib, default jobs", maskclean,
                                      data_dir, copies["gzip"], data.rows)
        from_gz_zlib.argv += ["--inflate", "zlib"]
        from_zst = maskclean_case("maskclean csv.zst in, default jobs", maskclean, data_dir,
                                  copies["zstd"], data.rows)

        def compressed_out(label, suffix, jobs=None):
            argv = [str(maskclean), "run", str(SPEC), str(data.csv), "-o",
                    str(data_dir / f"out.csv{suffix}"), "--quiet"]
            return Case(label, argv + (["--jobs", str(jobs)] if jobs else []), data.csv, data.rows)

        to_zst1 = compressed_out("maskclean csv to .zst, --jobs 1", ".zst", jobs=1)
        to_zst = compressed_out("maskclean csv to .zst, default jobs", ".zst")
        to_gz = compressed_out("maskclean csv to .gz, default jobs", ".gz")
        compressed = [gunzip, from_gz, from_gz_zlib, unzstd, from_zst, to_zst1, to_zst, to_gz]
        run_cases(compressed, args.repeat, gnu_time)

        # The inputs real exports are (issue 31): another encoding, many files.
        inputs = input_copies(data)
        warm_page_cache(inputs["cp1252"], inputs["cp1252 as utf-8"], inputs["whole"], inputs["nested"],
                        *sorted(inputs["parts"].iterdir()))
        utf8_run = Case("maskclean csv, UTF-8, default jobs",
                        [str(maskclean), "run", str(SPEC), str(inputs["cp1252 as utf-8"]), "-o",
                         os.devnull, "--quiet"], inputs["cp1252 as utf-8"], data.rows)
        latin_run = Case("maskclean csv, the same text in Windows-1252 (--encoding windows-1252)",
                         [str(maskclean), "run", str(SPEC), str(inputs["cp1252"]), "-o", os.devnull,
                          "--quiet", "--encoding", "windows-1252"], inputs["cp1252"], data.rows)
        one_file = Case("maskclean check, 1 file", [str(maskclean), "check", str(SPEC),
                        str(inputs["whole"]), "--quiet"], inputs["whole"], data.rows)
        forty = Case("maskclean check, the same records in 40 files (a directory)",
                     [str(maskclean), "check", str(SPEC), str(inputs["parts"]), "--quiet"],
                     inputs["whole"], data.rows)
        one_run = Case("maskclean run, 1 file, to a file",
                       [str(maskclean), "run", str(SPEC), str(inputs["whole"]), "-o",
                        str(data_dir / "whole-out.csv"), "--quiet"], inputs["whole"], data.rows)
        forty_run = Case("maskclean run, 40 files, to a directory",
                         [str(maskclean), "run", str(SPEC), str(inputs["parts"]), "-o",
                          str(data_dir / "parts-out") + "/", "--quiet"], inputs["whole"], data.rows)
        flat_json = Case("maskclean ndjson to ndjson, default jobs",
                         [str(maskclean), "run", str(SPEC), str(data.ndjson), "-o", os.devnull,
                          "--output-format", "ndjson", "--quiet"], data.ndjson, data.rows)
        nested_json = Case("maskclean ndjson, phone and zip under contact (bench/spec-nested.json)",
                           [str(maskclean), "run", str(SPEC.with_name("spec-nested.json")),
                            str(inputs["nested"]), "-o", os.devnull, "--output-format", "ndjson",
                            "--quiet"], inputs["nested"], data.rows)
        input_cases = [utf8_run, latin_run, one_file, forty, one_run, forty_run, flat_json,
                       nested_json]
        run_cases(input_cases, args.repeat, gnu_time)

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

        log("long formats and many formats on short values")
        long_formats = [(case, run_with_limit(case, gnu_time, args.limit) is not None)
                        for case in long_format_cases(maskclean, data_dir)]
        log("describe of the whole file against check, in turns")
        against = describe_against_check(maskclean, data_dir, data)
        run_cases(against, 3, gnu_time)
        log("describe, --head, --sample and --sample 0")
        described = describe_cases(maskclean, data_dir, data)
        run_cases(described, 1, gnu_time)
        instructions = instruction_counts(maskclean, data_dir) if args.instructions else None
    except BenchError as error:
        print(f"bench: {error}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as error:
        print(f"bench: {error}", file=sys.stderr)
        return 1

    cores = len(os.sched_getaffinity(0))
    print(header(data, args.repeat, maskclean, cores, load))
    print(results_table(cases + compressed, floor, masked_column_count()))
    print("\n### Column checks (bench/checks-off.json against bench/checks-on.json)\n")
    print(results_table(checked, floor, 2))
    print("\n### Inputs as they come (issue 31)\n")
    print(results_table(input_cases, floor, masked_column_count()))
    print("\nx floor: median wall time / the floor's median wall time on the CSV file. "
          "CPU s: user + system time, median.\n")
    if big_cases:
        print("### Peak memory against file size\n")
        print(big_table([default, ndjson], big_cases))
        print()
    print("### Long formats and many formats on short values (one run each)\n")
    print("| what | wall s | peak RSS MiB |\n| --- | ---: | ---: |")
    for case, finished in long_formats:
        if finished:
            print(f"| {case.label} | {case.wall:.3f} | {case.peak_rss_mib:.1f} |")
        else:
            print(f"| {case.label} | stopped after {args.limit} s | - |")
    print("\n### describe: counts, not cells (one run each)\n")
    print(describe_table(described))
    print("\n### describe of the whole file against check (medians of 3, in turns)\n")
    print(describe_table(against))
    measured = {
        "describe": described, "describe against check": against,
        "floor": floor, "csv jobs 1": jobs1, "csv default": default, "csv to file": to_file,
        "dd": dd, "ndjson jobs 1": ndjson1, "ndjson default": ndjson, "cores": cores,
        "maskclean cases": [c for c in cases if c.masks] + big_cases, "big": big_cases,
        "long formats": long_formats, "instructions": instructions,
        "gzip -dc": gunzip, "from gz": from_gz, "from gz zlib": from_gz_zlib,
        "inflate speeds": inflate_speeds(data_dir, copies["gzip"]), "from zst": from_zst, "to zst 1": to_zst1,
        "to zst": to_zst, "checks": checked, "inputs": input_cases,
    }
    print("\n### Targets (issues 14, 15, 24, 26, 28 and 31)\n")
    print(targets_table(targets(measured)))
    print("\nThe engine's applies/s targets (>= 15 M/s ASCII phone, >= 5 M/s three-format affine "
          "phone, p50) are the Benchmarks/ table that make bench prints next; orjson and the "
          "peers are make bench-peers.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
