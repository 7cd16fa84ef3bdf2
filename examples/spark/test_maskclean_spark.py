#!/usr/bin/env python3
"""`make test-spark`: maskclean on a real Spark gives exactly what one maskclean run gives.

    .build/spark-venv/bin/python examples/spark/test_maskclean_spark.py --maskclean BIN [--rows N]

Each case runs examples/spark/maskclean_spark.py (local[2], 8 partitions unless said) on messy rows
made by bench/generate.py, runs `maskclean run` once over the same whole file, and compares: the
cleaned records byte for byte (by id), the merged report against the single run's (every count,
ratio, format count, pass/fail, and the samples' rows and values), the quarantine, and the exit
status. The README's split + xargs + merge recipe is run too. Plain asserts; the last line says
how many cases passed and failed.
"""

import argparse
import csv
import glob
import gzip
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.normpath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(HERE, "maskclean_spark.py")
SPEC = os.path.join(HERE, "spec.json")
GENERATOR = os.path.join(PROJECT, "bench", "generate.py")
README = os.path.join(PROJECT, "README.md")


class Context:
    def __init__(self, options):
        self.maskclean = os.path.abspath(options.maskclean)
        self.rows = options.rows
        self.partitions = options.partitions
        self.master = options.master
        self.work = os.path.abspath(options.work)
        self.python = sys.executable
        self._data = None

    def path(self, *names):
        return os.path.join(self.work, *names)

    def data(self):
        """The generated rows (NDJSON), made once per test run."""
        if self._data is None:
            prefix = self.path("rows")
            subprocess.run([sys.executable, GENERATOR, str(self.rows), prefix], check=True)
            self._data = prefix + ".ndjson"
        return self._data

    def single_run(self, spec, data, name, *extra):
        """One `maskclean run` over the whole file: (status, records, report, stderr)."""
        output = self.path(name + ".single.out")
        report = self.path(name + ".single.json")
        result = subprocess.run([self.maskclean, "run", spec, data, "-o", output, "--report", report, "--quiet",
                                 *extra], capture_output=True)
        records = read_bytes(output) if os.path.exists(output) else None
        parsed = load_json(report) if os.path.exists(report) else None
        if result.returncode not in (0, 1):
            # A run that stops writes a report saying why (docs/report.md#a-run-that-stopped),
            # which is no export's report to compare with.
            assert parsed is None or (parsed.get("error") or {}).get("status") == result.returncode, (
                "a failed run's report does not say why it stopped")
            parsed = None
        return result.returncode, records, parsed, result.stderr.decode("utf-8", "replace")

    def spark_run(self, spec, data, name, *extra, partitions=None, submit=False):
        """maskclean_spark.py on `data`: (status, OUTDIR's part files' records in order, report, output, parts)."""
        outdir = self.path(name + ".spark-out")
        report = self.path(name + ".spark.json")
        partitions = self.partitions if partitions is None else partitions
        arguments = [spec, data, outdir, "--report", report, "--partitions", str(partitions), *extra]
        environment = dict(os.environ, MASKCLEAN=self.maskclean, PYSPARK_PYTHON=self.python)
        if submit:
            command = [os.path.join(os.path.dirname(self.python), "spark-submit"), "--master", self.master,
                       SCRIPT, *arguments]
        else:
            command = [self.python, SCRIPT, *arguments, "--master", self.master]
        started = time.monotonic()
        # spark-submit sends the Python driver's stderr to its stdout: read both, as a person would.
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=environment)
        stderr = result.stdout.decode("utf-8", "replace")
        with open(self.path(name + ".spark.log"), "w") as file:
            file.write(stderr)
        log(f"    {'spark-submit' if submit else 'python3'} maskclean_spark.py ({name}): "
            f"exit {result.returncode} in {time.monotonic() - started:.1f} s")
        parts = sorted(glob.glob(os.path.join(outdir, "part-*")))
        records = b"".join(read_bytes(part) for part in parts) if os.path.exists(outdir) else None
        parsed = load_json(report) if os.path.exists(report) else None
        return result.returncode, records, parsed, stderr, parts


