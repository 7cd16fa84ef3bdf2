"""The job every peer does, as a table: maskclean's bench/spec.json approximated the way a data
engineer would write it without input masks. Keep only the digits (a regular expression), choose
a format by how many digits there are, and call the value complete, lossy, incomplete or empty
by its length.

Each format is a list of pieces: a string is a literal, a number takes that many digits.
"""

COLUMNS = {
    "phone": {
        # "+1 555 123 4567": the country code is the format's literal, not part of the number.
        "drop_leading_one_at": 11,
        "formats": [
            ((10, 10), ["+1 (", 3, ") ", 3, "-", 4]),
            ((11, 14), ["+1 (", 3, ") ", 3, "-", 4, " x", 4]),
            ((7, 7), [3, "-", 4]),
        ],
        "most_digits": 14,
    },
    "card": {
        "formats": [
            ((16, 16), [4, " ", 4, " ", 4, " ", 4]),
            ((15, 15), [4, " ", 6, " ", 5]),
        ],
        "most_digits": 16,
    },
    "date": {
        "formats": [
            ((8, 8), [2, "/", 2, "/", 4]),
            ((6, 6), [2, "/", 2, "/", 2]),
        ],
        "most_digits": 8,
    },
    "zip": {
        "formats": [
            ((5, 5), [5, "-"]),
            ((9, 9), [5, "-", 4]),
        ],
        "most_digits": 9,
    },
}


def slices(pieces):
    """(literal, None) or (None, (start, length)) for each piece, in order."""
    start = 0
    for piece in pieces:
        if isinstance(piece, str):
            yield piece, None
        else:
            yield None, (start, piece)
            start += piece
