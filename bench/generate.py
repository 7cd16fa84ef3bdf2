#!/usr/bin/env python3
"""Write a deterministic, messy customer export for maskclean's benchmarks.

    python3 bench/generate.py ROWS PREFIX [--seed N]

writes PREFIX.csv and PREFIX.ndjson holding the same ROWS records with the columns
id, name, phone, card, date, zip, note.

The data looks like what a CRM or a spreadsheet really exports: phones, cards, dates and zips
typed in many shapes (some already clean, some too short, too long, with letters or stray
spaces, some empty), names with non-ASCII letters, apostrophes, commas and quotes, and free-text
notes with commas, double quotes, embedded line breaks and UTF-8.

CSV: RFC 4180, a header row, "\\n" line ends, a field quoted only when it holds a comma, a double
quote, CR or LF. NDJSON: one object per line in column order, "id" a JSON integer, every other
value a string ("" when empty), except that a small share of the empty phones are null.

The same ROWS, PREFIX and seed give byte-identical files on any CPython 3, and the first K rows of
an N-row file are the K-row file (each record draws only from one random stream, in order).
"""

import argparse
import json
import random
import re
import sys

DEFAULT_SEED = 4180
COLUMNS = ("id", "name", "phone", "card", "date", "zip", "note")
BATCH_ROWS = 20_000

GIVEN = (
    "Olivia Liam Emma Noah Ava Elijah Sophia James Isabella William Mia Benjamin Charlotte Lucas "
    "Amelia Henry Harper Alexander Evelyn Daniel Abigail Michael Emily Ethan Elizabeth Jacob "
    "Sofia Logan Avery Jackson Ella Sebastian Scarlett Jack Grace Aiden Chloe Owen Victoria "
    "Samuel Riley Matthew Aria Joseph Lily Levi Aurora David Zoey Wyatt Nora Carter Hannah "
    "Mary-Kate Jean-Luc"
).split()
GIVEN_INTL = (
    "José Zoë Björn Chloé Renée Søren Anaïs Siobhán Łukasz Ðorđe Thảo Minh Ngọc Jürgen Inês "
    "Dmitri François Ana-María Joaquín"
).split()
FAMILY = (
    "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez "
    "Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris "
    "Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill "
    "Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts "
    "O'Brien O'Connor D'Angelo McDonald MacLeod Smith-Jones"
).split() + ["van der Berg", "de la Cruz", "St. John", "Le Blanc"]
FAMILY_INTL = (
    "Nguyễn Trần Phạm Müller Schröder Gößmann Núñez Peña Ibáñez Kowalczyk Wiśniewski Åberg "
    "Øster Dvořák Çelik Yılmaz"
).split()
NICKNAMES = ("Bob", "Liz", "Bill", "Kate", "Jim", "Sam", "Alex", "Beth")
TITLES = ("Dr.", "Mr.", "Ms.", "Mrs.", "Prof.")
SUFFIXES = ("Jr.", "Sr.", "II", "III", "PhD")
INITIALS = "ABCDEFGHJKLMNPRSTW"

NOTE_PHRASES = (
    "customer called about the March invoice", "asked for a copy by email",
    "please update the mailing address", "prefers text messages after 6pm",
    "left a voicemail, no answer", "account verified by phone", "duplicate of an older record",
    "merged from the legacy CRM", "card declined, will retry next week", "VIP",
    "do not call before noon", "wants paper statements", "moved to a new office",
    "number changed at customer request", "escalated to a supervisor", "resolved",
    "no further action needed", "spouse is a co-signer", "imported from batch 12",
    "check the spelling of the last name", "refund issued", "shipping delayed by weather",
    "gift order", "requested a callback", "tax exempt, certificate on file",
    "address: 12 Oak St, Apt 4", "billing contact is the office manager",
    "opted out of marketing", "language preference: Spanish", "paid in full",
    "payment plan, 3 installments", "returned item, restocking fee waived",
    "wrong number on file", "fax only", "see ticket #4471",
)
UTF8_BITS = (
    "café", "naïve", "résumé", "façade", "€45.00", "£12", "¥3000", "→ done", "✓ verified",
    "日本語", "Москва", "Ελλάδα", "😀", "👍🏽", "«urgent»", "½ price", "nº 7", "Straße",
)
QUOTED_PHRASES = ('"ASAP"', '"do not call"', '"gold" tier', 'said "thanks!"', '"N/A"')

PHONE_LETTER_WORDS = ("CALL", "HELP", "SHOP", "CARS", "FLOWERS")


# random.Random.randrange and .choice cost several times a bare .random() call, and this script
# makes tens of millions of draws, so every draw goes through these three helpers.
def below(rnd, n):
    """An int in [0, n); rnd is a bound random.Random.random."""
    return int(rnd() * n)


def pick(rnd, seq):
    return seq[int(rnd() * len(seq))]


