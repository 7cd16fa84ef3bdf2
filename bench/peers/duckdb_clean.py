"""The bench job in DuckDB SQL: python duckdb_clean.py INPUT.csv OUTPUT.csv"""
import sys

import duckdb

from job import COLUMNS, slices


def quoted(text):
    return "'" + text.replace("'", "''") + "'"


def cleaned(name, rule):
    raw = f"regexp_replace(coalesce({name}, ''), '[^0-9]', '', 'g')"
    digits = raw
    if "drop_leading_one_at" in rule:
        digits = (f"CASE WHEN length({raw}) = {rule['drop_leading_one_at']} AND {raw} LIKE '1%' "
                  f"THEN substr({raw}, 2) ELSE {raw} END")
    return f"left({digits}, {rule['most_digits']}) AS {name}_d, length({raw}) AS {name}_n"


def output(name, rule):
    d, n = f"{name}_d", f"length({name}_d)"
    cases, complete = [], []
    for (low, high), pieces in rule["formats"]:
        parts = [quoted(text) if text is not None else f"substr({d}, {start + 1}, {length})"
                 for text, (start, length) in ((t, s or (0, 0)) for t, s in slices(pieces))]
        cases.append(f"WHEN {n} BETWEEN {low} AND {high} THEN {' || '.join(parts)}")
        complete.append(f"{n} BETWEEN {low} AND {high}")
    formatted = f"CASE {' '.join(cases)} ELSE {d} END AS {name}_formatted"
    status = (f"CASE WHEN {n} = 0 THEN 'empty' WHEN {name}_n > {rule['most_digits']} "
              f"THEN 'lossy' WHEN {' OR '.join(complete)} THEN 'complete' "
              f"ELSE 'incomplete' END AS {name}_status")
    return f"{formatted}, {d} AS {name}_extracted, {status}"


def main(source, target):
    derived = ", ".join(cleaned(name, rule) for name, rule in COLUMNS.items())
    outputs = ", ".join(output(name, rule) for name, rule in COLUMNS.items())
    duckdb.sql(f"""
        COPY (
            WITH digits AS (
                SELECT *, {derived} FROM read_csv({quoted(source)}, all_varchar = true)
            )
            SELECT id, name, phone, card, date, zip, note, {outputs} FROM digits
        ) TO {quoted(target)} (HEADER, DELIMITER ',')
    """)


if __name__ == "__main__":
    main(*sys.argv[1:])
