#!/usr/bin/env bash
# Builds maskclean's Debian package from the staged files of `make dist` (make deb runs it):
#   deb.sh STAGE VERSION OUT_DIR
# STAGE is the unpacked tarball's directory (bin/maskclean, share/…, README.md, LICENSE). The
# package is OUT_DIR/maskclean_VERSION_ARCH.deb, built with dpkg-deb as Debian's own tools lay
# a package out: the binary in /usr/bin, the manual gzipped in /usr/share/man/man1, the
# completions where bash-completion, zsh (Debian's vendor-completions) and fish look, the README,
# the changelog and a machine-readable copyright in /usr/share/doc/maskclean. Depends is what
# dpkg-shlibdeps finds the binary needs: the C runtime's packages only, as the binary that travels
# links nothing else.
#
# Reproducible: every file's time is SOURCE_DATE_EPOCH (the last commit's, from the Makefile),
# owners are root, gzip writes no name or time, and dpkg-deb takes its archive times from
# SOURCE_DATE_EPOCH too.
set -euo pipefail
# Files 644, directories 755, whatever the caller's umask.
umask 022

fail() {
    echo "deb.sh: $*" >&2
    exit 1
}

[ $# = 3 ] || fail "usage: deb.sh STAGE VERSION OUT_DIR"
stage=$(realpath "$1")
version=$2
out=$3
arch=$(dpkg --print-architecture)
: "${SOURCE_DATE_EPOCH:=0}"
export SOURCE_DATE_EPOCH
for path in bin/maskclean share/man/man1/maskclean.1 share/bash-completion/completions/maskclean \
    share/zsh/site-functions/_maskclean share/fish/vendor_completions.d/maskclean.fish README.md LICENSE; do
    [ -f "$stage/$path" ] || fail "$stage/$path is missing (make dist stages it)"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"
doc="$root/usr/share/doc/maskclean"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d" "$doc"
install -m 755 "$stage/bin/maskclean" "$root/usr/bin/maskclean"
gzip -9n <"$stage/share/man/man1/maskclean.1" >"$root/usr/share/man/man1/maskclean.1.gz"
# bash-completion sources the file: Debian wants it without the #! line the generator writes.
sed '1{/^#!/d}' "$stage/share/bash-completion/completions/maskclean" >"$root/usr/share/bash-completion/completions/maskclean"
install -m 644 "$stage/share/zsh/site-functions/_maskclean" "$root/usr/share/zsh/vendor-completions/_maskclean"
install -m 644 "$stage/share/fish/vendor_completions.d/maskclean.fish" "$root/usr/share/fish/vendor_completions.d/maskclean.fish"
gzip -9n <"$stage/README.md" >"$doc/README.md.gz"

# The one binary of every package (tarball, wheel, .deb) has zlib and libyaml linked in, so that
# it needs only the C runtime wherever it is copied; lintian's embedded-library tags say so, and
# are overridden here with that reason.
install -d "$root/usr/share/lintian/overrides"
cat >"$root/usr/share/lintian/overrides/maskclean" <<'OVERRIDES'
# The binary is the same in the tarball, the wheel and this package, and needs only the C runtime:
# zlib and libyaml are linked in from their static archives (docs/install.md).
maskclean: embedded-library libyaml [usr/bin/maskclean]
maskclean: embedded-library zlib [usr/bin/maskclean]
OVERRIDES

# The copyright file in Debian's machine-readable format (DEP-5), the licence's text included.
{
    echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    echo "Upstream-Name: maskclean"
    echo
    echo "Files: *"
    echo "Copyright: 2026 the maskclean authors"
    echo "License: Expat"
    echo
    echo "License: Expat"
    # The licence's own text, without its title and copyright lines, indented as DEP-5 wants.
    sed -n '/^Permission is hereby granted/,$p' "$stage/LICENSE" | sed -e 's/^$/./' -e 's/^/ /'
} >"$doc/copyright"

# A native package's changelog (debian/changelog's format), dated by SOURCE_DATE_EPOCH.
{
    echo "maskclean ($version) unstable; urgency=medium"
    echo
    echo "  * maskclean $version, built from the repository's make deb."
    echo
    echo " -- maskclean maintainers <maintainers@maskclean.invalid>  $(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n >"$doc/changelog.gz"

# Depends, as dpkg-shlibdeps reads the binary's needed libraries and their symbol versions. It
# wants a debian/control to read; this one names only the package.
mkdir -p "$work/shlibs/debian"
printf 'Source: maskclean\n\nPackage: maskclean\nArchitecture: any\n' >"$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O "$root/usr/bin/maskclean" 2>"$work/shlibdeps.log" \
    | sed -n 's/^shlibs:Depends=//p') || fail "dpkg-shlibdeps failed: $(cat "$work/shlibdeps.log")"
[ -n "$depends" ] || fail "dpkg-shlibdeps found no dependency for usr/bin/maskclean: $(cat "$work/shlibdeps.log")"

# As dpkg-gencontrol counts it: each file's size in KiB rounded up, and 1 KiB for each directory,
# so that it does not depend on the file system the package is built on.
installed_size=$(cd "$root" && find usr \( -type f -printf '%s\n' \) -o \( -type d -printf '1024\n' \) \
    | awk '{ total += int(($1 + 1023) / 1024) } END { print total }')
cat >"$root/DEBIAN/control" <<CONTROL
Package: maskclean
Version: $version
Architecture: $arch
Maintainer: maskclean maintainers <maintainers@maskclean.invalid>
Installed-Size: $installed_size
Depends: $depends
Recommends: libisal2
Section: utils
Priority: optional
Homepage: https://github.com/maskclean/maskclean
Description: clean and check CSV and JSON exports with input masks
 maskclean reads CSV, TSV, JSON arrays and NDJSON (plain, gzip or zstd) and
 applies a spec of per-column input masks, the mask language that formats a
 phone number while someone types it. It writes every record back with
 formatted and extracted columns and a status per cell (complete, incomplete,
 invalid, lossy, blank), and a completeness report in JSON, JUnit, Markdown
 and HTML. Its check command fails a CI job when an export's quality drops
 below the spec's thresholds, with annotations on GitHub Actions.
CONTROL
(cd "$root" && find usr -type f | LC_ALL=C sort | xargs md5sum) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 755 {} +
find "$root/usr" -type f ! -path "$root/usr/bin/*" -exec chmod 644 {} +
find "$root" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +

mkdir -p "$out"
deb="$out/maskclean_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb.partial" >/dev/null
mv "$deb.partial" "$deb"
echo "$deb"