def log(message):
    print(message, flush=True)


def read_bytes(path):
    with open(path, "rb") as file:
        return file.read()


def load_json(path):
    with open(path, "rb") as file:
        return json.load(file)


def reset(context, name):
    for path in glob.glob(context.path(name + ".*")):
        if os.path.isdir(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)


# Comparing ---------------------------------------------------------------------------------------

def ndjson_by_id(records, what):
    """{id: the record's bytes} for NDJSON records, in order, asserting every line is a record."""
    by_id = {}
    for line in records.split(b"\n")[:-1] if records.endswith(b"\n") else records.split(b"\n"):
        identifier = json.loads(line)["id"]
        assert identifier not in by_id, f"{what}: id {identifier} appears twice"
        by_id[identifier] = line
    return by_id


def assert_same_records(spark, single, key, what):
    """Every record of the single run, byte for byte, compared by `key` (id), and in the same order."""
    assert spark is not None, f"{what}: the Spark job wrote no OUTDIR"
    spark_records, single_records = key(spark, "Spark"), key(single, "single run")
    missing = [k for k in single_records if k not in spark_records]
    extra = [k for k in spark_records if k not in single_records]
    assert not missing, f"{what}: {len(missing)} records of the single run missing from Spark's, e.g. id {missing[:3]}"
    assert not extra, f"{what}: {len(extra)} records in Spark's output that the single run has not, e.g. {extra[:3]}"
    for identifier, record in single_records.items():
        assert spark_records[identifier] == record, (
            f"{what}: record id {identifier} differs:\n  single run: {record!r}\n  Spark:      {spark_records[identifier]!r}")
    assert list(spark_records) == list(single_records), f"{what}: the records are the same but not in input order"
    assert spark == single, f"{what}: the same records, but the bytes differ (line ends?)"


