#!/usr/bin/env bash
# Checks the Debian package `make dist` builds (make test-dist runs it):
#   check-deb.sh dist/SHA256SUMS REFERENCE_BINARY
# - it is dist/maskclean_VERSION_ARCH.deb, ARCH dpkg's, with the fields a package needs and a
#   Depends that names the C runtime's packages only (libc6, libgcc-s1, libstdc++6), libc6 among
#   them;
# - it holds the binary in /usr/bin, the manual gzipped in /usr/share/man/man1, the completions
#   where bash, Debian's zsh and fish look, and README, changelog and copyright in
#   /usr/share/doc/maskclean, lintian's overrides for zlib and libyaml linked in, and nothing else;
# - lintian (Debian's own checker) reports no error;
# - unpacked into a scratch root (dpkg -x), its maskclean prints VERSION and runs the demo and
#   `check` without the toolchain as REFERENCE_BINARY does (common.sh).
set -euo pipefail

check=check-deb
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=Tests/dist/common.sh
. "$repo/Tests/dist/common.sh"

[ $# = 2 ] || fail "usage: check-deb.sh dist/SHA256SUMS REFERENCE_BINARY"
dist=$(cd "$(dirname "$1")" && pwd)
reference=$(realpath "$2")
version=$(sed -n 's/^public let maskcleanVersion = "\([^"]*\)".*/\1/p' "$repo/Sources/MaskClean/Reports/ReportOrigin.swift")
arch=$(dpkg --print-architecture)
name="maskclean_${version}_$arch.deb"
deb="$dist/$name"
stage="$dist/maskclean-$version-linux-$(uname -m)"
[ -f "$deb" ] || fail "$name is not in $dist: $(cd "$dist" && ls)"
grep -q "  $name\$" "$1" || fail "$1 does not list $name"

# 1. Its fields.
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = maskclean ] || fail "$name: Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "$name: Version is '$(field Version)', not $version"
[ "$(field Architecture)" = "$arch" ] || fail "$name: Architecture is '$(field Architecture)', not $arch"
for required in Maintainer Installed-Size Section Priority Description; do
    [ -n "$(field "$required")" ] || fail "$name has no $required"
done
depends=$(field Depends)
packages=$(echo "$depends" | tr ',' '\n' | sed -e 's/(.*)//' -e 's/ //g' | sort -u | tr '\n' ' ')
for package in $packages; do
    case $package in
        libc6 | libgcc-s1 | libstdc++6) ;;
        *) fail "$name depends on $package, which is not the C runtime: Depends: $depends" ;;
    esac
done
case " $packages" in *" libc6 "*) ;; *) fail "$name does not depend on libc6: Depends: $depends" ;; esac

# 2. What it holds.
expected="./usr/bin/maskclean
./usr/share/bash-completion/completions/maskclean
./usr/share/doc/maskclean/README.md.gz
./usr/share/doc/maskclean/changelog.gz
./usr/share/doc/maskclean/copyright
./usr/share/fish/vendor_completions.d/maskclean.fish
./usr/share/lintian/overrides/maskclean
./usr/share/man/man1/maskclean.1.gz
./usr/share/zsh/vendor-completions/_maskclean"
files=$(dpkg-deb --contents "$deb" | awk '$1 !~ /^d/ {print $6}' | sort)
[ "$files" = "$expected" ] || fail "$name holds:
$files
expected:
$expected"
owners=$(dpkg-deb --contents "$deb" | awk '{print $2}' | sort -u)
[ "$owners" = "root/root" ] || fail "$name has files owned by $owners, not root/root"

# 3. lintian: no error (its warnings are shown). The binary's zlib and libyaml are linked in by
# design, and the package says so in lintian's overrides: only those two tags may be overridden.
lintian --fail-on error --display-level ">=warning" "$deb" >"$work/lintian.log" 2>&1 || {
    cat "$work/lintian.log" >&2
    fail "lintian reports errors on $name"
}
grep -q '^E:' "$work/lintian.log" && fail "lintian reports errors on $name: $(cat "$work/lintian.log")"
[ -s "$work/lintian.log" ] && sed 's/^/check-deb: lintian: /' "$work/lintian.log"
overridden=$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/share/lintian/overrides/maskclean | grep -v '^#' | sort)
[ "$overridden" = "maskclean: embedded-library libyaml [usr/bin/maskclean]
maskclean: embedded-library zlib [usr/bin/maskclean]" ] || fail "$name overrides other lintian tags: $overridden"

# 4. Unpacked into a scratch root.
root="$work/root"
dpkg -x "$deb" "$root"
cmp -s "$root/usr/bin/maskclean" "$stage/bin/maskclean" || fail "$name's usr/bin/maskclean is not the staged binary"
zcat "$root/usr/share/man/man1/maskclean.1.gz" | cmp -s - "$repo/man/maskclean.1" \
    || fail "$name's manual is not man/maskclean.1"
sed '1{/^#!/d}' "$stage/share/bash-completion/completions/maskclean" \
    | cmp -s - "$root/usr/share/bash-completion/completions/maskclean" \
    || fail "$name's bash completion is not the staged one (without its #! line)"
cmp -s "$root/usr/share/zsh/vendor-completions/_maskclean" "$stage/share/zsh/site-functions/_maskclean" \
    || fail "$name's zsh completion is not the staged one"
cmp -s "$root/usr/share/fish/vendor_completions.d/maskclean.fish" "$stage/share/fish/vendor_completions.d/maskclean.fish" \
    || fail "$name's fish completion is not the staged one"
zcat "$root/usr/share/doc/maskclean/README.md.gz" | cmp -s - "$repo/README.md" || fail "$name's README is not README.md"
grep -q '^License: Expat$' "$root/usr/share/doc/maskclean/copyright" \
    && grep -q 'THE SOFTWARE IS PROVIDED "AS IS"' "$root/usr/share/doc/maskclean/copyright" \
    || fail "$name's copyright does not hold the licence"
[ "$(env -i PATH="$bare_path" "$root/usr/bin/maskclean" --version)" = "$version" ] \
    || fail "$name's maskclean does not print $version for --version"
demo_reference "$reference"
demo_matches deb "$root/usr/bin" maskclean

echo "check-deb: $name: Depends: $depends; lintian reports no error; unpacked, it runs the demo and check without the toolchain as the regular build does"