_TWO_DIGITS = ["%02d" % i for i in range(100)]
_FOUR_DIGITS = ["%04d" % i for i in range(10_000)]


def digits(rnd, n):
    """n random decimal digits, leading zeros kept."""
    if n == 4:
        return _FOUR_DIGITS[int(rnd() * 10_000)]
    if n > 12:  # a double has 53 bits: draw long strings in two parts to keep every digit random
        return "%0*d%012d" % (n - 12, int(rnd() * 10 ** (n - 12)), int(rnd() * 1e12))
    return "%0*d" % (n, int(rnd() * 10**n))


def nanp(rnd):
    # Area code and exchange never start with 0 or 1 in North America.
    return str(200 + below(rnd, 800)), str(200 + below(rnd, 800)), digits(rnd, 4)


def phone(rnd):
    """A phone in one of the shapes people type, or None for a missing value."""
    x = rnd()
    a, b, c = nanp(rnd)
    if x < 0.20:
        return a + b + c                                  # 5551234567
    if x < 0.36:
        return f"({a}) {b}-{c}"                           # (555) 123-4567
    if x < 0.44:
        return f"+1 {a} {b} {c}"                          # +1 555 123 4567
    if x < 0.52:
        return f"{a}.{b}.{c}"                             # 555.123.4567
    if x < 0.62:
        return f"{a}-{b}-{c}"                             # 555-123-4567
    if x < 0.66:
        return f"1-{a}-{b}-{c}"                           # 1-555-123-4567
    if x < 0.69:
        return f"+1{a}{b}{c}"                             # E.164
    if x < 0.72:
        return f"+1 ({a}) {b}-{c}"                        # already clean
    if x < 0.76:                                          # with an extension
        ext = digits(rnd, 2 + below(rnd, 3))
        return pick(rnd, (f"{a}-{b}-{c} x{ext}", f"({a}) {b}-{c} ext. {ext}",
                          f"{a}.{b}.{c}x{ext}"))
    if x < 0.80:                                          # a local number
        return f"{b}-{c}"
    if x < 0.84:                                          # too short or too long
        return pick(rnd, (a + b + c[:2], f"{a}-{b}-{c[:3]}", digits(rnd, 3 + below(rnd, 4)),
                          a + b + c + digits(rnd, 2)))
    if x < 0.88:                                          # letters
        return pick(rnd, (f"1-800-{pick(rnd, PHONE_LETTER_WORDS)}", f"{a}-{b}-{c[:2]}O{c[3]}",
                          f"{a}{b}{c[:3]}l", f"cell: {a}-{b}-{c}", "unknown", "N/A", "none"))
    if x < 0.92:                                          # padded by a fixed-width export
        return pick(rnd, (f"  {a} {b} {c}", f"{a}-{b}-{c}   ", f" ({a}) {b}-{c} ",
                          f"\t{a}{b}{c}"))
    if x < 0.945:
        return None                                       # missing: null in JSON
    return ""


def card(rnd):
    x = rnd()
    if x < 0.88:
        prefix = pick(rnd, ("4", "4", "4", "51", "52", "55", "6011", "2221"))
        n16 = prefix + digits(rnd, 16 - len(prefix))
        g = (n16[:4], n16[4:8], n16[8:12], n16[12:])
        if x < 0.30:
            return n16
        if x < 0.52:
            return " ".join(g)
        if x < 0.66:
            return "-".join(g)
        if x < 0.70:
            return " " + " ".join(g) + " "
        amex = pick(rnd, ("34", "37")) + digits(rnd, 13)
        if x < 0.77:
            return amex
        if x < 0.84:
            return f"{amex[:4]} {amex[4:10]} {amex[10:]}"  # 3782 822463 10005
        return f"{amex[:4]}-{amex[4:10]}-{amex[10:]}"
    if x < 0.93:                                          # junk
        return pick(rnd, (digits(rnd, 4 + below(rnd, 9)), "**** **** **** " + digits(rnd, 4),
                          "XXXX-XXXX-XXXX-" + digits(rnd, 4), digits(rnd, 12) + "XXXX",
                          digits(rnd, 19), "on file", "declined"))
    return ""


def date(rnd):
    x = rnd()
    y, m, d = 1935 + below(rnd, 90), 1 + below(rnd, 12), 1 + below(rnd, 28)
    if x < 0.38:
        return _TWO_DIGITS[m] + "/" + _TWO_DIGITS[d] + "/" + str(y)     # 03/07/1984
    if x < 0.60:
        return str(m) + "/" + str(d) + "/" + _TWO_DIGITS[y % 100]       # 3/7/84
    if x < 0.74:
        return str(y) + _TWO_DIGITS[m] + _TWO_DIGITS[d]                # 19840307
    if x < 0.85:
        return str(y) + "-" + _TWO_DIGITS[m] + "-" + _TWO_DIGITS[d]     # 1984-03-07
    if x < 0.88:
        return f"{m}-{d}-{y}"                                           # 3-7-1984
    if x < 0.92:                                          # invalid or not a date at all
        return pick(rnd, (f"{13 + below(rnd, 27)}/{32 + below(rnd, 67)}/{y}", f"{m}/{y}",
                          "00/00/0000", "unknown", "TBD", str(y)))
    return ""


