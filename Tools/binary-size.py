#!/usr/bin/env python3
"""What the bytes of the binary that travels are, by where they come from, read from a GNU ld
map of its link (the note on issue 30 has the table this prints):

    make dist    # then link again, with a map, where make dist builds (DIST_ROOT):
    cd /tmp/maskclean-dist-build/source && swift build -c release --product maskclean \\
        --scratch-path ../build --static-swift-stdlib -Xlinker -L/tmp/maskclean-dist-build/static-libs \\
        -Xlinker -Map=/tmp/maskclean.map
    python3 Tools/binary-size.py /tmp/maskclean.map

Counts the input sections the linker kept in allocated output sections (code, constants, data,
unwind tables, Swift metadata), not the discarded ones, by component: the Swift runtime and
standard library, Foundation's parts, Dispatch, each package dependency, maskclean's own
targets, the C libraries. Stripping removes symbols and debug sections, which are not counted.
"""

import re
import sys
from collections import defaultdict

COMPONENTS = [
    (r"lib_FoundationICU\.a", "ICU (Foundation's internationalisation data and code)"),
    (r"libFoundationInternationalization\.a", "FoundationInternationalization"),
    (r"libFoundation\.a|libCoreFoundation\.a|libFoundationNetworking|libFoundationXML", "Foundation and CoreFoundation (swift-corelibs)"),
    (r"libFoundationEssentials\.a|lib_FoundationCShims|lib_FoundationCollections", "FoundationEssentials"),
    (r"libswiftCore\.a|libswiftSwiftOnoneSupport|libswift_Concurrency|libswiftSynchronization|libswiftGlibc|swiftrt\.o", "Swift runtime and standard library"),
    (r"_StringProcessing|_RegexParser|RegexBuilder", "Swift regex (_StringProcessing)"),
    (r"libdispatch\.a|libswiftDispatch\.a|libBlocksRuntime", "Dispatch"),
    (r"ArgumentParser", "swift-argument-parser"),
    (r"CCryptoBoringSSL|/Crypto\.build|CryptoBoringWrapper|SwiftASN1|_CryptoExtras|/CXKCP", "swift-crypto (BoringSSL, XKCP)"),
    (r"/Yams\.build|/CYaml\.build", "Yams (with its libyaml)"),
    (r"libyaml\.a", "libyaml"),
    (r"libmd\.a", "libmd"),
    (r"libcsv\.a", "libcsv"),
    (r"libz\.a", "zlib"),
    (r"libzstd\.a", "libzstd"),
    (r"/MaskEngine\.build", "maskclean: MaskEngine"),
    (r"/MaskClean\.build", "maskclean: MaskClean"),
    (r"/maskclean\.build", "maskclean: the executable"),
]

SECTION = re.compile(r"^ (\.\S+)(?:\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*))?$")
CONTINUED = re.compile(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$")


def component(path: str) -> str:
    for pattern, name in COMPONENTS:
        if re.search(pattern, path):
            return name
    return "C runtime start-up and the rest"


def main() -> None:
    sizes = defaultdict(int)
    in_memory_map = False
    pending = None
    with open(sys.argv[1], errors="replace") as file:
        for line in file:
            if line.startswith(("Linker script and memory map", "Memory map")):
                in_memory_map = True
                continue
            if not in_memory_map:
                continue
            match = SECTION.match(line)
            if match:
                name, address, size, path = match.groups()
                if size is None:
                    pending = name
                    continue
            else:
                continued = CONTINUED.match(line)
                if not continued or pending is None:
                    pending = None
                    continue
                name, (address, size, path) = pending, continued.groups()
            pending = None
            if name.startswith((".debug", ".comment", ".note.GNU-stack", ".gnu_debug")):
                continue
            if int(address, 16) == 0:
                continue
            sizes[component(path)] += int(size, 16)
    total = sum(sizes.values())
    print(f"| component | bytes | share |\n| --- | ---: | ---: |")
    for name, size in sorted(sizes.items(), key=lambda item: -item[1]):
        print(f"| {name} | {size:,} | {100 * size / total:.1f}% |")
    print(f"| **all allocated sections** | **{total:,}** | |")


if __name__ == "__main__":
    main()
