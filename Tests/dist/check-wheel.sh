#!/usr/bin/env bash
# Checks the wheel `make dist` builds, as a user with Python installs it (make test-dist runs it):
#   check-wheel.sh dist/SHA256SUMS REFERENCE_BINARY
# - it is dist/maskclean-VERSION-py3-none-manylinux_M_N_ARCH.whl, M.N the newest glibc symbol
#   version its binary asks for (the libc6 version dpkg-shlibdeps finds for the Debian package, and
#   never newer than this machine's glibc), and holds the binary as a script, the manual and the completions as data, the finder package,
#   and its metadata, and nothing else;
# - `pip install --no-index` of the file alone into a fresh virtual environment, with the Swift
#   toolchain off the PATH, puts `maskclean` on the environment's PATH (bin/) and the manual and
#   the completions under its share/;
# - `maskclean --version` and `python -m maskclean --version` print VERSION, and both run the demo
#   and `check` as REFERENCE_BINARY does (common.sh);
# - `pip uninstall` removes every file it installed.
set -euo pipefail

check=check-wheel
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=Tests/dist/common.sh
. "$repo/Tests/dist/common.sh"

[ $# = 2 ] || fail "usage: check-wheel.sh dist/SHA256SUMS REFERENCE_BINARY"
dist=$(cd "$(dirname "$1")" && pwd)
reference=$(realpath "$2")
version=$(sed -n 's/^public let maskcleanVersion = "\([^"]*\)".*/\1/p' "$repo/Sources/MaskClean/Reports/ReportOrigin.swift")

# 1. Its name: the glibc its binary needs, and this machine's architecture.
stage="$dist/maskclean-$version-linux-$(uname -m)"
newest() { sort -t. -k1,1n -k2,2n | tail -n 1; }
needed=$(readelf --version-info --wide "$stage/bin/maskclean" | grep -o 'GLIBC_[0-9]*\.[0-9]*' | sed 's/^GLIBC_//' | newest)
machine=$(getconf GNU_LIBC_VERSION | sed -n 's/^glibc \([0-9]*\.[0-9]*\).*/\1/p')
[ -n "$needed" ] && [ -n "$machine" ] || fail "no glibc version: the binary asks for '$needed', this machine has '$machine'"
[ "$(printf '%s\n%s\n' "$needed" "$machine" | newest)" = "$machine" ] \
    || fail "the binary asks for glibc $needed, newer than this machine's $machine"
shlibdeps=$(dpkg-deb --field "$dist/maskclean_${version}_$(dpkg --print-architecture).deb" Depends \
    | tr ',' '\n' | sed -n 's/^ *libc6 (>= \([0-9.]*\)).*/\1/p')
[ "$shlibdeps" = "$needed" ] \
    || fail "readelf says the binary asks for glibc $needed, dpkg-shlibdeps says libc6 (>= $shlibdeps)"
glibc=${needed/./_}
name="maskclean-$version-py3-none-manylinux_${glibc}_$(uname -m).whl"
wheel="$dist/$name"
[ -f "$wheel" ] || fail "$name is not in $dist: $(cd "$dist" && ls)"
grep -q "  $name\$" "$1" || fail "$1 does not list $name"

# 2. What it holds.
data="maskclean-$version.data"
info="maskclean-$version.dist-info"
expected="$data/data/share/bash-completion/completions/maskclean
$data/data/share/fish/vendor_completions.d/maskclean.fish
$data/data/share/man/man1/maskclean.1
$data/data/share/zsh/site-functions/_maskclean
$data/scripts/maskclean
$info/METADATA
$info/RECORD
$info/WHEEL
$info/licenses/LICENSE
maskclean/__init__.py
maskclean/__main__.py"
entries=$(python3 -c 'import sys, zipfile; print("\n".join(sorted(zipfile.ZipFile(sys.argv[1]).namelist())))' "$wheel")
[ "$entries" = "$expected" ] || fail "$name holds:
$entries
expected:
$expected"
python3 - "$wheel" "$info" <<'PYTHON' || fail "$name's metadata or RECORD is wrong"
import base64, hashlib, sys, zipfile
wheel, info = zipfile.ZipFile(sys.argv[1]), sys.argv[2]
tag = sys.argv[1].rsplit("-", 3)[-3:]
fields = wheel.read(f"{info}/WHEEL").decode()
assert "Root-Is-Purelib: false" in fields, fields
assert "Tag: " + "-".join(tag)[: -len(".whl")] in fields, fields
metadata = wheel.read(f"{info}/METADATA").decode()
assert metadata.startswith("Metadata-Version: 2.4\nName: maskclean\n"), metadata[:200]
# Every file is in RECORD with its size and hash.
for line in wheel.read(f"{info}/RECORD").decode().splitlines():
    path, digest, size = line.split(",")
    if path == f"{info}/RECORD":
        continue
    body = wheel.read(path)
    want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b"=").decode()
    assert digest == want and int(size) == len(body), path
PYTHON

# 3. A fresh environment, pip with no network, the toolchain off the PATH.
python3 -m venv "$work/venv" || fail "python3 -m venv failed (python3-venv is missing?)"
venv="$work/venv"
env -i PATH="$venv/bin:$bare_path" HOME="$work" PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    "$venv/bin/pip" install --no-index --no-cache-dir "$wheel" >"$work/pip.log" 2>&1 \
    || fail "pip install $name failed: $(tail -n 20 "$work/pip.log")"
[ -x "$venv/bin/maskclean" ] || fail "pip install put no executable maskclean in the environment's bin/"
cmp -s "$venv/bin/maskclean" "$stage/bin/maskclean" \
    || fail "the installed maskclean is not the binary that make dist staged"
for file in man/man1/maskclean.1 bash-completion/completions/maskclean zsh/site-functions/_maskclean \
    fish/vendor_completions.d/maskclean.fish; do
    cmp -s "$venv/share/$file" "$stage/share/$file" \
        || fail "pip install put no share/$file (or another one) in the environment"
done
[ "$(env -i PATH="$venv/bin:$bare_path" maskclean --version)" = "$version" ] \
    || fail "maskclean --version does not print $version once installed from the wheel"
[ "$(env -i PATH="$venv/bin:$bare_path" python -m maskclean --version)" = "$version" ] \
    || fail "python -m maskclean --version does not print $version"

# 4. The demo and check, by the command and by python -m.
demo_reference "$reference"
demo_matches wheel "$venv/bin" maskclean
demo_matches python-m "$venv/bin" python -m maskclean

# 5. pip uninstall leaves nothing of it.
env -i PATH="$venv/bin:$bare_path" HOME="$work" PIP_DISABLE_PIP_VERSION_CHECK=1 \
    "$venv/bin/pip" uninstall -y maskclean >"$work/uninstall.log" 2>&1 \
    || fail "pip uninstall maskclean failed: $(tail -n 20 "$work/uninstall.log")"
left=$(find "$venv" -name '*maskclean*' | sed "s|^$venv/||")
[ -z "$left" ] || fail "pip uninstall left: $left"

echo "check-wheel: $name: pip install --no-index into a fresh environment; maskclean and python -m maskclean run the demo and check without the toolchain as the regular build does; pip uninstall removes it"
