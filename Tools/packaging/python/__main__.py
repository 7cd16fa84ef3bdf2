"""`python -m maskclean ARGS`: runs the binary with ARGS, as `maskclean ARGS` does."""

import os
import sys

from maskclean import find_maskclean_bin


def main() -> None:
    binary = find_maskclean_bin()
    # The binary takes this process's place: its exit status and signals are the command's.
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
