"""orjson's load-and-dump of every line, on one core: python orjson_roundtrip.py INPUT.ndjson OUTPUT"""
import sys

import orjson


def main(source, target):
    with open(source, "rb") as lines, open(target, "wb") as out:
        for line in lines:
            out.write(orjson.dumps(orjson.loads(line)))
            out.write(b"\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