def zip_code(rnd):
    x = rnd()
    if x < 0.80:
        return digits(rnd, 5)
    if x < 0.89:
        return digits(rnd, 5) + "-" + digits(rnd, 4)
    if x < 0.90:
        return digits(rnd, 9)                             # zip+4 with the dash lost
    if x < 0.95:
        return str(1000 + below(rnd, 9000))               # leading zero eaten by a spreadsheet
    return ""


def name(rnd):
    g = pick(rnd, GIVEN_INTL if rnd() < 0.12 else GIVEN)
    f = pick(rnd, FAMILY_INTL if rnd() < 0.12 else FAMILY)
    x = rnd()
    if x < 0.70:
        return f"{g} {f}"
    if x < 0.82:
        return f"{f}, {g}"                                # needs quoting in CSV
    if x < 0.86:
        return f"{g} {pick(rnd, INITIALS)}. {f}"
    if x < 0.89:
        return f'{g} "{pick(rnd, NICKNAMES)}" {f}'        # embedded quotes
    if x < 0.92:
        return f"{pick(rnd, TITLES)} {g} {f}"
    if x < 0.94:
        return f"{g} {f}, {pick(rnd, SUFFIXES)}"
    if x < 0.96:
        return f"{g.upper()} {f.upper()}"
    if x < 0.97:
        return f"  {g} {f} "                              # untrimmed
    return ""


def note(rnd):
    x = rnd()
    if x < 0.15:
        return ""
    parts = list(dict.fromkeys(pick(rnd, NOTE_PHRASES) for _ in range(1 + below(rnd, 4))))
    if rnd() < 0.10:
        parts.insert(below(rnd, len(parts) + 1), pick(rnd, QUOTED_PHRASES))
    if rnd() < 0.06:
        parts.append(pick(rnd, UTF8_BITS))
    joiner = pick(rnd, (". ", ". ", "; ", " - "))
    if joiner == ". ":
        parts = [p[0].upper() + p[1:] for p in parts]
    text = joiner.join(parts)
    text = text[0].upper() + text[1:]
    y = rnd()
    if y < 0.03:                                          # a second line, mostly LF, some CRLF
        text += ("\n" if y < 0.022 else "\r\n") + pick(rnd, NOTE_PHRASES).capitalize() + "."
    elif y < 0.04:
        text += "\n\n-- agent " + pick(rnd, INITIALS) + pick(rnd, INITIALS)
    elif y < 0.05:
        text = " " + text + " "                          # untrimmed
    return text


_NEEDS_QUOTES = re.compile('[",\r\n]').search
_json_string = json.encoder.encode_basestring            # keeps UTF-8 as is (no \u escapes)


def csv_field(s):
    if _NEEDS_QUOTES(s):
        return '"' + s.replace('"', '""') + '"'
    return s


def record(rnd, row_id):
    """One record as (csv line, ndjson line)."""
    # Only names, phones and notes are ever generated with a comma, quote, CR or LF in them.
    nm, ph, cd, dt, zp, nt = name(rnd), phone(rnd), card(rnd), date(rnd), zip_code(rnd), note(rnd)
    csv_line = ",".join((str(row_id), csv_field(nm), csv_field(ph or ""), cd, dt, zp,
                         csv_field(nt))) + "\n"
    json_line = '{"id":%d,"name":%s,"phone":%s,"card":%s,"date":%s,"zip":%s,"note":%s}\n' % (
        row_id, _json_string(nm), "null" if ph is None else _json_string(ph),
        _json_string(cd), _json_string(dt), _json_string(zp), _json_string(nt))
    return csv_line, json_line


def generate(rows, prefix, seed):
    rnd = random.Random(seed).random
    # newline="" so that a CR inside a note stays a CR on every platform.
    with open(prefix + ".csv", "w", encoding="utf-8", newline="") as csv_out, \
            open(prefix + ".ndjson", "w", encoding="utf-8", newline="") as json_out:
        csv_out.write(",".join(COLUMNS) + "\n")
        for first in range(1, rows + 1, BATCH_ROWS):
            batch = [record(rnd, i) for i in range(first, min(first + BATCH_ROWS, rows + 1))]
            csv_out.write("".join(c for c, _ in batch))
            json_out.write("".join(j for _, j in batch))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", type=int, help="number of records")
    parser.add_argument("prefix", help="writes PREFIX.csv and PREFIX.ndjson")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"random seed (default {DEFAULT_SEED})")
    args = parser.parse_args(argv)
    if args.rows < 0:
        parser.error("ROWS must be 0 or more")
    generate(args.rows, args.prefix, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
