#!/usr/bin/env bash
# Checks that the packages are reproducible (make test-dist runs the first form, make
# check-reproducible the second):
#   check-reproducible.sh dist/SHA256SUMS
#       packs the same commit again (make dist: the staged binary, the tarball, the wheel and the
#       Debian package, built again later in time) and compares the new SHA256SUMS with the first:
#       every byte the packing adds is fixed by the commit (SOURCE_DATE_EPOCH, owners, order);
#   check-reproducible.sh --from-scratch
#       clones the commit twice, into directories of different names, builds `make dist` in each
#       from nothing (the Swift build included, in the same DIST_ROOT as make dist always builds
#       in) and compares their SHA256SUMS: the binary too is the same whichever checkout builds
#       it. Takes two release builds.
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
        # Each build starts from nothing: the copy of the sources and the build in DIST_ROOT
        # (the same path both times, as make dist's own is) are removed first.
        commit=$(git -C "$repo" rev-parse HEAD)
        for copy in first second-checkout-elsewhere; do
            git clone --quiet --no-local "$repo" "$work/$copy"
            git -C "$work/$copy" checkout --quiet "$commit"
            rm -rf "$work/dist-root"
            make -s -C "$work/$copy" dist DIST_ROOT="$work/dist-root" >"$work/$copy.log" 2>&1 \
                || fail "make dist failed in $work/$copy: $(tail -n 20 "$work/$copy.log")"
        done
        compare "$work/first/dist/SHA256SUMS" "$work/second-checkout-elsewhere/dist/SHA256SUMS" "commit $commit"
        echo "$check: two checkouts of $commit in different directories, each built from nothing, give the same bytes:"
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