def differences(expected, actual, path="report"):
    """Every place where two JSON values differ, as readable lines."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        found = []
        for key in expected.keys() | actual.keys():
            if key not in actual:
                found.append(f"{path}.{key}: missing from the merged report (single run: {expected[key]!r})")
            elif key not in expected:
                found.append(f"{path}.{key}: only in the merged report ({actual[key]!r})")
            else:
                found += differences(expected[key], actual[key], f"{path}.{key}")
        return found
    if isinstance(expected, list) and isinstance(actual, list):
        found = [f"{path}: {len(expected)} entries in the single run, {len(actual)} merged"] \
            if len(expected) != len(actual) else []
        for index, (one, other) in enumerate(zip(expected, actual)):
            found += differences(one, other, f"{path}[{index}]")
        return found
    if type(expected) is not type(actual) or expected != actual:
        return [f"{path}: single run {expected!r}, merged {actual!r}"]
    return []


def part_of_row(parts, row):
    for part in parts:
        if part["firstRow"] <= row < part["firstRow"] + part["rows"]:
            return part["part"]
    raise AssertionError(f"row {row} is in no partition of the merged report's parts {parts}")


def assert_same_report(single, merged, what, rejected_lines=None):
    """The merged report is the single run's: every key, samples' rows and values included.

    Only what partitions add may differ: `parts` (checked to tile the rows), each sample's `part`
    (checked to be the partition holding its row), and rejected samples' `line`, which count within
    their partition (checked against `rejected_lines`, the single run's line of each)."""
    assert merged is not None, f"{what}: no merged report was written"
    merged = json.loads(json.dumps(merged))
    single = json.loads(json.dumps(single))
    parts = merged.pop("parts", None)
    assert isinstance(parts, list) and parts, f"{what}: the merged report has no parts list"
    single.pop("parts", None)
    # Where each report came from and when (docs/report.md#where-a-report-came-from): the merge's
    # input is --input, its partitions read standard input, and each ran at its own time.
    for key in ("input", "inputBytes", "spec", "started", "durationSeconds"):
        single.pop(key, None)
        merged.pop(key, None)
    # A merge adds up each partition's ten most common shapes (docs/report.md#shapes): a merged
    # count is at most the single run's, never more.
    for one, other in zip(single["columns"], merged["columns"]):
        whole, summed = one.pop("shapes", {}), other.pop("shapes", {})
        for status, shapes in summed.items():
            counts = {shape["shape"]: shape["count"] for shape in whole.get(status, [])}
            for shape in shapes:
                if shape["shape"] in counts:
                    assert shape["count"] <= counts[shape["shape"]], (
                        f"{what}: column {one['name']}'s {status} shape {shape['shape']!r} merged to "
                        f"{shape['count']} cells, more than the single run's {counts[shape['shape']]}")
    row = 1
    for part in parts:
        assert part["firstRow"] == row, f"{what}: partition {part['part']} starts at row {part['firstRow']}, not {row}"
        row += part["rows"]
    assert row - 1 == single["rows"], f"{what}: the parts hold {row - 1} rows, the single run read {single['rows']}"
    assert single.get("specFingerprint") == merged.get("specFingerprint"), f"{what}: another spec fingerprint"
    for column in merged["columns"]:
        for status, samples in column["samples"].items():
            for sample in samples:
                holder = part_of_row(parts, sample["row"])
                assert sample.pop("part", None) == holder, (
                    f"{what}: column {column['name']}'s {status} sample of row {sample['row']} names another "
                    f"partition than {holder}, which holds that row")
    for column in single["columns"]:
        for samples in column["samples"].values():
            for sample in samples:
                sample.pop("part", None)
    merged_rejected = merged["rejected"].pop("samples")
    single_rejected = single["rejected"].pop("samples")
    assert len(merged_rejected) == len(single_rejected), (
        f"{what}: {len(merged_rejected)} rejected samples merged, {len(single_rejected)} in the single run")
    for one, other in zip(single_rejected, merged_rejected):
        assert other["reason"] == one["reason"], f"{what}: rejected sample {other} vs the single run's {one}"
        first = next(part["firstRow"] for part in parts if part["part"] == other.get("part"))
        assert first + other["line"] - 1 == one["line"], (
            f"{what}: the rejected sample at line {other['line']} of partition {other.get('part')} is not the single "
            f"run's line {one['line']}")
        if rejected_lines is not None:
            assert one["line"] in rejected_lines, f"{what}: line {one['line']} rejected, expected {rejected_lines}"
    found = differences(single, merged)
    assert not found, f"{what}: the merged report differs from the single run's:\n  " + "\n  ".join(found[:20])


def samples_span(report):
    """The partitions the report's samples come from: proof that merging samples was exercised."""
    return {sample.get("part") for column in report["columns"] for samples in column["samples"].values()
            for sample in samples}


# Cases -------------------------------------------------------------------------------------------

def case_ndjson_equals_one_run(context):
    """200,000 generated rows, 8 partitions: the records and report of one run, the same exit status."""
    reset(context, "clean")
    data = context.data()
    single_status, single_records, single_report, _ = context.single_run(SPEC, data, "clean")
    status, records, report, stderr, parts = context.spark_run(SPEC, data, "clean")
    assert status == single_status, f"Spark exited {status}, one run {single_status}:\n{stderr[-3000:]}"
    assert single_status == 0, f"the example spec should pass on the generated rows (exit {single_status})"
    assert len(parts) == context.partitions, f"{len(parts)} part files in OUTDIR, not {context.partitions}"
    assert_same_records(records, single_records, ndjson_by_id, "clean NDJSON")
    assert_same_report(single_report, report, "clean NDJSON")
    assert len(report["parts"]) == context.partitions, f"{len(report['parts'])} partial reports merged"
    spanned = samples_span(report)
    assert len(spanned) >= 4, f"the samples come from partitions {sorted(spanned)} only: merging them is untested"
    assert "WARN" in stderr and "passed" in stderr, f"merge printed no summary:\n{stderr[-2000:]}"


def malformed_data(context):
    """The generated rows with two bad records, in partitions 2 and 5 of 8: a truncated object,
    and one whose name holds invalid UTF-8 (quarantined byte for byte)."""
    path = context.path("malformed.ndjson")
    lines = read_bytes(context.data()).split(b"\n")
    rows = len(lines) - 1
    broken = {rows * 5 // 2 // 8: b'{"id": 900001, "name": "Cut Short", "phone": "555-12',
              rows * 11 // 2 // 8: b'{"id":900002,"name":"Jos\xe9 \xff","phone":"5551234567"}'}
    for index, line in broken.items():
        lines[index] = line
    with open(path, "wb") as file:
        file.write(b"\n".join(lines))
    return path, sorted(index + 1 for index in broken), broken


def case_malformed_quarantined(context):
    """Two partitions hold a bad record: --quarantine keeps them, rejected counts 2, the gate fails (1)."""
    reset(context, "quarantine")
    data, bad_lines, broken = malformed_data(context)
    single_quarantine = context.path("quarantine.single.bad")
    single_status, single_records, single_report, _ = context.single_run(
        SPEC, data, "quarantine", "--quarantine", single_quarantine)
    quarantine = context.path("quarantine.spark.bad")
    status, records, report, stderr, _ = context.spark_run(SPEC, data, "quarantine", "--quarantine", quarantine)
    assert single_status == 1, f"one run exited {single_status}, expected 1 (maxRejected 0)"
    assert status == 1, f"Spark exited {status}, expected 1 like one run (maxRejected 0):\n{stderr[-3000:]}"
    assert report["rejected"]["count"] == 2, f"merged rejected.count is {report['rejected']['count']}, not 2"
    assert report["passed"] is False and report["rejected"]["passed"] is False, "the merged gate did not fail"
    assert {sample["part"] for sample in report["rejected"]["samples"]} == {"00002", "00005"}, (
        f"the bad records should be in partitions 00002 and 00005: {report['rejected']['samples']}")
    assert os.path.exists(quarantine), "no quarantine file was written"
    expected = b"".join(broken[index] + b"\n" for index in sorted(broken))
    assert read_bytes(quarantine) == expected, (
        f"the quarantine holds {read_bytes(quarantine)!r}, expected the two bad records {expected!r}")
    assert read_bytes(quarantine) == read_bytes(single_quarantine), "the quarantine differs from one run's"
    assert_same_records(records, single_records, ndjson_by_id, "NDJSON with bad records")
    assert_same_report(single_report, report, "NDJSON with bad records", rejected_lines=bad_lines)


def case_malformed_fails(context):
    """Without --quarantine a bad record fails its task: exit 65 with maskclean's message, no report."""
    reset(context, "failing")
    data, bad_lines, _ = malformed_data(context)
    single_status, _, _, _ = context.single_run(SPEC, data, "failing")
    assert single_status == 65, f"one run exited {single_status} on a bad record, expected 65"
    _, _, skipped, _ = context.single_run(SPEC, data, "failing-skip", "--on-error", "skip")
    reasons = {sample["line"]: sample["reason"] for sample in skipped["rejected"]["samples"]}
    assert sorted(reasons) == bad_lines, f"one run rejected lines {sorted(reasons)}, expected {bad_lines}"
    status, _, report, stderr, _ = context.spark_run(SPEC, data, "failing", submit=True)
    assert status == 65, f"Spark exited {status}, expected maskclean's 65:\n{stderr[-3000:]}"
    assert report is None, "a failed Spark job wrote a merged report"
    # Whichever of the two partitions fails first stops the job: its message must be maskclean's.
    found = re.search(r"^maskclean_spark.py: maskclean exited with status 65 on partition (\d+) .*", stderr, re.M)
    assert found, f"no line says which partition failed and why:\n{stderr[-3000:]}"
    expected = dict(zip(("00002", "00005"), (reasons[line] for line in bad_lines)))
    assert found.group(1) in expected, f"partition {found.group(1)} failed, but the bad records are in 00002 and 00005"
    assert found.group(0).endswith(expected[found.group(1)]), (
        f"the message does not end with maskclean's reason {expected[found.group(1)]!r}: {found.group(0)}")


def case_bad_spec(context):
    """A spec maskclean refuses stops the job before Spark starts: exit 78 with its message, no output."""
    reset(context, "badspec")
    spec = context.path("badspec.json")
    with open(SPEC, "rb") as file:
        broken = json.load(file)
    broken["columns"][0]["minComplete"] = 98  # a percentage where a fraction belongs
    with open(spec, "w") as file:
        json.dump(broken, file)
    single_status, _, _, single_stderr = context.single_run(spec, context.data(), "badspec")
    status, records, report, output, _ = context.spark_run(spec, context.data(), "badspec")
    assert single_status == 78, f"one run exited {single_status} on a bad spec, expected 78"
    assert status == 78, f"Spark exited {status}, expected maskclean's 78:\n{output[-3000:]}"
    message = single_stderr.strip().splitlines()[-1]
    assert message.split(": ", 1)[-1] in output, f"maskclean's message {message!r} is not shown:\n{output[-3000:]}"
    assert records is None and report is None, "a job refused for its spec wrote records or a report"


def one_line_csv(context, rows):
    """The generated rows as CSV with one record a line (the notes' line breaks made spaces), written
    as spreadsheets write it: a UTF-8 byte-order mark and CRLF line ends, both to be kept."""
    path = context.path(f"oneline-{rows}.csv")
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    with open(context.data(), "rb") as source:
        for index, line in enumerate(source):
            if index == rows:
                break
            record = json.loads(line)
            if index == 0:
                writer.writerow(record.keys())
            writer.writerow(["" if value is None else str(value).replace("\n", " ").replace("\r", " ")
                             for value in record.values()])
    with open(path, "w", encoding="utf-8-sig", newline="") as file:
        file.write(buffer.getvalue())
    return path


def case_csv(context):
    """CSV of one record a line: the same CSV (header once, from partition 0) and report as one run;
    the generator's own CSV, whose notes hold line breaks, fails clearly (65) instead of shifting rows."""
    reset(context, "csv")
    data = one_line_csv(context, 50_000)
    single_status, single_records, single_report, _ = context.single_run(SPEC, data, "csv")
    status, records, report, stderr, _ = context.spark_run(SPEC, data, "csv", partitions=4)
    assert status == single_status, f"Spark exited {status}, one run {single_status}:\n{stderr[-3000:]}"

    def by_id(text, what):
        assert text.startswith(b"\xef\xbb\xbf"), f"{what}: the byte-order mark is lost"
        rows = list(csv.reader(io.StringIO(text.decode("utf-8-sig"), newline="")))
        assert rows[0][0] == "id", f"{what}: the output does not start with the header: {rows[0]}"
        lines = text.split(b"\n")
        assert len(lines) == len(rows) + 1, f"{what}: a cleaned record spans lines"
        assert all(line.endswith(b"\r") for line in lines[:-1]), f"{what}: not every line ends with CRLF"
        return {row[0]: line for row, line in zip(rows[1:], lines[1:])}

    assert_same_records(records, single_records, by_id, "one-line CSV")
    assert_same_report(single_report, report, "one-line CSV")

    reset(context, "multiline")
    status, _, report, stderr, _ = context.spark_run(SPEC, context.path("rows.csv"), "multiline", partitions=4)
    assert status == 65, f"a CSV with line breaks in cells should fail with 65, got {status}:\n{stderr[-3000:]}"
    assert "a record spans lines" in stderr, f"the failure does not say why:\n{stderr[-3000:]}"
    assert report is None, "a failed Spark job wrote a merged report"


def case_compressed_small(context):
    """A gzip file, which Spark cannot split: its lines are spread over 3 partitions in order."""
    reset(context, "gzip")
    data = context.path("gzip.ndjson.gz")
    lines = read_bytes(context.data()).split(b"\n")[:5000]
    lines[7:7] = [b"", b"  \t\r"]  # blank lines hold no record: rows are numbered as one run numbers them
    with gzip.open(data, "wb") as file:
        file.write(b"\n".join(lines) + b"\n")
    single_status, single_records, single_report, _ = context.single_run(SPEC, data, "gzip", "--output-format",
                                                                         "ndjson")
    status, records, report, stderr, parts = context.spark_run(SPEC, data, "gzip", partitions=3)
    assert status == single_status, f"Spark exited {status}, one run {single_status}:\n{stderr[-3000:]}"
    assert len(report["parts"]) == 3, f"{len(report['parts'])} partitions, not 3"
    assert all(part["rows"] > 1000 for part in report["parts"]), f"unevenly spread: {report['parts']}"
    assert_same_records(records, single_records, ndjson_by_id, "gzip NDJSON")
    assert_same_report(single_report, report, "gzip NDJSON")


def readme_recipe():
    """The shell block of README's "Beyond one machine" section that splits, cleans and merges."""
    text = read_bytes(README).decode("utf-8")
    section = text.split("## Beyond one machine", 1)
    assert len(section) == 2, "README.md has no 'Beyond one machine' section"
    blocks = re.findall(r"```sh\n(.*?)```", section[1].split("\n## ", 1)[0], re.S)
    recipes = [block for block in blocks if "xargs" in block and "maskclean merge" in block]
    assert len(recipes) == 1, "the section should hold one sh block with the split + xargs + merge recipe"
    return recipes[0]


def case_readme_recipe(context):
    """The README's split + xargs -P + merge recipe, as written (with smaller pieces), equals one run."""
    folder = context.path("recipe")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    recipe = readme_recipe()
    assert "rows=250000" in recipe, "the recipe should set rows=250000 (the test makes the pieces smaller)"
    os.symlink(context.data(), os.path.join(folder, "export.ndjson"))
    shutil.copy(SPEC, os.path.join(folder, "spec.json"))
    bin_folder = os.path.join(folder, "bin")
    os.makedirs(bin_folder)
    os.symlink(context.maskclean, os.path.join(bin_folder, "maskclean"))
    environment = dict(os.environ, PATH=bin_folder + os.pathsep + os.environ["PATH"])
    script = "set -e\n" + recipe.replace("rows=250000", "rows=30000")
    result = subprocess.run(["bash", "-c", script], cwd=folder, env=environment, capture_output=True)
    stderr = result.stderr.decode("utf-8", "replace")
    single_status, single_records, single_report, _ = context.single_run(SPEC, context.data(), "recipe")
    assert result.returncode == single_status, f"the recipe exited {result.returncode}, one run {single_status}:\n{stderr}"
    report = load_json(os.path.join(folder, "report.json"))
    assert len(report["parts"]) == 7, f"200,000 rows in pieces of 30,000 are 7 parts, not {len(report['parts'])}"
    assert_same_report(single_report, report, "README recipe")
    assert_same_records(read_bytes(os.path.join(folder, "clean.ndjson")), single_records, ndjson_by_id,
                        "README recipe")


CASES = [case_ndjson_equals_one_run, case_malformed_quarantined, case_malformed_fails, case_bad_spec, case_csv,
         case_compressed_small, case_readme_recipe]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maskclean", required=True, help="the binary to test (and to ship to Spark)")
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--work", default=os.path.join(PROJECT, ".build", "spark-test"))
    parser.add_argument("cases", nargs="*", help="run only these cases (names without case_)")
    options = parser.parse_args()
    os.makedirs(options.work, exist_ok=True)
    context = Context(options)
    selected = [case for case in CASES if not options.cases or case.__name__[5:] in options.cases]
    passed = failed = 0
    for case in selected:
        log(f"{case.__name__[5:]}: {case.__doc__.splitlines()[0]}")
        started = time.monotonic()
        try:
            case(context)
        except Exception:  # noqa: BLE001 -- every failure is reported, then the next case runs
            failed += 1
            log(f"  FAILED after {time.monotonic() - started:.1f} s")
            log("    " + traceback.format_exc().replace("\n", "\n    "))
        else:
            passed += 1
            log(f"  ok ({time.monotonic() - started:.1f} s)")
    log(f"test-spark: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
