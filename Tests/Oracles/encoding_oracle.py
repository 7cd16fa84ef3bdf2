"""Writes a corpus of text in one encoding, and Python's own decoding of it to UTF-8: the
independent reading maskclean's --encoding (glibc's iconv) is tested against
(Tests/MaskCleanTests/Input/TextEncodingTests.swift).

    encoding_oracle.py ENCODING SIZE OUT_DIR

ENCODING is maskclean's name (windows-1252, iso-8859-1, iso-8859-15, utf-16le, utf-16be,
utf-16). OUT_DIR/input.bin gets SIZE-odd bytes of text: every byte the encoding defines (for the
single-byte ones), or every kind of code point (ASCII, Latin, CJK, astral, for UTF-16), at random
from a fixed seed, with CSV's line feeds, commas and quotes among them. OUT_DIR/expected.txt gets
that text as UTF-8, decoded by Python's codecs."""

import os
import random
import sys

PYTHON_CODEC = {
    "windows-1252": "cp1252",
    "iso-8859-1": "latin-1",
    "iso-8859-15": "iso8859-15",
    "utf-16le": "utf-16-le",
    "utf-16be": "utf-16-be",
    "utf-16": "utf-16",
}


def single_byte(codec, size, rng):
    defined = []
    for byte in range(256):
        try:
            bytes([byte]).decode(codec)
            defined.append(byte)
        except UnicodeDecodeError:
            pass
    # Mostly text, as an export is: ASCII letters and CSV punctuation weighted up.
    common = [ord(c) for c in "abcdefghijklmnopqrstuvwxyz0123456789,;\"\n "]
    data = bytes(defined)  # every defined byte at least once
    data += bytes(rng.choice(common) if rng.random() < 0.7 else rng.choice(defined) for _ in range(size))
    return data


def utf16(codec, size, rng):
    ranges = [(0x20, 0x7E), (0xA0, 0x24F), (0x370, 0x3FF), (0x4E00, 0x9FFF), (0xE000, 0xFFFD), (0x10000, 0x10FFFF)]
    chars = []
    while len(chars) < size // 2:
        low, high = rng.choice(ranges)
        code = rng.randint(low, high)
        if 0xD800 <= code <= 0xDFFF or code in (0xFEFF, 0xFFFE):
            continue
        chars.append(chr(code))
        if rng.random() < 0.05:
            chars.append("\n")
    return "".join(chars).encode(codec)


def main():
    name, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    codec = PYTHON_CODEC[name]
    rng = random.Random(20261127)
    data = utf16(codec, size, rng) if name.startswith("utf-16") else single_byte(codec, size, rng)
    text = data.decode(codec)
    with open(os.path.join(out, "input.bin"), "wb") as handle:
        handle.write(data)
    with open(os.path.join(out, "expected.txt"), "wb") as handle:
        handle.write(text.encode("utf-8"))


main()
