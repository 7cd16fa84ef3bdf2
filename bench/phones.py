#!/usr/bin/env python3
"""Write a deterministic column of mixed international phone numbers: issue 27's speed bench.

    python3 bench/phones.py ROWS PREFIX [--seed N]

writes PREFIX.csv: a header `id,phone` and ROWS records, each one phone number of one of 56
countries, written as real exports hold them:

  international   "+44 20 7946 0958" (the country's own grouping), "+44-20-7946-0958",
                  "+44.20.7946.0958", "0044 20 7946 0958", "011 44 20 7946 0958" (the North American
                  international prefix), "+442079460958", "(+44) 20 7946 0958",
                  "+44 (0)20 7946 0958" (a country with the trunk prefix 0)
  national, US    "(613) 563-4223", "613-563-4223", "613.563.4223", "613 563 4223", "6135634223",
                  "1-613-563-4223": no country code, so they are read with defaultRegion US (the
                  North American plan; 613 is Canada's, which libphonenumber detects)
  and about 2% with an extension (" x123", " ext. 123", " ext 4567"), 1% empty, 1% too short (the
  first digits of a number).

The numbers are in each country's valid ranges: every country's fixed-line and mobile example
number from libphonenumber's metadata (source: libphonenumber PhoneNumberMetadata.xml v9.0.35
exampleNumber elements, Apache-2.0), with the last 3 digits (numbers of 8 digits or fewer) or 4
digits (longer ones) drawn at random, and a few real North American area codes. Every one of
these, drawn 200 times each, is a valid number of its region for libphonenumber 9.0.35 (Python
phonenumbers); two examples that the older 8.12.57 of Debian's libphonenumber-dev does not know
are left out or replaced (see the table). The grouping is that of libphonenumber's INTERNATIONAL
format of the example number.

No value holds a comma, a double quote, CR or LF, so the CSV needs no quoting: a peer may split
each line at its first comma. "\\n" line ends, UTF-8 (ASCII in fact). The same ROWS, PREFIX and
seed give byte-identical files on any CPython 3, and the first K rows of an N-row file are the
K-row file.
"""

import argparse
import random
import sys

DEFAULT_SEED = 2027
BATCH_ROWS = 20_000

