#!/usr/bin/env bash
# Checks the tarball `make dist` builds (make test-dist runs it):
#   check-dist.sh dist/maskclean-VERSION-linux-ARCH.tar.gz REFERENCE_BINARY
# - it holds one directory, maskclean-VERSION-linux-ARCH/, with bin/maskclean, the manual, the
#   bash, zsh and fish completions, the README and the licence, and nothing else;
# - ldd lists only the C runtime for its binary (libc, libm, libstdc++, libgcc_s, the loader,
#   linux-vdso), and the binary is stripped and at most 20 MB (docs/install.md: Foundation's
#   internationalisation data, ICU, is not in it);
# - unpacked into a temporary directory and run under `env -i` with an empty LD_LIBRARY_PATH and a
#   PATH without the Swift toolchain, it runs the demo (Fixtures/demo) and `check` exactly as
#   REFERENCE_BINARY (the regular build, which needs the toolchain's libraries) does: same exit
#   statuses, same summaries, byte-identical records and reports (common.sh);
# - its --version is the VERSION of its name;
# - its shell completions are the ones the binary writes, and bash and fish load them;
# - `make install PREFIX=/usr/local DESTDIR=…` installs that binary, the manual and the
#   completions, and nothing else;
# - a DIST_ROOT that is a symbolic link is refused, and nothing behind it touched.
set -euo pipefail

check=check-dist
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=Tests/dist/common.sh
. "$repo/Tests/dist/common.sh"

[ $# = 2 ] || fail "usage: check-dist.sh TARBALL REFERENCE_BINARY"
tarball=$(realpath "$1")
reference=$(realpath "$2")
[ -f "$tarball" ] || fail "$1: no such tarball (make dist builds it)"
[ -x "$reference" ] || fail "$2: no such binary"

name=$(basename "$tarball" .tar.gz)
version=${name#maskclean-}
version=${version%-linux-*}
[ "$name" = "maskclean-$version-linux-$(uname -m)" ] \
    || fail "$name: expected maskclean-VERSION-linux-$(uname -m)"

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
$name/share/bash-completion/
$name/share/bash-completion/completions/
$name/share/bash-completion/completions/maskclean
$name/share/fish/
$name/share/fish/vendor_completions.d/
$name/share/fish/vendor_completions.d/maskclean.fish
$name/share/man/
$name/share/man/man1/
$name/share/man/man1/maskclean.1
$name/share/zsh/
$name/share/zsh/site-functions/
$name/share/zsh/site-functions/_maskclean"
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
# Swift's per-object module hashes differ from build to build: make dist zeroes them
# (Tools/packaging/normalize-binary.py), or no two builds would be the same bytes.
modhash=$(objcopy -O binary --only-section=.swift_modhash "$packed" /dev/stdout | od -An -v -tx1 | tr -d ' 0\n')
[ -z "$modhash" ] || fail "$name/bin/maskclean's .swift_modhash is not zeroed (normalize-binary.py did not run)"
size=$(stat -c %s "$packed")
[ "$size" -le 20000000 ] \
    || fail "$name/bin/maskclean is $size bytes, over 20 MB: has something brought in Foundation's ICU data again? (docs/install.md)"

# 3. The demo and check, with nothing of the toolchain reachable.
demo_reference "$reference"
demo_matches tarball "" "$packed"

# Where a mount namespace can be made (root, outside a locked-down container), once more with the
# toolchain's directory itself hidden under an empty tmpfs, so that nothing could load from it.
hidden=""
case $(dirname "${toolchain_bin:-/}") in
    / | /usr | /usr/local) toolchain_bin="" ;; # a system directory: hiding it hides the shell too
esac
if [ -n "$toolchain_bin" ] && unshare -m true 2>/dev/null; then
    hidden=$(dirname "$toolchain_bin")
    mkdir "$work/hidden"
    status=0
    (cd "$work" && unshare -m sh -c 'mount -t tmpfs none "$1" && shift && exec "$@"' sh "$hidden" \
        env -i PATH="$bare_path" LD_LIBRARY_PATH= HOME="$work" LC_ALL=C.UTF-8 \
        "$packed" run demo/spec.json demo/customers.csv -o hidden/customers.clean.csv \
        --report hidden/report.json >"$work/hidden.stdout" 2>"$work/hidden.stderr") || status=$?
    [ "$status" = 1 ] \
        || fail "$name/bin/maskclean exited $status on the demo with $hidden hidden: $(cat "$work/hidden.stderr")"
    untime "$work/hidden/report.json" >"$work/hidden/report.json.untimed"
    for output in customers.clean.csv report.json.untimed; do
        cmp -s "$work/hidden/$output" "$work/reference/run/$output" \
            || fail "the demo's ${output%.untimed} from $name/bin/maskclean with $hidden hidden differs from the reference's"
    done
fi

# 4. The version.
packed_version=$(env -i PATH="$bare_path" "$packed" --version)
[ "$packed_version" = "$version" ] \
    || fail "$name/bin/maskclean --version prints '$packed_version', its name says '$version'"
[ "$packed_version" = "$("$reference" --version)" ] \
    || fail "$name/bin/maskclean --version prints '$packed_version', the reference '$("$reference" --version)'"

# 5. The completions: what the binary writes for each shell, and bash and fish read them.
completions="$work/unpacked/$name/share"
for shell in bash zsh fish; do
    case $shell in
        bash) file=bash-completion/completions/maskclean ;;
        zsh) file=zsh/site-functions/_maskclean ;;
        fish) file=fish/vendor_completions.d/maskclean.fish ;;
    esac
    env -i PATH="$bare_path" "$packed" --generate-completion-script "$shell" | cmp -s - "$completions/$file" \
        || fail "$name/share/$file is not what maskclean --generate-completion-script $shell writes"
