#!/usr/bin/env python3
"""Builds maskclean's wheel from the staged files of `make dist` (make wheel runs it):

    wheel.py --stage dist/maskclean-VERSION-linux-ARCH --version VERSION --out dist

The wheel is `maskclean-VERSION-py3-none-manylinux_2_NN_ARCH.whl`: any Python 3, no Python ABI
(the package is a native binary and a finder for it), and as its manylinux tag (PEP 600) the
newest glibc symbol version the binary uses, as auditwheel names a wheel: built on Debian 12
(glibc 2.36), it needs 2.35, so it installs on Ubuntu 22.04 too. The tag is never newer than the
build machine's glibc. Installed, the binary is the environment's
`maskclean` script (the wheel's .data/scripts, as ruff's and uv's wheels do), the manual and the
shell completions go under the environment's share/ (.data/data), and `python -m maskclean` runs
the binary too.

Reproducible: the entries are written in a fixed order with the time SOURCE_DATE_EPOCH says (the
last commit's, from the Makefile) and fixed modes, so that the same staged files give the same
bytes. The format is the wheel binary format (PEP 427, PEP 491) with core metadata 2.4 (PEP 639
for the licence).
"""

import argparse
import base64
import hashlib
import os
import platform
import re
import subprocess
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def glibc_version() -> tuple[int, int]:
    """The C library's version on this machine: (2, 36) for glibc 2.36."""
    name = os.confstr("CS_GNU_LIBC_VERSION") or ""
    kind, _, version = name.partition(" ")
    if kind != "glibc":
        sys.exit(f"wheel.py: the C library is {name or 'unknown'}, not glibc: no manylinux tag fits")
    major, minor = version.split(".")[:2]
    return int(major), int(minor)


def glibc_needed(binary: str) -> tuple[int, int]:
    """The newest glibc symbol version `binary` asks for (GLIBC_2.35: (2, 35)), from its
    version needs as readelf lists them."""
    listing = subprocess.run(
        ["readelf", "--version-info", "--wide", binary], capture_output=True, text=True, check=True
    ).stdout
    versions = {(int(major), int(minor)) for major, minor in re.findall(r"\bGLIBC_(\d+)\.(\d+)", listing)}
    if not versions:
        sys.exit(f"wheel.py: {binary} asks for no GLIBC_ symbol version: is it a glibc binary?")
    return max(versions)


def record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def metadata(version: str, readme: str) -> str:
    return (
        "Metadata-Version: 2.4\n"
        "Name: maskclean\n"
        f"Version: {version}\n"
        "Summary: Clean and check CSV and JSON exports with input masks: formatted and extracted "
        "columns, a status per cell, and a completeness report that fails CI\n"
        "License-Expression: MIT\n"
        "License-File: LICENSE\n"
        "Requires-Python: >=3.8\n"
        "Keywords: csv,json,ndjson,data-quality,validation,etl,input-mask\n"
        "Classifier: Environment :: Console\n"
        "Classifier: Intended Audience :: Developers\n"
        "Classifier: Operating System :: POSIX :: Linux\n"
        "Classifier: Programming Language :: Swift\n"
        "Classifier: Topic :: Database\n"
        "Classifier: Topic :: Software Development :: Quality Assurance\n"
        "Description-Content-Type: text/markdown\n"
        "\n" + readme
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stage", required=True, help="the unpacked tarball's directory")
    parser.add_argument("--version", required=True)
    parser.add_argument("--out", required=True, help="where the wheel is written")
    options = parser.parse_args()

    stage, version = options.stage, options.version
    major, minor = glibc_needed(os.path.join(stage, "bin/maskclean"))
    if (major, minor) > glibc_version():
        sys.exit(f"wheel.py: the binary asks for glibc {major}.{minor}, newer than this machine's")
    tag = f"py3-none-manylinux_{major}_{minor}_{platform.machine()}"
    name = f"maskclean-{version}-{tag}.whl"
    data = f"maskclean-{version}.data"
    info = f"maskclean-{version}.dist-info"

    def staged(path: str) -> bytes:
        full = os.path.join(stage, path)
        if not os.path.isfile(full):
            sys.exit(f"wheel.py: {full} is missing (make dist stages it)")
        with open(full, "rb") as file:
            return file.read()

    def source(path: str) -> bytes:
        with open(os.path.join(HERE, path), "rb") as file:
            return file.read()

    # (path in the wheel, bytes, mode), in the order they are written; RECORD comes last.
    entries = [
        ("maskclean/__init__.py", source("python/__init__.py"), 0o644),
        ("maskclean/__main__.py", source("python/__main__.py"), 0o644),
        (f"{data}/scripts/maskclean", staged("bin/maskclean"), 0o755),
    ]
    shared = [
        "share/man/man1/maskclean.1",
        "share/bash-completion/completions/maskclean",
        "share/zsh/site-functions/_maskclean",
        "share/fish/vendor_completions.d/maskclean.fish",
    ]
    entries += [(f"{data}/data/{path}", staged(path), 0o644) for path in shared]
    readme = staged("README.md").decode("utf-8")
    entries += [
        (f"{info}/METADATA", metadata(version, readme).encode("utf-8"), 0o644),
        (
            f"{info}/WHEEL",
            (
                "Wheel-Version: 1.0\n"
                "Generator: maskclean Tools/packaging/wheel.py\n"
                "Root-Is-Purelib: false\n"
                f"Tag: {tag}\n"
            ).encode("ascii"),
            0o644,
        ),
        (f"{info}/licenses/LICENSE", staged("LICENSE"), 0o644),
    ]
    record = "".join(f"{path},{record_hash(body)},{len(body)}\n" for path, body, _ in entries)
    record += f"{info}/RECORD,,\n"
    entries.append((f"{info}/RECORD", record.encode("utf-8"), 0o644))

    # Zip times are local-time fields from 1980 on: the epoch is written as UTC, clamped.
    epoch = max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)
    stamp = time.gmtime(epoch)[:6]
    os.makedirs(options.out, exist_ok=True)
    path = os.path.join(options.out, name)
    partial = path + ".partial"
    with zipfile.ZipFile(partial, "w") as wheel:
        for entry, body, mode in entries:
            member = zipfile.ZipInfo(entry, date_time=stamp)
            member.create_system = 3  # Unix, so that the mode below is read
            member.external_attr = (0o100000 | mode) << 16
            member.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(member, body, compresslevel=9)
    os.replace(partial, path)
    print(path)


if __name__ == "__main__":
    main()
