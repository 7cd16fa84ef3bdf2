#!/usr/bin/env python3
"""Corpora for maskclean's column checks (Sources/MaskClean/Checks/), each value with the verdict
of an implementation that is not ours: Python's `datetime` for dates, a Luhn written plainly from
its definition (and python-stdnum's `stdnum.luhn`), python-stdnum's `stdnum.ean`, `stdnum.isbn`
and `stdnum.iban`. Tests/MaskCleanTests/Checks/ runs it with the virtual environment that
`make test-deps` makes (.build/oracle-venv) and compares every line with our verdict.

    .build/oracle-venv/bin/python Tests/Oracles/checks_oracle.py dates|luhn|gtin|isbn|iban

writes one corpus to standard output, one value a line, tab-separated:

    dates  FORMAT  DATE_ORDER (or -)  VALUE  YYYY-MM-DD, or "invalid"
    luhn   PREFIX (or -)  VALUE  valid|invalid
    gtin   VALUE  valid|invalid
    isbn   VALUE  valid|invalid  ISBN-13 (or -)
    iban   VALUE  valid|invalid  ELECTRONIC FORM (or -)

Where the standard guarantees a verdict (Luhn and MOD 97-10 catch every single-digit error, mod 97
every transposition of two adjacent digits), the script asserts that its oracles agree with it,
so that it fails rather than writes a corpus it cannot vouch for. The random corpora use a fixed
seed: the same corpus every run.
"""

import datetime
import os
import random
import sys

import stdnum
import stdnum.ean
import stdnum.iban
import stdnum.isbn
import stdnum.luhn

DIGITS = "0123456789"


def out(*fields):
    """Writes one corpus line."""
    sys.stdout.write("\t".join(fields) + "\n")


def verdict(ok):
    return "valid" if ok else "invalid"


# Dates ------------------------------------------------------------------------------------------

# Each format (input-mask syntax, docs/mask-syntax.md), the column's dateOrder ("-" for none), and
# how a day is written in it. `written(y, m, d)` is the text; y is the year as written (two digits
# for the two-digit forms). The order of the fields is the format's, by construction.
FOUR_DIGIT_FORMS = [
    ("[0000]-[00]-[00]", "-", lambda y, m, d: f"{y:04d}-{m:02d}-{d:02d}"),
    ("[00]/[00]/[0000]", "DMY", lambda y, m, d: f"{d:02d}/{m:02d}/{y:04d}"),
    ("[00]/[00]/[0000]", "MDY", lambda y, m, d: f"{m:02d}/{d:02d}/{y:04d}"),
    ("[00000000]", "-", lambda y, m, d: f"{y:04d}{m:02d}{d:02d}"),
    # Eight digits are ISO 8601's basic form whatever dateOrder says (docs/cell-status.md).
    ("[00000000]", "DMY", lambda y, m, d: f"{y:04d}{m:02d}{d:02d}"),
    ("[00000000]", "MDY", lambda y, m, d: f"{y:04d}{m:02d}{d:02d}"),
    # Day and month with one digit or two: written without leading zeros.
    ("[09]/[09]/[0000]", "DMY", lambda y, m, d: f"{d}/{m}/{y:04d}"),
    ("[0000]-[09]-[09]", "-", lambda y, m, d: f"{y:04d}-{m}-{d}"),
]
TWO_DIGIT_FORMS = [
    ("[000000]", "DMY", lambda y, m, d: f"{d:02d}{m:02d}{y:02d}"),
    ("[000000]", "MDY", lambda y, m, d: f"{m:02d}{d:02d}{y:02d}"),
    ("[000000]", "YMD", lambda y, m, d: f"{y:02d}{m:02d}{d:02d}"),
    ("[00]/[00]/[00]", "DMY", lambda y, m, d: f"{d:02d}/{m:02d}/{y:02d}"),
    ("[00]/[00]/[00]", "MDY", lambda y, m, d: f"{m:02d}/{d:02d}/{y:02d}"),
    ("[00]-[00]-[00]", "YMD", lambda y, m, d: f"{y:02d}-{m:02d}-{d:02d}"),
]


