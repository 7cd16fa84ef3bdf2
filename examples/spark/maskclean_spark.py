#!/usr/bin/env python3
"""Clean a large NDJSON (or CSV) export with maskclean on Spark, and merge the partitions' reports.

    spark-submit examples/spark/maskclean_spark.py SPEC INPUT OUTDIR --report FILE [options]
    python3 examples/spark/maskclean_spark.py SPEC INPUT OUTDIR --report FILE [options]

Each Spark task pipes its partition's records through the same maskclean binary
(`maskclean run SPEC - --part P --first-row R`), so that the records in OUTDIR (part-* files, one
record a line, in input order) and the merged report are exactly those of one `maskclean run` over
the whole INPUT. The steps:

1. INPUT (one file: local, hdfs://, s3a://...) is read as bytes, split at line feeds only, in
   about --partitions pieces; Spark keeps the pieces in file order. When the file cannot be cut
   into exactly that many (a small or compressed file), the lines are spread over the partitions
   by their position, keeping their order.
2. A first pass counts each partition's records as maskclean counts them (NDJSON: a line of
   spaces, tabs and CRs holds none), so that partition P can be told the number of its first
   record: --first-row R.
3. Each task (mapInArrow: Arrow batches in and out, no Python object per record but the bytes)
   feeds its lines to maskclean from a thread and streams the cleaned records back; the
   partition's report (and quarantined records) come back to the driver as data, through an
   accumulator: no shared file system is assumed and nothing is computed twice. A maskclean status
   other than 0 or 1 fails the task with maskclean's message; a report whose `rows` is not the
   count of step 2 (a CSV record cut in two by a line break inside quotes) fails it too.
4. Spark's own writer puts the records in OUTDIR, byte for byte as maskclean wrote them.
5. The driver runs `maskclean merge SPEC part-*.json --report FILE`, writes the quarantine in
   partition order, and exits with merge's status: 0, or 1 when the merged gate fails. A failed
   task exits with the maskclean status that failed it (65 for malformed input...), else 70.

The binary is $MASKCLEAN, else maskclean on PATH, else the project's portable build
(dist/maskclean-*/bin/maskclean, from `make dist`), else its release build (.build/release). It
and SPEC reach the workers through SparkContext.addFile. A worker needs no Swift toolchain with
the portable build; the release build needs the Swift runtime libraries where it runs.

CSV works when every record is one line (no line break inside a quoted cell): the header is read
from the first line and every partition runs with --no-header --columns; partition 0 writes the
header back, so that `cat OUTDIR/part-*` is one CSV. NDJSON is the recommended format.
"""

import argparse
import csv
import glob
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading

try:
    from pyspark import AccumulatorParam, SparkFiles, TaskContext
    from pyspark.sql import SparkSession
    from pyspark.sql.functions import col, expr, lit, spark_partition_id
    from pyspark.sql.types import BinaryType, StructField, StructType
except ImportError:  # --help works without it; running says what is missing
    AccumulatorParam = object
    SparkSession = None
else:
    LINE_SCHEMA = StructType([StructField("value", BinaryType(), True)])

EXIT_USAGE = 64  # sysexits, as maskclean (docs/exit-status.md)
EXIT_DATA = 65
EXIT_NO_INPUT = 66
EXIT_UNAVAILABLE = 69
EXIT_SOFTWARE = 70
EXIT_CANT_CREATE = 73

TASK_FAILURE = re.compile(r"MaskcleanTaskError: (maskclean exited with status (\d+)[^\n]*|[^\n]*)")
NDJSON_BLANKS = b" \t\r"  # what maskclean skips as white space on an NDJSON line (docs/record-formats.md)
READ_SIZE = 1 << 20
BYTE_ORDER_MARK = b"\xef\xbb\xbf"


class ScriptError(Exception):
    """A failure of this script (not of a task), with the status to exit with."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class MaskcleanTaskError(Exception):
    """Raised inside a Spark task; its text reaches the driver inside Spark's error."""


class UsageParser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: {message}\n")


