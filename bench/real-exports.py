#!/usr/bin/env python3
"""For each real export under Fixtures/real: what describe proposes, what it leaves out and why,
and check's verdict on the whole file, for issue 28's closing note.

    python3 bench/real-exports.py [--maskclean PATH] [--keep DIR] [EXPORT ...]

EXPORT is a folder name under Fixtures/real (all of them by default). PATH is the binary
(default: .build/release/maskclean, else .build/debug/maskclean). Each export is described as a
new user would (`maskclean describe DATA -o spec.yaml`), then checked with that spec on the whole
file (`maskclean check spec.yaml DATA`); the specs are written to a temporary folder, or kept in
DIR/<export>.yaml with --keep. Prints, per export, the proposed columns (kind or formats, check,
case, defaultRegion, minComplete), the columns left out with describe's reason, describe's time,
and check's table and verdict. Exits 1 when some check fails, 0 otherwise. Standard library only;
it reads describe's YAML line by line, as describe writes it (one key a line, every string
quoted), so it needs no YAML package.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REAL = os.path.join(ROOT, "Fixtures", "real")


def data_file(export):
    folder = os.path.join(REAL, export)
    files = [f for f in sorted(os.listdir(folder))
             if f != "SOURCE" and not f.startswith("README") and not f.startswith(".")]
    if len(files) != 1:
        sys.exit(f"{folder}: expected one data file beside SOURCE, found {files}")
    return os.path.join(folder, files[0])


def unquote(text):
    text = text.strip()
    if text.startswith('"'):
        return json.loads(text)  # describe quotes strings as JSON does
    return text


def read_spec(path):
    """The proposed columns (name and keys, in order) and the left-out ones (name, reason)."""
    proposed, left_out = [], []
    column, list_key = None, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        left = re.match(r'^  # ("(?:[^"\\]|\\.)*") left out: (.*)$', line)
        if left:
            left_out.append((unquote(left.group(1)), left.group(2)))
            continue
        start = re.match(r"^  - name: (.*)$", line)
        if start:
            column = {"name": unquote(start.group(1))}
            proposed.append(column)
            list_key = None
            continue
        if column is None:
            continue
        key = re.match(r"^    (\w+):\s*(.*)$", line)
        if key:
            list_key = None
            if key.group(2):
                column[key.group(1)] = unquote(key.group(2))
            else:
                list_key = key.group(1)
                column[list_key] = []
            continue
        item = re.match(r"^      - (.*)$", line)
        if item and list_key:
            column[list_key].append(unquote(item.group(1)))
    return proposed, left_out


def describe_column(column):
    shown = []
    if "kind" in column:
        shown.append(f"kind: {column['kind']}")
        if "defaultRegion" in column:
            shown.append(f"defaultRegion: {column['defaultRegion']}")
    else:
        formats = [column.get("format", "")] + column.get("affineFormats", [])
        shown.append("formats: " + ", ".join(f'"{f}"' for f in formats))
    for key in ("check", "dateOrder", "case", "significant"):
        if key in column:
            shown.append(f"{key}: {column[key]}")
    shown.append(f"minComplete: {column.get('minComplete', '-')}")
    return f"  {column['name']}: " + "; ".join(shown)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("exports", nargs="*")
    parser.add_argument("--maskclean")
    parser.add_argument("--keep")
    arguments = parser.parse_args()
    binary = arguments.maskclean or next(
        (p for p in (os.path.join(ROOT, ".build", kind, "maskclean") for kind in ("release", "debug"))
         if os.access(p, os.X_OK)), None)
    if not binary:
        sys.exit("no maskclean binary: run swift build (or pass --maskclean PATH)")
    exports = arguments.exports or sorted(e for e in os.listdir(REAL) if not e.startswith("."))
    failed = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = arguments.keep or scratch
        os.makedirs(folder, exist_ok=True)
        for export in exports:
            data = data_file(export)
            spec = os.path.join(folder, f"{export}.yaml")
            if os.path.exists(spec):
                os.remove(spec)  # describe replaces a spec only with --force
            print(f"== {export} ({os.path.relpath(data, ROOT)})")
            started = time.monotonic()
            described = subprocess.run([binary, "describe", data, "-o", spec], capture_output=True, text=True)
            seconds = time.monotonic() - started
            if described.returncode != 0:
                print(f"describe exited {described.returncode}: {described.stderr.strip()}")
                failed.append(export)
                continue
            print(f"describe ({seconds:.1f} s): {described.stderr.strip()}")
            proposed, left_out = read_spec(spec)
            print(f"proposed ({len(proposed)}):")
            for column in proposed:
                print(describe_column(column))
            print(f"left out ({len(left_out)}):")
            for name, reason in left_out:
                print(f"  {name}: {reason}")
            checked = subprocess.run([binary, "check", spec, data], capture_output=True, text=True)
            print(f"check on the whole file (exit {checked.returncode}):")
            print("\n".join("  " + line for line in (checked.stdout + checked.stderr).rstrip().split("\n")))
            if checked.returncode != 0:
                failed.append(export)
            print()
    print("verdict: " + ("every check passed" if not failed else "failed: " + ", ".join(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