def calendar_verdict(year, month, day):
    """Python's datetime decides: the ISO 8601 date, or "invalid" when it refuses the date."""
    try:
        return datetime.date(year, month, day).isoformat()
    except ValueError:
        return "invalid"


def impossible_days(year):
    """Month and day pairs that are not dates in any year, and 29 February in every year (a date
    in leap years only): datetime gives the verdict, these only choose what to ask."""
    pairs = [(0, 1), (0, 15), (13, 1), (13, 15), (2, 29), (2, 30), (2, 31)]
    pairs += [(month, 0) for month in range(1, 13)]
    pairs += [(month, 32) for month in range(1, 13)]
    pairs += [(month, 31) for month in (4, 6, 9, 11)]
    return pairs


def every_day(first, last):
    day = datetime.date(first, 1, 1)
    while day.year <= last:
        yield day
        day += datetime.timedelta(days=1)


def dates():
    count = 0
    # Four-digit years: every day of 1900-2100, then the impossible ones of each year.
    for day in every_day(1900, 2100):
        for form, order, written in FOUR_DIGIT_FORMS:
            out(form, order, written(day.year, day.month, day.day), day.isoformat())
            count += 1
    for year in range(1900, 2101):
        for month, day in impossible_days(year):
            for form, order, written in FOUR_DIGIT_FORMS:
                out(form, order, written(year, month, day), calendar_verdict(year, month, day))
                count += 1
    # Two-digit years: the years they can stand for, 1969-2068. The century comes from Python's own
    # reading of %y (POSIX: 69-99 are 1969-1999, 00-68 are 2000-2068), not from our rule.
    def century_year(two_digits):
        return datetime.datetime.strptime(f"{two_digits:02d}", "%y").year

    for day in every_day(1969, 2068):
        two = day.year % 100
        assert century_year(two) == day.year
        for form, order, written in TWO_DIGIT_FORMS:
            out(form, order, written(two, day.month, day.day), day.isoformat())
            count += 1
    for two in range(100):
        year = century_year(two)
        for month, day in impossible_days(year):
            for form, order, written in TWO_DIGIT_FORMS:
                out(form, order, written(two, month, day), calendar_verdict(year, month, day))
                count += 1
    # Year 0 is not a year of the Gregorian calendar as datetime (and ISO 8601's basic range) has it.
    for form, order, written in FOUR_DIGIT_FORMS:
        out(form, order, written(0, 1, 1), calendar_verdict(0, 1, 1))
        count += 1
    return count


# Luhn -------------------------------------------------------------------------------------------


def luhn_reference(number):
    """The Luhn check written from its definition (ISO/IEC 7812-1, annex B): from the rightmost
    digit (the check digit) leftwards, double every second digit; a doubled digit over 9 counts as
    the sum of its two digits; the number is valid when the total is a multiple of 10."""
    total = 0
    for position, character in enumerate(reversed(number)):
        digit = int(character)
        if position % 2 == 1:
            digit = digit * 2
            if digit > 9:
                digit = digit // 10 + digit % 10
        total += digit
    return total % 10 == 0


def luhn_complete(partial):
    """The number with the check digit appended that makes it valid (by trying each)."""
    for check in DIGITS:
        if luhn_reference(partial + check):
            return partial + check
    raise AssertionError("no Luhn check digit for " + partial)


def luhn_line(prefix, value):
    """One line, after checking that stdnum.luhn says what the reference says."""
    ok = luhn_reference(prefix + value)
    assert stdnum.luhn.is_valid(prefix + value) == ok, (prefix, value)
    out(prefix or "-", value, verdict(ok))
    return ok