def parse_arguments(argv):
    parser = UsageParser(
        prog="maskclean_spark.py",
        description="Clean INPUT with maskclean on Spark, one maskclean per partition; write the "
        "records to OUTDIR (part-* files) and the merged report to --report.",
    )
    parser.add_argument("spec", metavar="SPEC", help="the spec file, as for maskclean run")
    parser.add_argument("input", metavar="INPUT", help="one NDJSON (or CSV) file, as Spark names it")
    parser.add_argument("outdir", metavar="OUTDIR", help="where Spark writes the records (must not exist)")
    parser.add_argument("--report", required=True, metavar="FILE", help="the merged report (JSON), on the driver")
    parser.add_argument("--partitions", type=int, metavar="N", help="clean in N partitions (default: Spark's split)")
    parser.add_argument("--master", metavar="URL", help="Spark master (default: spark-submit's, else local[*])")
    parser.add_argument("--input-format", choices=("ndjson", "csv"), help="default: from INPUT's extension, else ndjson")
    parser.add_argument("--quarantine", metavar="FILE", help="write rejected records here, in input order, on the driver")
    parser.add_argument("--on-error", choices=("fail", "skip"), help="as maskclean run's (default: fail, or skip with --quarantine)")
    parser.add_argument("--junit", metavar="FILE", help="the merged report as JUnit XML")
    parser.add_argument("--markdown", metavar="FILE", help="the merged report as Markdown")
    parser.add_argument("--html", metavar="FILE", help="the merged report as an HTML page")
    parser.add_argument("--quiet", action="store_true", help="print no summary")
    args = parser.parse_args(argv)
    if args.partitions is not None and args.partitions < 1:
        parser.error("--partitions must be at least 1")
    if args.quarantine is not None and args.on_error == "fail":
        parser.error("--quarantine keeps going past bad records: it cannot go with --on-error fail")
    if args.input_format is None:
        name = re.sub(r"\.(gz|zst)$", "", args.input.lower())
        args.input_format = "csv" if name.endswith(".csv") else "ndjson"
    return args


def find_maskclean():
    """$MASKCLEAN, else maskclean on PATH, else the project's portable build, else its release build."""
    explicit = os.environ.get("MASKCLEAN")
    if explicit:
        if not (os.path.isfile(explicit) and os.access(explicit, os.X_OK)):
            raise ScriptError(EXIT_UNAVAILABLE, f"$MASKCLEAN ({explicit}) is not an executable file")
        return os.path.abspath(explicit)
    on_path = shutil.which("maskclean")
    if on_path:
        return os.path.abspath(on_path)
    project = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    candidates = sorted(glob.glob(os.path.join(project, "dist", "maskclean-*", "bin", "maskclean")), reverse=True)
    candidates.append(os.path.join(project, ".build", "release", "maskclean"))
    for candidate in candidates:
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise ScriptError(
        EXIT_UNAVAILABLE,
        "maskclean not found: set $MASKCLEAN, put it on PATH, or build it (make dist, or swift build -c release)",
    )


def holds_record(input_format, columns):
    """Whether a line (a Spark SQL column of its text, LF cut off) holds a record, as maskclean counts them."""
    if input_format == "ndjson":
        # A line of spaces, tabs and CRs holds none (docs/record-formats.md).
        return expr("trim(BOTH ' \\t\\r' FROM value) != ''")
    if len(columns) > 1:
        # A blank CSV line (nothing but its line end) holds no record when there are several columns.
        return ~col("value").isin("", "\r")
    return lit(True)


def count_records(frame, input_format, columns):
    """Each partition's records, counted by Spark SQL on the same scan the tasks read."""
    holds = holds_record(input_format, columns)
    partitions = frame.rdd.getNumPartitions()
    frame.sparkSession.conf.set("spark.sql.shuffle.partitions", "1")  # a few numbers to add up, not 200 tasks
    counted = (frame.select(spark_partition_id().alias("part"), holds.alias("holds"))
               .where(col("holds")).groupBy("part").count().collect())
    counts = [0] * partitions
    for row in counted:
        counts[row["part"]] = row["count"]
    if input_format == "csv" and counts and counts[0]:
        counts[0] -= 1  # the header is no record
    return counts


def maskclean_command(binary, spec, args, header, part, first_row, report, quarantine):
    command = [binary, "run", spec, "-", "--input-format", args.input_format, "-o", "-",
               "--report", report, "--quiet", "--jobs", "1", "--part", part, "--first-row", str(first_row)]
    if args.input_format == "csv":
        command += ["--no-header", "--columns", header]
        if part == part_id(0):
            command.append("--header")
    if quarantine is not None:
        command += ["--quarantine", quarantine]
    if args.on_error is not None:
        command += ["--on-error", args.on_error]
    return command


def part_id(index):
    """The partition's name in reports, as in Spark's file names (part-00003-...)."""
    return "%05d" % index


