"""The bench job in Polars, lazily: python polars_clean.py INPUT.csv OUTPUT.csv"""
import sys

import polars as pl

from job import COLUMNS, slices


def cleaned(name, rule):
    digits = pl.col(name).fill_null("").str.replace_all(r"\D", "")
    if "drop_leading_one_at" in rule:
        digits = (pl.when((digits.str.len_chars() == rule["drop_leading_one_at"])
                          & digits.str.starts_with("1"))
                  .then(digits.str.slice(1)).otherwise(digits))
    digits = digits.str.slice(0, rule["most_digits"])
    count = pl.col(name).fill_null("").str.replace_all(r"\D", "").str.len_chars()
    n = digits.str.len_chars()
    formatted = None
    complete = None
    for (low, high), pieces in rule["formats"]:
        parts = [pl.lit(text) if text is not None else digits.str.slice(*span)
                 for text, span in slices(pieces)]
        fits = (n >= low) & (n <= high)
        formatted = (pl.when(fits) if formatted is None else formatted.when(fits)).then(
            pl.concat_str(parts))
        complete = fits if complete is None else complete | fits
    formatted = formatted.otherwise(digits)
    status = (pl.when(n == 0).then(pl.lit("empty"))
              .when(count > rule["most_digits"]).then(pl.lit("lossy"))
              .when(complete).then(pl.lit("complete"))
              .otherwise(pl.lit("incomplete")))
    return [formatted.alias(f"{name}_formatted"), digits.alias(f"{name}_extracted"),
            status.alias(f"{name}_status")]


def main(source, target):
    frame = pl.scan_csv(source, infer_schema=False)
    columns = [expression for name, rule in COLUMNS.items() for expression in cleaned(name, rule)]
    frame.with_columns(columns).sink_csv(target)


if __name__ == "__main__":
    main(*sys.argv[1:])