def luhn():
    rng = random.Random(7812)
    count = 0
    # Random digit strings of every length from 2 to 19: about one in ten is valid.
    for length in range(2, 20):
        for _ in range(3000):
            luhn_line("", "".join(rng.choice(DIGITS) for _ in range(length)))
            count += 1
    # Card numbers (12 to 19 digits, valid by construction) and every single-digit change of each,
    # which Luhn always catches; and every transposition of two adjacent different digits, which
    # it catches except 09 <-> 90 (the reference decides).
    for _ in range(1500):
        length = rng.randint(12, 19)
        card = luhn_complete("".join(rng.choice(DIGITS) for _ in range(length - 1)))
        assert luhn_line("", card)
        count += 1
        for index, original in enumerate(card):
            for digit in DIGITS:
                if digit != original:
                    assert not luhn_line("", card[:index] + digit + card[index + 1 :])
                    count += 1
        for index in range(length - 1):
            if card[index] != card[index + 1]:
                swapped = card[:index] + card[index + 1] + card[index] + card[index + 2 :]
                caught = not luhn_line("", swapped)
                assert caught or {card[index], card[index + 1]} == {"0", "9"}
                count += 1
    # US National Provider Identifiers: ten digits, whose Luhn check counts the prefix 80840 in
    # front (the CMS's rule). python-stdnum 2.2 has no stdnum.us.npi, so stdnum.luhn checks the
    # prefixed number instead (luhn_line asserts that it agrees with the reference).
    for _ in range(5000):
        npi = rng.choice("12") + "".join(rng.choice(DIGITS) for _ in range(9))
        luhn_line("80840", npi)
        count += 1
        valid = luhn_complete("80840" + npi[:9])[5:]
        assert luhn_line("80840", valid)
        count += 1
    # The CMS's own example NPI: valid with the prefix, not without it.
    assert luhn_line("80840", "1234567893") and not luhn_reference("1234567893")
    count += 1
    return count


# GTIN -------------------------------------------------------------------------------------------


def gtin():
    rng = random.Random(13)
    count = 0
    for length in (8, 12, 13, 14):
        for _ in range(5000):
            body = "".join(rng.choice(DIGITS) for _ in range(length - 1))
            valid = body + stdnum.ean.calc_check_digit(body)
            assert stdnum.ean.is_valid(valid)
            out(valid, "valid")
            # A random number (about one in ten valid), and the valid one with one digit changed
            # (never valid: the weights 1 and 3 are prime to 10).
            number = "".join(rng.choice(DIGITS) for _ in range(length))
            out(number, verdict(stdnum.ean.is_valid(number)))
            index = rng.randrange(length)
            changed = valid[:index] + str((int(valid[index]) + rng.randint(1, 9)) % 10) + valid[index + 1 :]
            assert not stdnum.ean.is_valid(changed)
            out(changed, "invalid")
            count += 3
    # Lengths that are not a GTIN's, even with a GS1 check digit of their own.
    for length in (2, 6, 7, 9, 10, 11, 15, 16, 18):
        for _ in range(200):
            body = "".join(rng.choice(DIGITS) for _ in range(length - 1))
            number = body + stdnum.ean.calc_check_digit(body)
            assert not stdnum.ean.is_valid(number)
            out(number, "invalid")
            count += 1
    return count


# ISBN -------------------------------------------------------------------------------------------


def isbn_line(number):
    ok = stdnum.isbn.is_valid(number)
    out(number, verdict(ok), stdnum.isbn.to_isbn13(number) if ok else "-")


def isbn():
    rng = random.Random(2108)
    count = 0
    for _ in range(20000):
        # ISBN-10: nine digits and the check character stdnum computes (0-9 or X), a lower-case x
        # now and then, and a random check character (valid one time in eleven).
        body = "".join(rng.choice(DIGITS) for _ in range(9))
        valid = body + stdnum.isbn._calc_isbn10_check_digit(body)
        if valid.endswith("X") and rng.random() < 0.5:
            valid = valid[:-1] + "x"
        isbn_line(valid)
        isbn_line(body + rng.choice(DIGITS + "X"))
        # ISBN-13: 978 or 979 with a GS1 check digit, and EAN-13s of other prefixes (not ISBNs).
        prefix = rng.choice(["978", "979", "977", "123", "980"])
        body = prefix + "".join(rng.choice(DIGITS) for _ in range(9))
        isbn_line(body + stdnum.ean.calc_check_digit(body))
        isbn_line(body + rng.choice(DIGITS))
        count += 4
    # Other lengths, and an X anywhere but last.
    for number in ["", "0", "030640615", "03064061522", "978030640615", "97803064061571", "X306406152"]:
        isbn_line(number)
        count += 1
    return count