def make_partition_cleaner(args, binary_name, spec_name, header, byte_order_mark, counts, first_rows, collected):
    """The function mapInArrow runs: maskclean over one partition's lines, Arrow batches in and out."""
    quarantining = args.quarantine is not None
    drop_header = args.input_format == "csv"

    def clean_partition(batches):
        import pyarrow

        index = TaskContext.get().partitionId()  # the scan's partition: no shuffle comes between
        binary = SparkFiles.get(binary_name)
        mode = os.stat(binary).st_mode
        if not mode & stat.S_IXUSR:
            os.chmod(binary, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        spec = SparkFiles.get(spec_name)
        part = part_id(index)
        expected = counts[index]
        with tempfile.TemporaryDirectory(prefix="maskclean-part-") as scratch:
            report_path = os.path.join(scratch, "report.json")
            quarantine_path = os.path.join(scratch, "quarantine") if quarantining else None
            command = maskclean_command(binary, spec, args, header, part, first_rows[index], report_path,
                                        quarantine_path)
            with open(os.path.join(scratch, "stderr"), "w+b") as errors:
                process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors)
                feeder = Feeder(process.stdin, batches, drop_header=drop_header and index == 0,
                                prefix=byte_order_mark if index == 0 else b"")
                feeder.start()
                try:
                    # One record a line: cut what maskclean writes at line feeds, a batch per read.
                    pending = b""
                    while chunk := process.stdout.read1(READ_SIZE):
                        records = (pending + chunk).split(b"\n")
                        pending = records.pop()
                        if records:
                            yield pyarrow.RecordBatch.from_arrays([pyarrow.array(records, pyarrow.binary())],
                                                                  names=["value"])
                    if pending:
                        yield pyarrow.RecordBatch.from_arrays([pyarrow.array([pending], pyarrow.binary())],
                                                              names=["value"])
                    status = process.wait()
                finally:
                    if process.poll() is None:
                        process.kill()
                        process.wait()
                    feeder.join()
                errors.seek(0)
                message = errors.read().decode("utf-8", "replace").strip()
            if status not in (0, 1):
                raise MaskcleanTaskError(
                    f"maskclean exited with status {status} on partition {part} "
                    f"(records from row {first_rows[index]}): {message or 'no message'}")
            if feeder.failure is not None:
                raise feeder.failure
            with open(report_path, "rb") as file:
                report = file.read()
            rows = json.loads(report)["rows"]
            if rows != expected:
                raise MaskcleanTaskError(
                    f"maskclean exited with status {EXIT_DATA} on partition {part}: maskclean read {rows} records "
                    f"where the partition has {expected} lines holding one: a record spans lines (a CSV cell "
                    f"with a line break) or a line holds several (a bare CR in CSV). Through Spark, every "
                    f"record must be one line: NDJSON is the recommended format")
            quarantined = b""
            if quarantining:
                with open(quarantine_path, "rb") as file:
                    quarantined = file.read()
        collected.add([(index, report, quarantined)])

    return clean_partition


class Feeder(threading.Thread):
    """Writes a partition's lines (Arrow batches) to maskclean's stdin, so that its stdout is read meanwhile.

    `drop_header`: the partition's first line is the CSV header, which --columns stands for.
    `prefix`: bytes to write first (the file's byte-order mark, which maskclean keeps in its output)."""

    def __init__(self, pipe, batches, drop_header, prefix):
        super().__init__(daemon=True)
        self.pipe = pipe
        self.batches = batches
        self.drop_header = drop_header
        self.prefix = prefix
        self.failure = None

    def run(self):
        try:
            for batch in self.batches:
                lines = batch.column(0).to_pylist()
                if self.drop_header and lines:
                    self.drop_header = False
                    del lines[0]
                if lines:
                    lines[0] = self.prefix + lines[0]
                    self.prefix = b""
                    lines.append(b"")
                    self.pipe.write(b"\n".join(lines))
            self.pipe.write(self.prefix)
        except BrokenPipeError:
            pass  # maskclean stopped reading: its exit status says why
        except BaseException as failure:  # the upstream iterator failed: the task must fail with it
            self.failure = failure
        finally:
            try:
                self.pipe.close()
            except BrokenPipeError:
                pass


