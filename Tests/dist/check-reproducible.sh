#!/usr/bin/env bash
# Checks that the packages are reproducible (make test-dist runs the first form, make
# check-reproducible the second):
#   check-reproducible.sh dist/SHA256SUMS
#       packs the same commit again (make dist: the staged binary, the tarball, the wheel and the
#       Debian package, built again later in time) and compares the new SHA256SUMS with the first:
#       every byte the packing adds is fixed by the commit (SOURCE_DATE_EPOCH, owners, order);
#   check-reproducible.sh --from-scratch
#       clones the commit twice, into directories of different names, builds `make dist` in each
#       from nothing (the Swift build included) and compares their SHA256SUMS: the binary too is
#       the same whoever builds the commit where. Takes two release builds.
set -euo pipefail

check=check-reproducible
fail() {
    echo "$check: $*" >&2
    exit 1
}
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

compare() {
    if ! cmp -s "$1" "$2"; then
        fail "two builds of $3 differ:
$(diff "$1" "$2")"
    fi
}

case ${1:-} in
    --from-scratch)
        commit=$(git -C "$repo" rev-parse HEAD)
        for copy in first second-build; do
            git clone --quiet --no-local "$repo" "$work/$copy"
            git -C "$work/$copy" checkout --quiet "$commit"
            make -s -C "$work/$copy" dist >"$work/$copy.log" 2>&1 \
                || fail "make dist failed in $work/$copy: $(tail -n 20 "$work/$copy.log")"
        done
        compare "$work/first/dist/SHA256SUMS" "$work/second-build/dist/SHA256SUMS" "commit $commit"
        echo "$check: two clones of $commit built from scratch in different directories give the same bytes:"
        cat "$work/first/dist/SHA256SUMS"
        ;;
    "")
        fail "usage: check-reproducible.sh dist/SHA256SUMS | --from-scratch"
        ;;
    *)
        sums=$(realpath "$1")
        [ -f "$sums" ] || fail "$1: no such file (make dist writes it)"
        cp "$sums" "$work/first"
        # Later in time, so that a clock read while packing shows.
        sleep 1
        make -s -C "$repo" dist >"$work/again.log" 2>&1 || fail "make dist failed: $(tail -n 20 "$work/again.log")"
        compare "$work/first" "$sums" "the packages"
        (cd "$(dirname "$sums")" && sha256sum --check --quiet SHA256SUMS) || fail "SHA256SUMS does not match the files beside it"
        echo "$check: packing the same commit again gives the same bytes: $(awk '{print $2}' "$sums" | tr '\n' ' ')"
        ;;
esac