# region, country code, national (trunk) prefix, [(national significant number, group sizes)]:
# fixed-line then mobile exampleNumber from libphonenumber PhoneNumberMetadata.xml v9.0.35
# exampleNumber elements; the group sizes are those of its INTERNATIONAL format.
COUNTRIES = [
    ("US", "1", "1", [("2015550123", (3, 3, 4))]),
    ("CA", "1", "1", [("5062345678", (3, 3, 4))]),
    ("GB", "44", "0", [("1212345678", (3, 3, 4)), ("7400123456", (4, 6))]),
    ("DE", "49", "0", [("30123456", (2, 6)), ("15123456789", (4, 7))]),
    ("FR", "33", "0", [("123456789", (1, 2, 2, 2, 2)), ("612345678", (1, 2, 2, 2, 2))]),
    ("IN", "91", "0", [("7410410123", (5, 5)), ("8123456789", (5, 5))]),
    ("BR", "55", "0", [("1123456789", (2, 4, 4)), ("11961234567", (2, 5, 4))]),
    ("CN", "86", "0", [("1012345678", (2, 4, 4)), ("13123456789", (3, 4, 4))]),
    ("JP", "81", "0", [("312345678", (1, 4, 4)), ("9012345678", (2, 4, 4))]),
    ("AU", "61", "0", [("212345678", (1, 4, 4)), ("412345678", (3, 3, 3))]),
    ("MX", "52", "", [("2001234567", (3, 3, 4)), ("2221234567", (3, 3, 4))]),
    ("ES", "34", "", [("810123456", (3, 2, 2, 2)), ("612345678", (3, 2, 2, 2))]),
    ("IT", "39", "", [("0212345678", (2, 4, 4)), ("3123456789", (3, 3, 4))]),
    ("NL", "31", "0", [("101234567", (2, 3, 4)), ("612345678", (1, 8))]),
    ("RU", "7", "8", [("3011234567", (3, 3, 2, 2)), ("9123456789", (3, 3, 2, 2))]),
    ("ZA", "27", "0", [("101234567", (2, 3, 4)), ("711234567", (2, 3, 4))]),
    # NG's fixed-line example (2033 12 3456) and CL's (600 123 456) are valid for 9.0.35 but not
    # for the libphonenumber 8.12.57 the C++ peer links: NG keeps its mobile example only, CL has
    # a Valparaiso fixed-line number of 9.0.35's ranges that 8.12.57 also calls valid.
    ("NG", "234", "0", [("8021234567", (3, 3, 4))]),
    ("KE", "254", "0", [("202012345", (2, 7)), ("712123456", (3, 6))]),
    ("EG", "20", "0", [("234567890", (1, 8)), ("1001234567", (2, 8))]),
    ("SA", "966", "0", [("112345678", (2, 3, 4)), ("512345678", (2, 3, 4))]),
    ("AE", "971", "0", [("22345678", (1, 3, 4)), ("501234567", (2, 3, 4))]),
    ("SG", "65", "", [("61234567", (4, 4)), ("81234567", (4, 4))]),
    ("KR", "82", "0", [("22123456", (1, 3, 4)), ("1020000000", (2, 4, 4))]),
    ("AR", "54", "0", [("1123456789", (2, 4, 4)), ("91123456789", (1, 2, 4, 4))]),
    ("CO", "57", "0", [("6012345678", (3, 7)), ("3211234567", (3, 7))]),
    ("CH", "41", "0", [("212345678", (2, 3, 2, 2)), ("781234567", (2, 3, 2, 2))]),
    ("SE", "46", "0", [("8123456", (1, 2, 2, 2)), ("701234567", (2, 3, 2, 2))]),
    ("PL", "48", "", [("123456789", (2, 3, 2, 2)), ("512345678", (3, 3, 3))]),
    ("TR", "90", "0", [("2123456789", (3, 3, 2, 2)), ("5012345678", (3, 3, 2, 2))]),
    ("ID", "62", "0", [("218350123", (2, 7)), ("812345678", (3, 3, 3))]),
    ("PH", "63", "0", [("232345678", (1, 4, 4)), ("9051234567", (3, 3, 4))]),
    ("VN", "84", "0", [("2101234567", (3, 4, 3)), ("912345678", (3, 3, 3))]),
    ("TH", "66", "0", [("21234567", (1, 3, 4)), ("812345678", (2, 3, 4))]),
    ("IE", "353", "0", [("2212345", (2, 5)), ("850123456", (2, 3, 4))]),
    ("NZ", "64", "0", [("32345678", (1, 3, 4)), ("211234567", (2, 3, 4))]),
    ("PT", "351", "", [("212345678", (2, 3, 4)), ("912345678", (3, 3, 3))]),
    ("BE", "32", "0", [("12345678", (2, 2, 2, 2)), ("450001234", (3, 2, 2, 2))]),
    ("AT", "43", "0", [("1234567890", (1, 9)), ("664123456", (3, 6))]),
    ("IL", "972", "0", [("21234567", (1, 3, 4)), ("502345678", (2, 3, 4))]),
    ("PK", "92", "0", [("2123456789", (2, 8)), ("3012345678", (3, 7))]),
    ("BD", "880", "0", [("27111234", (1, 7)), ("1812345678", (4, 6))]),
    ("DK", "45", "", [("32123456", (2, 2, 2, 2)), ("34412345", (2, 2, 2, 2))]),
    ("NO", "47", "", [("21234567", (2, 2, 2, 2)), ("40612345", (2, 2, 2, 2))]),
    ("FI", "358", "0", [("131234567", (2, 7)), ("412345678", (2, 7))]),
    ("CZ", "420", "", [("212345678", (3, 3, 3)), ("601123456", (3, 3, 3))]),
    ("GR", "30", "", [("2123456789", (2, 4, 4)), ("6912345678", (3, 3, 4))]),
    ("HU", "36", "06", [("12345678", (1, 3, 4)), ("201234567", (2, 3, 4))]),
    ("RO", "40", "0", [("211234567", (2, 3, 4)), ("712034567", (3, 3, 3))]),
    ("UA", "380", "0", [("311234567", (4, 5)), ("501234567", (2, 3, 4))]),
    ("MY", "60", "0", [("323856789", (1, 4, 4)), ("123456789", (2, 3, 4))]),
    ("HK", "852", "", [("21234567", (4, 4)), ("51234567", (4, 4))]),
    ("TW", "886", "0", [("221234567", (1, 4, 4)), ("912345678", (3, 3, 3))]),
    ("CL", "56", "", [("322123456", (2, 3, 4)), ("221234567", (1, 4, 4))]),
    ("PE", "51", "0", [("11234567", (1, 7)), ("912345678", (3, 3, 3))]),
    ("MA", "212", "0", [("520123456", (1, 2, 2, 2, 2)), ("650123456", (1, 2, 2, 2, 2))]),
    ("GH", "233", "0", [("302345678", (2, 3, 4)), ("231234567", (2, 3, 4))]),
]