# IBAN -------------------------------------------------------------------------------------------


def registry_examples():
    """The registry's example IBANs (Tests/Oracles/iban-registry-examples.tsv)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "iban-registry-examples.tsv")
    rows = []
    with open(path, encoding="utf-8") as file:
        for line in file:
            if line.startswith("#") or line.startswith("country\t"):
                continue
            rows.append(line.rstrip("\n").split("\t"))
    return rows


def iban_line(number):
    """One line: stdnum's verdict on the registry's structure and MOD 97-10 (its country-specific
    national checks are not part of the IBAN standard, and not of ours), and its compact form."""
    ok = stdnum.iban.is_valid(number, check_country=False)
    out(number, verdict(ok), stdnum.iban.compact(number) if ok else "-")
    return ok


def iban():
    examples = registry_examples()
    assert len(examples) == 89, len(examples)
    # The data file's BBAN structures are release 101's, as python-stdnum carries it.
    database = stdnum.iban._ibandb
    count = 0
    for country, structure, electronic, printed in examples:
        info = database.info(electronic)[0][1]
        assert info.get("bban") == structure, (country, structure, info)
        assert electronic.startswith(country)
        # The example, as written electronically, in print, in lower case and both.
        for form in {electronic, printed, electronic.lower(), printed.lower()}:
            assert iban_line(form), form
            count += 1
        # Every change of one digit to another, and every transposition of two adjacent different
        # characters. Both change the number by a multiple of a power of ten that 97 does not
        # divide when the characters are digits, so MOD 97-10 must catch every one of them. With a
        # letter (two digits, A = 10 ... Z = 35) it may not: RO's 1B and B1 are both 111.
        for index, original in enumerate(electronic):
            if original in DIGITS:
                for digit in DIGITS:
                    if digit != original:
                        assert not iban_line(electronic[:index] + digit + electronic[index + 1 :])
                        count += 1
        for index in range(len(electronic) - 1):
            first, second = electronic[index], electronic[index + 1]
            if first != second:
                swapped = electronic[:index] + second + first + electronic[index + 2 :]
                caught = not iban_line(swapped)
                assert caught or not (first in DIGITS and second in DIGITS), swapped
                count += 1
        # Each BBAN character changed to one of the other kind (a digit for a letter, a letter for a
        # digit), with the check digits made right again: only the registry's structure can
        # refuse these (a letter where it says n, a digit where it says a; c takes both).
        bban = electronic[4:]
        for index, original in enumerate(bban):
            changed = bban[:index] + ("7" if original.isalpha() else "K") + bban[index + 1 :]
            number = country + stdnum.iban.calc_check_digits(country + "00" + changed) + changed
            iban_line(number)
            count += 1
        # One character more and one fewer: a length the registry does not give the country.
        assert not iban_line(electronic + "0") and not iban_line(electronic[:-1])
        count += 2
    return count


CORPORA = {"dates": dates, "luhn": luhn, "gtin": gtin, "isbn": isbn, "iban": iban}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in CORPORA:
        sys.exit("usage: checks_oracle.py " + "|".join(CORPORA))
    if stdnum.__version__ != "2.2":
        sys.exit(f"python-stdnum {stdnum.__version__}: the corpora are made with 2.2 (make test-deps)")
    lines = CORPORA[sys.argv[1]]()
    sys.stdout.flush()
    print(f"{sys.argv[1]}: {lines} lines", file=sys.stderr)
