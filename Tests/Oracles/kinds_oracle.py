#!/usr/bin/env python3
"""Corpora for the kinds `describe` recognises (Sources/MaskClean/Describe/), each value with the
verdict of python-stdnum, an implementation that is not ours, where it has one: `stdnum.nl.postcode`
for Dutch postcodes, `stdnum.us.ein` and `stdnum.us.ssn` for US tax numbers, `stdnum.luhn` for card
numbers' check digit. (IBANs, ISBNs and GTINs
are checks_oracle.py's corpora.) Tests/MaskCleanTests/Describe/DescribeKindsOracleTests.swift runs
it with the virtual environment `make test-deps` makes (.build/oracle-venv).

    .build/oracle-venv/bin/python Tests/Oracles/kinds_oracle.py nl|ein|ssn|card

writes one corpus to standard output, one value a line, tab-separated: VALUE  valid|invalid.
The values are random with a fixed seed, written with the separator and without.
"""

import random
import sys

import stdnum.luhn
import stdnum.nl.postcode
import stdnum.us.ein
import stdnum.us.ssn

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def out(value, ok):
    sys.stdout.write(f"{value}\t{'valid' if ok else 'invalid'}\n")


def nl(rng):
    # Every pair of letters, over numbers from 0000 to 9999, with the space and without.
    for first in LETTERS:
        for second in LETTERS:
            for _ in range(8):
                number = f"{rng.randrange(0, 10000):04d}"
                for value in (f"{number} {first}{second}", f"{number}{first}{second}"):
                    out(value, stdnum.nl.postcode.is_valid(value))


def ein(rng):
    for prefix in range(100):
        for _ in range(20):
            digits = f"{prefix:02d}{rng.randrange(0, 10**7):07d}"
            for value in (digits, f"{digits[:2]}-{digits[2:]}"):
                out(value, stdnum.us.ein.is_valid(value))


def ssn(rng):
    specials = ["078051120", "457555462", "219099999"]
    areas = [0, 1, 665, 666, 667, 899, 900, 999] + [rng.randrange(0, 1000) for _ in range(300)]
    for area in areas:
        for group in (0, 1, rng.randrange(1, 100)):
            for serial in (0, rng.randrange(1, 10000)):
                digits = f"{area:03d}{group:02d}{serial:04d}"
                specials.append(digits)
    for digits in specials:
        for value in (digits, f"{digits[:3]}-{digits[3:5]}-{digits[5:]}"):
            out(value, stdnum.us.ssn.is_valid(value))


def card(rng):
    # 11 to 21 digits, half of them given a check digit by stdnum.luhn, written whole, in
    # groups of four split by spaces or hyphens, or with a letter or another separator in them.
    # A card number is 13 to 19 digits, grouped by spaces or hyphens or not, whose Luhn check
    # stdnum.luhn passes.
    for _ in range(6000):
        length = rng.randrange(11, 22)
        digits = "".join(rng.choice("0123456789") for _ in range(length - 1))
        digits += stdnum.luhn.calc_check_digit(digits) if rng.random() < 0.5 else rng.choice("0123456789")
        groups = [digits[i:i + 4] for i in range(0, len(digits), 4)]
        style = rng.randrange(5)
        if style == 0:
            value = digits
        elif style == 1:
            value = " ".join(groups)
        elif style == 2:
            value = "-".join(groups)
        elif style == 3:
            value = "/".join(groups)
        else:
            place = rng.randrange(len(digits))
            value = digits[:place] + rng.choice("xO.") + digits[place:]
        ok = set(value) <= set("0123456789 -") and 13 <= len(digits) <= 19 and stdnum.luhn.is_valid(digits)
        out(value, ok)


if __name__ == "__main__":
    corpora = {"nl": nl, "ein": ein, "ssn": ssn, "card": card}
    if len(sys.argv) != 2 or sys.argv[1] not in corpora:
        sys.exit("usage: kinds_oracle.py nl|ein|ssn|card")
    corpora[sys.argv[1]](random.Random(28))