# Real North American numbers' first six digits (area code, exchange), beside the example numbers:
# the national forms are these, drawn with a random line number.
NANP_PREFIXES = ["613563", "212736", "415554", "312744", "617253", "202456", "305673", "713658",
                 "416979", "604681", "206386", "512474", "303866", "404523", "646278", "718935"]

# The share of the international rows each country gets (US and CA written internationally
# included): a rough mix of a multinational customer list, heavier for the largest markets.
WEIGHTS = {"US": 10, "CA": 3, "GB": 8, "DE": 6, "FR": 5, "IN": 6, "BR": 4, "CN": 4, "JP": 3,
           "AU": 3, "MX": 3, "ES": 3, "IT": 3, "NL": 2}


def _cumulative():
    total, table = 0, []
    for entry in COUNTRIES:
        total += WEIGHTS.get(entry[0], 1)
        table.append(total)
    return table, total


_CUMULATIVE, _TOTAL = _cumulative()


def pick_country(rnd):
    x = rnd() * _TOTAL
    for entry, bound in zip(COUNTRIES, _CUMULATIVE):
        if x < bound:
            return entry
    return COUNTRIES[-1]


def digits(rnd, count):
    return "".join(str(int(rnd() * 10)) for _ in range(count))


def varied(rnd, number):
    """The example number with its last 3 (8 digits or fewer) or 4 digits drawn at random."""
    k = 3 if len(number) <= 8 else 4
    return number[:-k] + digits(rnd, k)


def grouped(number, sizes, sep):
    parts, at = [], 0
    for size in sizes:
        parts.append(number[at:at + size])
        at += size
    return sep.join(parts)


def international(rnd):
    region, cc, trunk, numbers = pick_country(rnd)
    number, sizes = numbers[int(rnd() * len(numbers))]
    number = varied(rnd, number)
    r = rnd()
    if r < 0.30:
        return f"+{cc} {grouped(number, sizes, ' ')}"
    if r < 0.42:
        return f"+{cc}-{grouped(number, sizes, '-')}"
    if r < 0.47:
        return f"+{cc}.{grouped(number, sizes, '.')}"
    if r < 0.56:
        return f"00{cc} {grouped(number, sizes, ' ')}"
    if r < 0.60:
        return f"011 {cc} {grouped(number, sizes, ' ')}"
    if r < 0.80:
        return f"+{cc}{number}"
    if r < 0.90:
        return f"(+{cc}) {grouped(number, sizes, ' ')}"
    # Not for Colombia: libphonenumber reads its "(0)3..." as a carrier code, not a trunk prefix.
    if trunk == "0" and region != "CO":
        return f"+{cc} (0){grouped(number, sizes, ' ')}"
    return f"+{cc} {number}"


def national_us(rnd):
    n = NANP_PREFIXES[int(rnd() * len(NANP_PREFIXES))] + digits(rnd, 4)
    a, b, c = n[:3], n[3:6], n[6:]
    r = rnd()
    if r < 0.35:
        return f"({a}) {b}-{c}"
    if r < 0.55:
        return f"{a}-{b}-{c}"
    if r < 0.65:
        return f"{a}.{b}.{c}"
    if r < 0.75:
        return f"{a} {b} {c}"
    if r < 0.90:
        return n
    if r < 0.95:
        return f"1-{a}-{b}-{c}"
    return f"(+1) {a} {b} {c}"


def phone(rnd):
    r = rnd()
    if r < 0.01:
        return ""
    if r < 0.02:
        # Too short: the first digits of a number, cut where a typist stopped.
        full = international(rnd) if rnd() < 0.6 else national_us(rnd)
        return full[:4 + int(rnd() * 5)].rstrip(" -.(")
    value = national_us(rnd) if r < 0.30 else international(rnd)
    if rnd() < 0.02:
        e = rnd()
        ext = digits(rnd, 3 if e < 0.7 else 4)
        value += f" x{ext}" if e < 0.5 else f" ext. {ext}" if e < 0.8 else f" ext {ext}"
    return value


def generate(rows, prefix, seed):
    rnd = random.Random(seed).random
    with open(prefix + ".csv", "w", encoding="utf-8", newline="") as out:
        out.write("id,phone\n")
        for first in range(1, rows + 1, BATCH_ROWS):
            out.write("".join(f"{i},{phone(rnd)}\n"
                              for i in range(first, min(first + BATCH_ROWS, rows + 1))))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", type=int, help="number of records")
    parser.add_argument("prefix", help="writes PREFIX.csv")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"random seed (default {DEFAULT_SEED})")
    args = parser.parse_args(argv)
    if args.rows < 0:
        parser.error("ROWS must be 0 or more")
    generate(args.rows, args.prefix, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
