# What the package checks share (sourced by check-dist.sh, check-wheel.sh, check-deb.sh):
# - `fail MESSAGE`: prints "$check: MESSAGE" on stderr and exits 1;
# - `bare_path`: a PATH of the usual system directories without the Swift toolchain's, which
#   every installed binary is run with (under `env -i`, LD_LIBRARY_PATH empty);
# - `demo_reference REFERENCE` then `demo_matches LABEL DIR COMMAND…`: the demo run (which fails
#   its threshold by design, exit 1) and `check` on the demo and on a passing export, run by an
#   installed COMMAND with DIR first on the bare PATH, must give what REFERENCE (the debug build)
#   gives: exit statuses, summaries, records and reports byte for byte (run times aside).
# Expects $check (the script's name), $repo and $work (a temporary directory) to be set.

fail() {
    echo "$check: $*" >&2
    exit 1
}

# The minimal PATH keeps the usual system directories, never the one the swift on our PATH comes
# from. Where the toolchain is installed into a system directory (the Swift images put swift in
# /usr/bin), that directory is stood in for by one of links to its other commands, none of
# swift's, so that bash, python3 and sed are still there.
toolchain_bin=""
if command -v swift >/dev/null 2>&1; then
    toolchain_bin=$(dirname "$(realpath "$(command -v swift)")")
fi
bare_path=""
for dir in /usr/local/bin /usr/bin /bin; do
    [ -d "$dir" ] || continue
    if [ "$(realpath "$dir")" = "$toolchain_bin" ] || [ -e "$dir/swift" ] || [ -e "$dir/swiftc" ]; then
        shadow="$work/bin-without-the-toolchain${dir//\//-}"
        mkdir -p "$shadow"
        for command in "$dir"/*; do
            case ${command##*/} in *swift* | sourcekit*) continue ;; esac
            [ -e "$shadow/${command##*/}" ] || ln -s "$command" "$shadow/"
        done
        dir=$shadow
    fi
    bare_path="${bare_path:+$bare_path:}$dir"
done
case ":$bare_path:" in
    *swift*) fail "the minimal PATH $bare_path still names a Swift directory" ;;
esac

# The reports say when the run started and how long it took (docs/report.md): those aside, two
# runs' reports must be the same.
untime() {
    sed -e 's|"started": "[^"]*"|"started": TIME|' -e 's|"durationSeconds": [0-9.]*|"durationSeconds": TIME|' \
        -e 's|<dd id="started">[^<]*</dd>|<dd id="started">TIME</dd>|' \
        -e 's|<dd id="elapsed">[^<]*</dd>|<dd id="elapsed">TIME</dd>|' \
        -e 's| time="[0-9.]*"| time="TIME"|g' -e 's| timestamp="[^"]*"| timestamp="TIME"|' "$1"
}

# The three runs: name, expected exit status, arguments (OUT is the run's output directory).
demo_runs=(
    "run 1 run demo/spec.json demo/customers.csv -o OUT/customers.clean.csv --report OUT/report.json --html OUT/report.html"
    "check 1 check demo/spec.json demo/customers.csv --report OUT/report.json --junit OUT/report.junit.xml"
    "check-passing 0 check passing/spec.json passing/customers.csv --report OUT/report.json"
)

# Runs the demo runs with COMMAND… (under `env -i`, PATH=$2:bare_path when $2 is not empty) into
# $work/LABEL/NAME.
run_demos() {
    local label=$1 first=$2
    shift 2
    local path=$bare_path
    [ -n "$first" ] && path="$first:$bare_path"
    local spec name expected args status
    for spec in "${demo_runs[@]}"; do
        read -r name expected args <<<"$spec"
        local out="$label/$name"
        mkdir -p "$work/$out"
        status=0
        # shellcheck disable=SC2086 # the arguments are words without spaces
        (cd "$work" && env -i PATH="$path" LD_LIBRARY_PATH= HOME="$work" LC_ALL=C.UTF-8 \
            "$@" ${args//OUT/$out} >"$work/$out.stdout" 2>"$work/$out.stderr") || status=$?
        echo "$status" >"$work/$out.status"
        for report in "$work/$out"/report.*; do
            [ -f "$report" ] && untime "$report" >"$report.untimed"
        done
    done
}

demo_reference() {
    mkdir -p "$work/demo" "$work/passing"
    cp "$repo/Fixtures/demo/spec.json" "$repo/Fixtures/demo/customers.csv" "$work/demo/"
    cp "$repo/Fixtures/cases/check-min-complete-passes/spec.json" \
        "$repo/Fixtures/cases/check-min-complete-passes/customers.csv" "$work/passing/"
    # The reference needs the toolchain's libraries: it runs with the caller's environment.
    local spec name expected args status
    for spec in "${demo_runs[@]}"; do
        read -r name expected args <<<"$spec"
        mkdir -p "$work/reference/$name"
        status=0
        # shellcheck disable=SC2086
        (cd "$work" && "$1" ${args//OUT/reference\/$name} >"$work/reference/$name.stdout" \
            2>"$work/reference/$name.stderr") || status=$?
        [ "$status" = "$expected" ] \
            || fail "the reference binary exited $status on '$name' (expected $expected): $(cat "$work/reference/$name.stderr")"
        for report in "$work/reference/$name"/report.*; do
            [ -f "$report" ] && untime "$report" >"$report.untimed"
        done
    done
}

demo_matches() {
    local label=$1
    run_demos "$@"
    local spec name expected args
    for spec in "${demo_runs[@]}"; do
        read -r name expected args <<<"$spec"
        local got="$work/$label/$name" want="$work/reference/$name"
        [ "$(cat "$got.status")" = "$expected" ] \
            || fail "$label: '$name' exited $(cat "$got.status") (the reference $expected): $(cat "$got.stderr")"
        cmp -s "$got.stderr" "$want.stderr" \
            || fail "$label: the summary of '$name' differs: it wrote
$(cat "$got.stderr")
the reference wrote
$(cat "$want.stderr")"
        local output
        for output in "$want"/*; do
            case "$output" in *.untimed | *customers.clean.csv) ;; *) continue ;; esac
            local file=${output##*/}
            [ -s "$got/$file" ] || fail "$label: '$name' wrote no ${file%.untimed}"
            cmp -s "$got/$file" "$output" || fail "$label: the ${file%.untimed} of '$name' differs from the reference's"
        done
    done
    grep -q '^1000 rows: FAILED (1 column below threshold)$' "$work/$label/run.stderr" \
        || fail "$label: the demo's summary misses its last line: $(cat "$work/$label/run.stderr")"
    grep -q '"rows": 1000' "$work/$label/run/report.json" || fail "$label: the demo's report.json does not count 1000 rows"
}