def spread_in_order(spark, frame, partitions):
    """The same lines in exactly `partitions` partitions, each a run of consecutive lines, in order."""
    indexed = frame.select(col("value").cast("binary")).rdd.zipWithIndex().map(lambda pair: (pair[1], pair[0][0]))
    total = max(indexed.count(), 1)
    spread = indexed.repartitionAndSortWithinPartitions(
        partitions, partitionFunc=lambda position: position * partitions // total)
    return (spark.createDataFrame(spread.map(lambda pair: (pair[1],)), LINE_SCHEMA)
            .select(col("value").cast("string").alias("value")))


def read_lines(spark, path, partitions):
    """INPUT's lines, split at line feeds only and never decoded (a string column of raw bytes), in order."""
    jvm = spark.sparkContext._jvm
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    fs = hadoop_path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    if not fs.exists(hadoop_path):
        raise ScriptError(EXIT_NO_INPUT, f"{path}: no such file")
    status = fs.getFileStatus(hadoop_path)
    if status.isDirectory():
        raise ScriptError(EXIT_USAGE, f"{path} is a folder: INPUT must be one file, read in order")
    if partitions is not None:
        # One split of about size/N bytes per partition (the text source cuts at the next line feed):
        # equal splits but the last, which Spark keeps in file order.
        split = max(1, -(-status.getLen() // partitions))
        spark.conf.set("spark.sql.files.maxPartitionBytes", str(split))
        spark.conf.set("spark.sql.files.openCostInBytes", "0")
    frame = spark.read.text(path, lineSep="\n")
    found = frame.rdd.getNumPartitions()
    wanted = partitions or max(1, found)
    return frame if found == wanted else spread_in_order(spark, frame, wanted)


def starting_byte_order_mark(spark, path):
    """The UTF-8 byte-order mark INPUT starts with (decompressed), or b"": Hadoop's line reader drops
    it, and maskclean keeps it at the start of a CSV output, so partition 0 is given it back."""
    jvm = spark.sparkContext._jvm
    configuration = spark.sparkContext._jsc.hadoopConfiguration()
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    stream = hadoop_path.getFileSystem(configuration).open(hadoop_path)
    codec = jvm.org.apache.hadoop.io.compress.CompressionCodecFactory(configuration).getCodec(hadoop_path)
    if codec is not None:
        stream = codec.createInputStream(stream)
    try:
        start = bytes(max(stream.read(), 0) for _ in range(len(BYTE_ORDER_MARK)))
    finally:
        stream.close()
    return BYTE_ORDER_MARK if start == BYTE_ORDER_MARK else b""


def csv_header(header_line):
    """The header line as --columns takes it (maskclean reads it as the header it stands for), and its names."""
    if header_line.startswith(BYTE_ORDER_MARK):
        header_line = header_line[len(BYTE_ORDER_MARK):]
    if header_line.endswith(b"\r"):
        header_line = header_line[:-1]
    try:
        text = header_line.decode("utf-8")
    except UnicodeDecodeError:
        raise ScriptError(EXIT_DATA, "the CSV header (line 1) is not valid UTF-8")
    names = next(csv.reader([text]), [])
    if not names:
        raise ScriptError(EXIT_DATA, "the CSV header (line 1) is empty")
    return text, names


def write_atomically(path, data):
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def check_binary(binary, spec, args, header):
    """Runs maskclean on no records at all on the driver: a bad spec or binary fails before Spark works."""
    with tempfile.TemporaryDirectory(prefix="maskclean-check-") as scratch:
        report = os.path.join(scratch, "report.json")
        command = maskclean_command(binary, spec, args, header, "check", 1, report,
                                    os.path.join(scratch, "quarantine") if args.quarantine else None)
        try:
            result = subprocess.run(command, input=b"", capture_output=True)
        except OSError as error:
            raise ScriptError(EXIT_UNAVAILABLE, f"{binary} does not run: {error}")
        if result.returncode not in (0, 1):
            message = result.stderr.decode("utf-8", "replace").strip()
            raise ScriptError(result.returncode, message or f"maskclean exited with status {result.returncode}")


class ListParam(AccumulatorParam):
    """An accumulator of lists: each task adds its partition's (index, report, quarantine)."""

    def zero(self, value):
        return []

    def addInPlace(self, first, second):
        first.extend(second)
        return first


def task_failure(error):
    """The status and message of a Spark job failed by a task."""
    text = str(error)
    found = TASK_FAILURE.search(text)
    if found is None:
        # Not maskclean's: the last exception a Python traceback names, else Spark's first line.
        raised = re.findall(r"^\s*([\w.]+(?:Error|Exception): .+)$", text, re.M)
        return EXIT_SOFTWARE, raised[-1] if raised else (text.strip().splitlines() or [repr(error)])[0]
    status = int(found.group(2)) if found.group(2) else EXIT_SOFTWARE
    return status, found.group(1)


def run(args):
    binary = find_maskclean()
    spec = os.path.abspath(args.spec)
    if not os.path.isfile(spec):
        raise ScriptError(EXIT_NO_INPUT, f"{args.spec}: no such spec file")
    for option in ("report", "quarantine", "junit", "markdown", "html"):
        target = getattr(args, option)
        if target is not None and not os.path.isdir(os.path.dirname(os.path.abspath(target))):
            raise ScriptError(EXIT_CANT_CREATE, f"--{option} {target}: its folder does not exist")

    if args.input_format == "ndjson":
        check_binary(binary, spec, args, None)  # a bad spec or binary fails at once, before Spark starts
    if SparkSession is None:
        raise ScriptError(EXIT_UNAVAILABLE, "PySpark is not installed: pip install 'pyspark[sql]' (Spark 4 needs Java 17)")
    try:
        import pandas  # noqa: F401 -- mapInArrow needs both, on the driver and the workers
        import pyarrow  # noqa: F401
    except ImportError as error:
        raise ScriptError(EXIT_UNAVAILABLE, f"{error.name} is not installed: pip install 'pyspark[sql]'")
    builder = SparkSession.builder.appName("maskclean").config("spark.ui.showConsoleProgress", "false")
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ  # spark-submit started the JVM and set its master
    master = args.master or (None if submitted else "local[*]")
    if master is not None:
        builder = builder.master(master)
    if not submitted and master.startswith("local") and "PYSPARK_PYTHON" not in os.environ:
        os.environ["PYSPARK_PYTHON"] = sys.executable  # local workers run this very interpreter
    spark = builder.getOrCreate()
    try:
        sc = spark.sparkContext
        sc.setLogLevel("FATAL")  # a failed task is reported below, in one line
        outdir = sc._jvm.org.apache.hadoop.fs.Path(args.outdir)
        if outdir.getFileSystem(sc._jsc.hadoopConfiguration()).exists(outdir):
            raise ScriptError(EXIT_CANT_CREATE, f"{args.outdir} already exists: Spark writes a new folder")

        frame = read_lines(spark, args.input, args.partitions)
        header, columns, bom = None, [], b""
        if args.input_format == "csv":
            bom = starting_byte_order_mark(spark, args.input)
            first = frame.select(col("value").cast("binary")).take(1)  # from partition 0, the file's start
            if not first:
                raise ScriptError(EXIT_DATA, f"{args.input}: the CSV file is empty (no header)")
            header, columns = csv_header(bytes(first[0][0]))
            check_binary(binary, spec, args, header)  # now that the columns are known

        counts = count_records(frame, args.input_format, columns)
        first_rows = [1]
        for n in counts[:-1]:
            first_rows.append(first_rows[-1] + n)

        sc.addFile(binary)
        sc.addFile(spec)
        collected = sc.accumulator([], ListParam())
        cleaner = make_partition_cleaner(args, os.path.basename(binary), os.path.basename(spec), header, bom, counts,
                                         first_rows, collected)
        cleaned = frame.select(col("value").cast("binary").alias("value")).mapInArrow(cleaner, LINE_SCHEMA)
        try:
            cleaned.select(col("value").cast("string")).write.text(args.outdir, lineSep="\n")
        except Exception as error:  # noqa: BLE001 -- Py4J and PySpark raise several kinds
            status, message = task_failure(error)
            raise ScriptError(status, message)

        by_part = {}
        for index, report, quarantined in collected.value:
            by_part[index] = (report, quarantined)  # a re-run task reports the same partition again
        if sorted(by_part) != list(range(len(counts))):
            missing = sorted(set(range(len(counts))) - set(by_part))
            raise ScriptError(EXIT_SOFTWARE, f"no report came back from partitions {missing}")
    finally:
        spark.stop()

    with tempfile.TemporaryDirectory(prefix="maskclean-reports-") as scratch:
        reports = []
        for index in sorted(by_part):
            path = os.path.join(scratch, f"part-{part_id(index)}.json")
            with open(path, "wb") as file:
                file.write(by_part[index][0])
            reports.append(path)
        command = [binary, "merge", spec, *reports, "--report", args.report, "--input", args.input]
        for option in ("junit", "markdown", "html"):
            if getattr(args, option) is not None:
                command += [f"--{option}", getattr(args, option)]
        if args.quiet:
            command.append("--quiet")
        status = subprocess.run(command).returncode
    if status not in (0, 1):
        raise ScriptError(status, f"maskclean merge exited with status {status}")
    if args.quarantine is not None:
        write_atomically(args.quarantine, b"".join(by_part[index][1] for index in sorted(by_part)))
    return status


def main(argv=None):
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    try:
        return run(args)
    except ScriptError as error:
        print(f"maskclean_spark.py: {error}", file=sys.stderr)
        return error.status


if __name__ == "__main__":
    sys.exit(main())
