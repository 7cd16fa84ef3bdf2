#!/usr/bin/env bash
# Checks the tarball `make dist` builds (make test-dist runs it):
#   check-dist.sh dist/maskclean-VERSION-linux-ARCH.tar.gz REFERENCE_BINARY
# - it holds one directory, maskclean-VERSION-linux-ARCH/, with bin/maskclean, the manual, the
#   README and the licence, and nothing else;
# - ldd lists only the C runtime for its binary (libc, libm, libstdc++, libgcc_s, the loader,
#   linux-vdso), and the binary is stripped;
# - unpacked into a temporary directory and run under `env -i` with an empty LD_LIBRARY_PATH and a
#   PATH without the Swift toolchain, it runs the demo (Fixtures/demo) exactly as REFERENCE_BINARY
#   (the regular build, which needs the toolchain's libraries) does: same exit status (1, by the
#   demo's design), same summary, byte-identical records and reports;
# - its --version is the VERSION of its name;
# - `make install PREFIX=/usr/local DESTDIR=…` installs that binary and the manual, and nothing else.
set -euo pipefail

fail() {
    echo "check-dist: $*" >&2
    exit 1
}

[ $# = 2 ] || fail "usage: check-dist.sh TARBALL REFERENCE_BINARY"
repo=$(cd "$(dirname "$0")/../.." && pwd)
tarball=$(realpath "$1")
reference=$(realpath "$2")
[ -f "$tarball" ] || fail "$1: no such tarball (make dist builds it)"
[ -x "$reference" ] || fail "$2: no such binary"

name=$(basename "$tarball" .tar.gz)
version=${name#maskclean-}
version=${version%-linux-*}
[ "$name" = "maskclean-$version-linux-$(uname -m)" ] \
    || fail "$name: expected maskclean-VERSION-linux-$(uname -m)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The C runtime, as ldd names it. Everything else (the Swift runtime, Foundation, libcsv, zlib,
# libzstd as shared objects) would tie the binary to this machine.
c_runtime='^(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libstdc\+\+\.so\.6|libgcc_s\.so\.1|ld-linux-[a-z0-9_-]+\.so\.[0-9]+)$'

# Prints each library that ldd lists for $1 and that is not the C runtime, one a line.
foreign_libraries() {
    ldd "$1" | awk '{print $1}' | xargs -n 1 basename | grep -Ev "$c_runtime" || true
}

# The check must be able to fail: the regular build links the toolchain's libraries.
[ -n "$(foreign_libraries "$reference")" ] \
    || fail "the ldd check finds nothing but the C runtime in $reference, which links the Swift runtime: the check is broken"

# 1. What the tarball holds.
expected_entries="$name/
$name/LICENSE
$name/README.md
$name/bin/
$name/bin/maskclean
$name/share/
$name/share/man/
$name/share/man/man1/
$name/share/man/man1/maskclean.1"
entries=$(tar -tzf "$tarball" | sort)
[ "$entries" = "$expected_entries" ] \
    || fail "$tarball holds:
$entries
expected:
$expected_entries"

mkdir "$work/unpacked"
tar -xzf "$tarball" -C "$work/unpacked"
packed="$work/unpacked/$name/bin/maskclean"
[ -x "$packed" ] || fail "$name/bin/maskclean is not executable"
cmp -s "$work/unpacked/$name/share/man/man1/maskclean.1" "$repo/man/maskclean.1" \
    || fail "$name/share/man/man1/maskclean.1 differs from man/maskclean.1"
cmp -s "$work/unpacked/$name/README.md" "$repo/README.md" || fail "$name/README.md differs from README.md"
cmp -s "$work/unpacked/$name/LICENSE" "$repo/LICENSE" || fail "$name/LICENSE differs from LICENSE"

# 2. Only the C runtime, and stripped.
foreign=$(foreign_libraries "$packed")
if [ -n "$foreign" ]; then
    fail "ldd lists libraries other than the C runtime for $name/bin/maskclean: $(echo $foreign)"
fi
ldd "$packed" | grep -q 'not found' && fail "ldd: a library of $name/bin/maskclean is not found"
readelf -S "$packed" | grep -q '\.symtab' && fail "$name/bin/maskclean is not stripped (it has a .symtab)"

# 3. The demo, with nothing of the toolchain reachable. The minimal PATH keeps the usual system
# directories that hold no Swift toolchain, and never the one the swift on our PATH comes from.
toolchain_bin=""
if command -v swift >/dev/null 2>&1; then
    toolchain_bin=$(dirname "$(realpath "$(command -v swift)")")
fi
bare_path=""
for dir in /usr/local/bin /usr/bin /bin; do
    [ -d "$dir" ] || continue
    [ "$(realpath "$dir")" = "$toolchain_bin" ] && continue
    [ -e "$dir/swift" ] || [ -e "$dir/swiftc" ] && continue
    bare_path="${bare_path:+$bare_path:}$dir"
done
case ":$bare_path:" in
    *swift*) fail "the minimal PATH $bare_path still names a Swift directory" ;;
esac

cp "$repo/Fixtures/demo/spec.json" "$repo/Fixtures/demo/customers.csv" "$work/"
demo_args=(run spec.json customers.csv -o OUT/customers.clean.csv --report OUT/report.json
    --html OUT/report.html)

# Runs the demo with binary $1 in $work, outputs in $work/$2; prints the exit status.
run_demo() {
    local binary=$1 out=$2 status=0
    mkdir -p "$work/$out"
    (
        cd "$work"
        if [ "$out" = packed ]; then
            env -i PATH="$bare_path" LD_LIBRARY_PATH= HOME="$work" LC_ALL=C.UTF-8 \
                "$binary" "${demo_args[@]/OUT/$out}" >"$work/$out.stdout" 2>"$work/$out.stderr"
        else
            "$binary" "${demo_args[@]/OUT/$out}" >"$work/$out.stdout" 2>"$work/$out.stderr"
        fi
    ) || status=$?
    echo "$status"
}

reference_status=$(run_demo "$reference" reference)
packed_status=$(run_demo "$packed" packed)
[ "$reference_status" = 1 ] \
    || fail "the reference binary exited $reference_status on the demo (expected 1: the demo misses a threshold by design)"
[ "$packed_status" = "$reference_status" ] \
    || fail "$name/bin/maskclean exited $packed_status on the demo without the toolchain; the reference exited $reference_status: $(cat "$work/packed.stderr")"
cmp -s "$work/packed.stderr" "$work/reference.stderr" \
    || fail "the demo's summary differs: $name/bin/maskclean wrote
$(cat "$work/packed.stderr")
the reference wrote
$(cat "$work/reference.stderr")"
grep -q '^1000 rows: FAILED (1 column below threshold)$' "$work/packed.stderr" \
    || fail "the demo's summary misses its last line: $(cat "$work/packed.stderr")"
# The reports say when the run started and how long it took (docs/report.md): those aside, they
# must be the same too.
untime() {
    sed -e 's|"started": "[^"]*"|"started": TIME|' -e 's|"durationSeconds": [0-9.]*|"durationSeconds": TIME|' \
        -e 's|<dd id="started">[^<]*</dd>|<dd id="started">TIME</dd>|' \
        -e 's|<dd id="elapsed">[^<]*</dd>|<dd id="elapsed">TIME</dd>|' "$1"
}
for out in packed reference; do
    untime "$work/$out/report.html" >"$work/$out/report.untimed.html"
    untime "$work/$out/report.json" >"$work/$out/report.untimed.json"
done
for output in customers.clean.csv report.untimed.json report.untimed.html; do
    [ -s "$work/packed/$output" ] || fail "$name/bin/maskclean wrote no $output on the demo"
    cmp -s "$work/packed/$output" "$work/reference/$output" \
        || fail "the demo's $output from $name/bin/maskclean differs from the reference's"
done
grep -q '"rows": 1000' "$work/packed/report.json" || fail "the demo's report.json does not count 1000 rows"

# Where a mount namespace can be made (root, outside a locked-down container), once more with the
# toolchain's directory itself hidden under an empty tmpfs, so that nothing could load from it.
hidden=""
if [ -n "$toolchain_bin" ] && unshare -m true 2>/dev/null; then
    hidden=$(dirname "$toolchain_bin")
    mkdir "$work/hidden"
    status=0
    (cd "$work" && unshare -m sh -c 'mount -t tmpfs none "$1" && shift && exec "$@"' sh "$hidden" \
        env -i PATH="$bare_path" LD_LIBRARY_PATH= HOME="$work" LC_ALL=C.UTF-8 \
        "$packed" run spec.json customers.csv -o hidden/customers.clean.csv \
        --report hidden/report.json >"$work/hidden.stdout" 2>"$work/hidden.stderr") || status=$?
    [ "$status" = 1 ] \
        || fail "$name/bin/maskclean exited $status on the demo with $hidden hidden: $(cat "$work/hidden.stderr")"
    untime "$work/hidden/report.json" >"$work/hidden/report.untimed.json"
    for output in customers.clean.csv report.untimed.json; do
        cmp -s "$work/hidden/$output" "$work/reference/$output" \
            || fail "the demo's $output from $name/bin/maskclean with $hidden hidden differs from the reference's"
    done
fi

# 4. The version.
packed_version=$(env -i PATH="$bare_path" "$packed" --version)
[ "$packed_version" = "$version" ] \
    || fail "$name/bin/maskclean --version prints '$packed_version', its name says '$version'"
[ "$packed_version" = "$("$reference" --version)" ] \
    || fail "$name/bin/maskclean --version prints '$packed_version', the reference '$("$reference" --version)'"

# 5. make install, into a DESTDIR.
root="$work/root"
make -s -C "$repo" install PREFIX=/usr/local DESTDIR="$root" >"$work/install.log" 2>&1 \
    || fail "make install failed: $(tail -n 20 "$work/install.log")"
installed=$(cd "$root" && find . -type f | sort)
[ "$installed" = "./usr/local/bin/maskclean
./usr/local/share/man/man1/maskclean.1" ] \
    || fail "make install DESTDIR=… installed:
$installed
expected ./usr/local/bin/maskclean and ./usr/local/share/man/man1/maskclean.1"
[ -x "$root/usr/local/bin/maskclean" ] || fail "the installed maskclean is not executable"
cmp -s "$root/usr/local/bin/maskclean" "$packed" \
    || fail "make install installed a binary other than the one in $name.tar.gz"
cmp -s "$root/usr/local/share/man/man1/maskclean.1" "$repo/man/maskclean.1" \
    || fail "make install installed a manual other than man/maskclean.1"
[ "$(env -i PATH="$bare_path" "$root/usr/local/bin/maskclean" --version)" = "$version" ] \
    || fail "the installed maskclean does not print $version for --version"

echo "check-dist: $name.tar.gz: only the C runtime in ldd; the demo runs without the toolchain on PATH${hidden:+ and with $hidden hidden} as the regular build runs it; make install DESTDIR=… installs it"
