#!/usr/bin/env bash
# How Stele's cost grows: time and peak RSS of backup, snapshot list, verify and maintenance at
# 1, 10 and 100 units of logical data (SCALE_UNIT, default 1G: the generated dataset, staged as
# hard-linked copies, so 100 GiB costs inodes, not disk) and at 10, 100 and 1,000 snapshots of one
# unit; plus the index's live heap at each point. Writes bench/results/<date>-scale.tsv and draws
# it with bench/plot.py. See bench/README.md.  Knobs (environment):
#   SCALE_UNIT       size of one copy of the dataset, default 1G (30M for a quick check)
#   SCALE_MAX        largest logical size to measure, default 100 x SCALE_UNIT (e.g. 10G)
#   SCALE_SNAPSHOTS  snapshot counts, default "10 100 1000"
#   BENCH_DIR        work directory, default bench/work (the dataset cache is shared with run.sh)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCALE_UNIT=${SCALE_UNIT:-1G}
SCALE_SNAPSHOTS=${SCALE_SNAPSHOTS:-10 100 1000}
BENCH_DIR=${BENCH_DIR:-$ROOT/bench/work}
STELE="$ROOT/stele"
export STELE_PASSWORD=stele-bench-not-a-secret

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

bytes_of() { # 1G, 30M, 512K -> bytes
    awk -v s="$1" 'BEGIN {
        u = toupper(substr(s, length(s))); m = 1
        if (u == "K") m = 2^10; else if (u == "M") m = 2^20; else if (u == "G") m = 2^30; else if (u == "T") m = 2^40
        printf "%.0f", (s + 0) * m }'
}
[[ $SCALE_UNIT =~ ^[0-9.]+[KMGkmg]$ ]] || die "SCALE_UNIT must look like 1G or 30M, got '$SCALE_UNIT'"
UNIT=$(bytes_of "$SCALE_UNIT")
MAX=$(bytes_of "${SCALE_MAX:-$((100 * UNIT))}")
[[ -x $STELE && -d $ROOT/stele-cli/target/stele/lib ]] \
    || die "build Stele first: mvn -B -o -q -DskipTests package -pl stele-cli -am"
command -v /usr/bin/time >/dev/null || die "/usr/bin/time is missing (apt-get install time)"

# The same cached dataset run.sh uses.
GEN_HASH=$(sha256sum "$ROOT/bench/gen-dataset.py" | cut -c1-8)
BASE="$BENCH_DIR/data/ds-$SCALE_UNIT-s1-g$GEN_HASH"
if [[ ! -f $BASE.done ]]; then
    say "generating the $SCALE_UNIT dataset in $BASE"
    mkdir -p "$BENCH_DIR/data"
    rm -rf "$BASE" "$BASE.tmp"
    python3 "$ROOT/bench/gen-dataset.py" --size "$SCALE_UNIT" --seed 1 "$BASE.tmp" >"$BASE.log"
    mv "$BASE.tmp" "$BASE"
    touch "$BASE.done"
fi

W="$BENCH_DIR/scale"
rm -rf "$W"
mkdir -p "$W/logs"
TSV="$W/scale.tsv"
printf 'series\tx\tstep\twall_s\tcpu_s\trss_kib\tindex_heap_bytes\n' >"$TSV"

# measure SERIES X STEP CMD...: run CMD under /usr/bin/time from $W, append a line to the TSV.
measure() {
    local series=$1 x=$2 step=$3 log="$W/logs/$1-$2-$3.log" wall user sys rss heap=""
    shift 3
    if ! (cd "$W" && exec /usr/bin/time -o "$log.time" -f '%e %U %S %M' "$@") </dev/null >"$log" 2>&1; then
        tail -n 15 "$log" >&2
        die "$series=$x: $step failed (log: $log)"
    fi
    read -r wall user sys rss < <(tail -n 1 "$log.time")
    [[ $step == open ]] && heap=$(awk '$1 == "index_heap_bytes" {print $2}' "$log")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$series" "$x" "$step" "$wall" \
        "$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')" "$rss" "$heap" >>"$TSV"
    printf '    %-9s %-6s %-12s %7.2f s %6d MiB\n' "$series" "$x" "$step" "$wall" "$((rss / 1024))" >&2
}

# The read-only steps, measured at every point.
measure_repo() { # SERIES X REPO
    # (with --heap, its time includes the two full collections that measure the index's heap)
    measure "$1" "$2" open "$STELE" bench open --heap --repo "$3"
    measure "$1" "$2" list "$STELE" snapshot list --repo "$3"
    measure "$1" "$2" verify "$STELE" verify --repo "$3"
    measure "$1" "$2" maintenance "$STELE" maintenance run --repo "$3"
}

# Logical data: N hard-linked copies of the dataset under copy-<i>/, one backup into a new repository.
for n in 1 10 100; do
    ((n * UNIT <= MAX)) || break
    x=$(awk -v b="$((n * UNIT))" 'BEGIN {printf "%.3g", b / 2^30}') # GiB
    say "logical data: $n copies ($x GiB)"
    mkdir -p "$W/src"
    for ((i = 1; i <= n; i++)); do
        [[ -d $W/src/copy-$i ]] || cp -al "$BASE" "$W/src/copy-$i"
    done
    rm -rf "$W/repo"
    "$STELE" repo init --repo "$W/repo" >"$W/logs/init-data-$n.log" 2>&1
    sync
    measure data "$x" backup "$STELE" snapshot create --repo "$W/repo" src
    measure_repo data "$x" "$W/repo"
done
rm -rf "$W/src" "$W/repo"

# Snapshots: one copy of the dataset, then one small change before each further backup (in one
# JVM, as warm-backup writes the same snapshots as snapshot create); at each count, one more cold
# backup and the read-only steps.
mkdir -p "$W/src"
cp -al "$BASE" "$W/src/copy-1"
"$STELE" repo init --repo "$W/repo" >"$W/logs/init-snapshots.log" 2>&1
have=0
for want in $SCALE_SNAPSHOTS; do
    say "snapshots: $want"
    if ((want - 1 > have)); then
        "$STELE" bench warm-backup --repo "$W/repo" --runs $((want - 1 - have)) \
            --before-run "date +%s%N >'$W/src/change'" "$W/src" >"$W/logs/snapshots-build-$want.log" 2>&1 \
            || die "building $want snapshots failed (log: $W/logs/snapshots-build-$want.log)"
        have=$((want - 1))
    fi
    date +%s%N >"$W/src/change"
    measure snapshots "$want" backup "$STELE" snapshot create --repo "$W/repo" --host bench/warm-backup src
    have=$((have + 1))
    measure_repo snapshots "$want" "$W/repo"
done
rm -rf "$W/src" "$W/repo"

mkdir -p "$ROOT/bench/results"
out="$ROOT/bench/results/$(date +%Y-%m-%d)-scale"
cp "$TSV" "$out.tsv"
python3 "$ROOT/bench/plot.py" "$out.tsv" "$out"
say "wrote ${out#"$ROOT"/}.tsv, ${out#"$ROOT"/}-data.svg and ${out#"$ROOT"/}-snapshots.svg"
