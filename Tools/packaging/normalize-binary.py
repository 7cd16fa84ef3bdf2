#!/usr/bin/env python3
"""Makes the binary that travels the same bytes on every build of one commit (make dist runs it
on the stripped binary, in place):

    normalize-binary.py dist/maskclean-VERSION-linux-ARCH/bin/maskclean

Swift gives each object file a 16-byte module hash (the `.swift_modhash` section, which the
compiler's build system reads and nothing reads at run time) that changes from one build to
the next although nothing else does. This zeroes that section, then sets the GNU build ID (the
`.note.gnu.build-id` note, which the linker computed over the bytes that included those hashes)
to the SHA-1 of the file so normalized, cut to the note's size: the build ID still names the
binary's contents, and two builds of one commit are byte for byte the same. Nothing moves: the
file keeps its size and layout. ELF64 little-endian only (x86_64, aarch64).
"""

import hashlib
import struct
import sys


def sections(data: bytes) -> dict:
    """Each section's (file offset, size), by name."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit("normalize-binary.py: not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = []
    for index in range(shnum):
        name, _type, _flags, _address, offset, size = struct.unpack_from(
            "<IIQQQQ", data, shoff + index * shentsize
        )
        headers.append((name, offset, size))
    strings_offset = headers[shstrndx][1]
    found = {}
    for name, offset, size in headers:
        end = data.index(b"\0", strings_offset + name)
        found[data[strings_offset + name : end].decode("ascii")] = (offset, size)
    return found


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: normalize-binary.py BINARY")
    path = sys.argv[1]
    with open(path, "rb") as file:
        data = bytearray(file.read())
    found = sections(bytes(data))
    if ".swift_modhash" in found:
        offset, size = found[".swift_modhash"]
        data[offset : offset + size] = bytes(size)
    if ".note.gnu.build-id" in found:
        offset, size = found[".note.gnu.build-id"]
        name_size, description_size, kind = struct.unpack_from("<III", data, offset)
        if kind != 3:  # NT_GNU_BUILD_ID
            sys.exit("normalize-binary.py: .note.gnu.build-id is not a build ID note")
        start = offset + 12 + (name_size + 3) // 4 * 4
        data[start : start + description_size] = bytes(description_size)
        digest = hashlib.sha1(data).digest()
        data[start : start + description_size] = (digest * 2)[:description_size]
    with open(path, "wb") as file:
        file.write(data)


if __name__ == "__main__":
    main()
