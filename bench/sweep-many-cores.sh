#!/usr/bin/env bash
# The figures issue 32 asks of a many-core machine, in one run that fits a short loan of one
# (bench/README.md, "What `make bench-sweep` does"):
#
#   bench/sweep-many-cores.sh BIN OUT_DIR
#
# BIN is a maskclean binary (the one `make dist-stage` builds travels: it needs only the C
# runtime). ISA-L is used when libisal.so.2 can be loaded: put it in a folder on LD_LIBRARY_PATH
# where the machine lacks it. Writes into OUT_DIR:
#   machine.txt  the cores, hardware threads and clock (lscpu), and whether ISA-L loaded;
#   sweep.md     the bench export x4 (493 MB CSV) at jobs 1, 2, 4, 8, 12, 16 (and the machine's
#                own ceiling: J one-job runs side by side), medians of 3 taking turns;
#   big.md       the export 16 times over (2 GB of CSV) at 16 jobs: its size and wall times;
#   inflate.md   the .gz input at 16 jobs, inflated by igzip and by zlib.
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: bench/sweep-many-cores.sh MASKCLEAN_BINARY OUT_DIR" >&2
    exit 2
fi
bin=$(realpath "$1")
out=$2
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
data=/dev/shm/maskclean-bench
jobs=$(nproc)
# ROWS makes a smaller trial of the script on a small machine (the figures need the default).
rows=${ROWS:-1000000}

{ lscpu; echo; "$bin" --version; } > "$out/machine.txt" 2>&1 || true

sweep=
for value in 1 2 4 8 12; do [ "$value" -lt "$jobs" ] && sweep+="$value,"; done
sweep+=$jobs
python3 "$here/run.py" --maskclean "$bin" --data-dir "$data" --rows "$rows" --copies 4 \
    --repeat 3 --jobs-sweep "$sweep" > "$out/sweep.md"

# 2 GB of CSV: the export 16 times over, one header.
csv=$data/messy-$rows.csv
big=/dev/shm/maskclean-sweep/big-$rows-x16.csv
head -n 1 "$csv" > "$big"
for _ in $(seq 16); do tail -n +2 "$csv" >> "$big"; done
{
    echo "$(stat -c %s "$big") bytes; wall s of 3 runs at --jobs $jobs:"
    TIMEFORMAT=%R
    for _ in 1 2 3; do
        { time "$bin" run "$here/spec.json" "$big" -o /dev/null --quiet --jobs "$jobs" > /dev/null 2>&1; } 2>&1
    done
} > "$out/big.md"
rm -f "$big"

gz=/dev/shm/maskclean-sweep/sweep-${rows}x4.csv.gz
# LD_DEBUG names every library loaded; ISA-L's only once a gzip input is opened.
# Into a file, not a pipe: grep -q leaving early would end maskclean with SIGPIPE, which
# pipefail would read as "not loaded".
LD_DEBUG=files "$bin" run "$here/spec.json" "$gz" -o /dev/null --quiet --jobs "$jobs" \
    2> "$out/loader.txt" || true
# "calling init": loaded; a library found but not loadable is named too, without it.
if grep -q 'calling init: .*libisal' "$out/loader.txt"; then echo "ISA-L: loaded" >> "$out/machine.txt"
else echo "ISA-L: not loaded, gzip is inflated by zlib" >> "$out/machine.txt"; fi
rm -f "$out/loader.txt"

TIMEFORMAT=%R
{
    echo "| inflater | wall s, 3 runs taking turns |"
    echo "| --- | --- |"
    declare -A walls=([igzip]="" [zlib]="")
    for _ in 1 2 3; do
        for inflater in igzip zlib; do
            wall=$( { time "$bin" run "$here/spec.json" "$gz" -o /dev/null --quiet --jobs "$jobs" \
                --inflate "$inflater" > /dev/null 2>&1; } 2>&1 )
            walls[$inflater]+="$wall "
        done
    done
    for inflater in igzip zlib; do echo "| $inflater | ${walls[$inflater]}|"; done
} > "$out/inflate.md"
