#!/usr/bin/env python3
"""The phone columns' oracle: a corpus of phone numbers over every region, written the ways people
write them, each with libphonenumber's verdict (PyPI's `phonenumbers`, the Python port, pinned in
the Makefile to the metadata version of Sources/MaskClean/Phone/NumberingPlanData.swift).

    python phone_oracle.py [--seed N] [--variants K]

Prints one line per value, tab-separated:

    KIND  VALUE  DEFAULT-REGION  PARSED  VALID  E164  INTERNATIONAL  NATIONAL  REGION

KIND names how the value was written (`international`, `idd`, `national`, `letter`, …); a
`letter` value has a letter typed for one digit. DEFAULT-REGION is empty for a value read without
one. PARSED is `parsed` or libphonenumber's error; the other fields are empty when it did not
parse. The numbers are each region's example numbers of every type, and variants of them with
their last digits changed (still in their ranges or not: libphonenumber decides).

One difference from libphonenumber is maskclean's on purpose (docs/spec.md#phone-columns): `00`
is read as an international prefix even without a region, or where the region's own is another;
such values are given to libphonenumber with `+` in its place.
"""

import argparse
import random
import re
import sys

import phonenumbers
from phonenumbers import PhoneNumberFormat, PhoneNumberType
from phonenumbers.phonemetadata import PhoneMetadata

TYPES = [PhoneNumberType.FIXED_LINE, PhoneNumberType.MOBILE, PhoneNumberType.TOLL_FREE,
         PhoneNumberType.PREMIUM_RATE, PhoneNumberType.SHARED_COST, PhoneNumberType.VOIP,
         PhoneNumberType.PERSONAL_NUMBER, PhoneNumberType.PAGER, PhoneNumberType.UAN,
         PhoneNumberType.VOICEMAIL]
EXTENSIONS = [" ext. {}", " x{}", ";ext={}", " extension {}", " #{}"]
LETTERS = "OlIoSB"


def examples():
    """(region, number) for every example number of every type, the non-geographic codes' too."""
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        for number_type in TYPES:
            number = phonenumbers.example_number_for_type(region, number_type)
            if number is not None:
                yield region, number
    for code in sorted(phonenumbers.COUNTRY_CODES_FOR_NON_GEO_REGIONS):
        number = phonenumbers.example_number_for_non_geo_entity(code)
        if number is not None:
            yield None, number


def variants(number, count, rng):
    """The number and `count` others with 1 to 3 of their last digits changed."""
    national = phonenumbers.national_significant_number(number)
    yield national
    for _ in range(count):
        changed = min(len(national) - 1, rng.randint(1, 3))
        yield national[:-changed] + "".join(rng.choice("0123456789") for _ in range(changed))


def writings(code, national, region, rng):
    """(kind, value) for the ways the number is written."""
    number = phonenumbers.parse("+" + str(code) + national)
    international = phonenumbers.format_number(number, PhoneNumberFormat.INTERNATIONAL)
    national_text = phonenumbers.format_number(number, PhoneNumberFormat.NATIONAL)
    grouped = international.split(" ", 1)[1] if " " in international else national
    yield "international", international
    yield "international", international.replace(" ", "-")
    yield "international", "+" + str(code) + "." + grouped.replace(" ", ".")
    yield "e164", "+" + str(code) + national
    yield "international", "(+" + str(code) + ") " + grouped
    yield "idd", "00 " + str(code) + " " + grouped
    yield "national", national_text
    yield "national", re.sub(r"[ ()-]", "", national_text)
    yield "national-without-prefix", grouped
    yield "extension", international + rng.choice(EXTENSIONS).format(rng.randint(1, 99999))
    yield "one-digit-too-few", international[:-1]
    yield "one-digit-too-many", international + str(rng.randint(0, 9))
    digits = [index for index, character in enumerate(international) if character.isdigit()]
    position = rng.choice(digits[len(str(code)):] or digits)
    yield "letter", international[:position] + rng.choice(LETTERS) + international[position + 1:]
    # Without `+`, the region's own code first; and dialled from elsewhere, with that region's
    # international prefix (given that region as the default).
    yield "code-without-plus", str(code) + " " + grouped
    yield "dialled-from-US", ("US", "011 " + str(code) + " " + grouped)
    yield "dialled-from-RU", ("RU", "8~10 " + str(code) + " " + grouped)
    yield "dialled-from-JP", ("JP", "010-" + str(code) + "-" + grouped.replace(" ", "-"))
    yield "dialled-from-AU", ("AU", "0011 " + str(code) + " " + grouped)


def idd_matches(value, region):
    """Whether libphonenumber takes the value's start for the region's international prefix."""
    if region is None:
        return False
    metadata = PhoneMetadata.metadata_for_region(region)
    digits = re.sub(r"\D", "", value)
    prefix = metadata.international_prefix
    if not prefix:
        return False
    match = re.match(prefix, digits)
    return bool(match) and match.end() < len(digits) and digits[match.end()] != "0"


def verdict(value, region):
    given = value
    stripped = value.lstrip()
    if stripped.startswith("00") and not idd_matches(value, region):
        digits = re.sub(r"\D", "", stripped)
        if len(digits) > 2 and digits[2] != "0":
            given = "+" + stripped[2:]
    try:
        number = phonenumbers.parse(given, region)
    except phonenumbers.NumberParseException as error:
        return [error.error_type.__class__.__name__ + str(error.error_type), "", "", "", "", ""]
    return ["parsed", "valid" if phonenumbers.is_valid_number(number) else "invalid",
            phonenumbers.format_number(number, PhoneNumberFormat.E164),
            phonenumbers.format_number(number, PhoneNumberFormat.INTERNATIONAL),
            phonenumbers.format_number(number, PhoneNumberFormat.NATIONAL),
            phonenumbers.region_code_for_number(number) or ""]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--variants", type=int, default=6)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    out = sys.stdout
    for region, example in examples():
        code = example.country_code
        for national in variants(example, arguments.variants, rng):
            for kind, value in writings(code, national, region, rng):
                defaults = [region, None] if region else [None]
                if isinstance(value, tuple):
                    defaults, value = [value[0]], value[1]
                for default in defaults:
                    fields = [kind, value, default or ""] + verdict(value, default)
                    if any("\t" in field or "\n" in field for field in fields):
                        continue
                    out.write("\t".join(fields) + "\n")


main()