done
grep -q -- '--report' "$completions/bash-completion/completions/maskclean" \
    || fail "the bash completion does not offer --report"
bash -c '. "$1" && complete -p maskclean' sh "$completions/bash-completion/completions/maskclean" >/dev/null \
    || fail "bash cannot load $name/share/bash-completion/completions/maskclean"
if command -v fish >/dev/null 2>&1; then
    fish --no-execute "$completions/fish/vendor_completions.d/maskclean.fish" \
        || fail "fish cannot read $name/share/fish/vendor_completions.d/maskclean.fish"
fi

# 6. make install, into a DESTDIR.
root="$work/root"
make -s -C "$repo" install PREFIX=/usr/local DESTDIR="$root" >"$work/install.log" 2>&1 \
    || fail "make install failed: $(tail -n 20 "$work/install.log")"
installed=$(cd "$root" && find . -type f | sort)
expected_installed="./usr/local/bin/maskclean
./usr/local/share/bash-completion/completions/maskclean
./usr/local/share/fish/vendor_completions.d/maskclean.fish
./usr/local/share/man/man1/maskclean.1
./usr/local/share/zsh/site-functions/_maskclean"
[ "$installed" = "$expected_installed" ] \
    || fail "make install DESTDIR=… installed:
$installed
expected:
$expected_installed"
[ -x "$root/usr/local/bin/maskclean" ] || fail "the installed maskclean is not executable"
cmp -s "$root/usr/local/bin/maskclean" "$packed" \
    || fail "make install installed a binary other than the one in $name.tar.gz"
cmp -s "$root/usr/local/share/man/man1/maskclean.1" "$repo/man/maskclean.1" \
    || fail "make install installed a manual other than man/maskclean.1"
for file in bash-completion/completions/maskclean fish/vendor_completions.d/maskclean.fish zsh/site-functions/_maskclean; do
    cmp -s "$root/usr/local/share/$file" "$completions/$file" \
        || fail "make install installed a share/$file other than the tarball's"
done
[ "$(env -i PATH="$bare_path" "$root/usr/local/bin/maskclean" --version)" = "$version" ] \
    || fail "the installed maskclean does not print $version for --version"

# 7. A DIST_ROOT that is a link (another user's trap in /tmp) is refused before anything is
#    removed or copied through it.
mkdir "$work/victim"
touch "$work/victim/keep"
ln -s "$work/victim" "$work/link-root"
if make -s -C "$repo" dist-stage DIST_ROOT="$work/link-root" >"$work/link.log" 2>&1; then
    fail "make dist-stage built in a DIST_ROOT that is a link"
fi
grep -q "is a link or another user's" "$work/link.log" \
    || fail "make dist-stage with a linked DIST_ROOT did not say why: $(tail -n 5 "$work/link.log")"
[ -f "$work/victim/keep" ] || fail "make dist-stage removed files through a linked DIST_ROOT"

echo "check-dist: $name.tar.gz: only the C runtime in ldd; the demo and check run without the toolchain on PATH${hidden:+ and with $hidden hidden} as the regular build runs them; its completions load; make install DESTDIR=… installs it"
