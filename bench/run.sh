#!/usr/bin/env bash
# Benchmark Stele against restic and borg on the seeded dataset or the Linux kernel source.
# See bench/README.md.  Knobs (environment):
#   BENCH_DATASET generated (bench/gen-dataset.py, the default) or linux (Debian's linux-source-6.1,
#                6.1.176-1, then 6.1.192-3 as the mutation; fetched with apt-get download)
#   BENCH_LINUX_PART  linux only: back up this subdirectory of the tree (e.g. fs) for a quick check
#   BENCH_SIZE   generated dataset size, default 1G (e.g. 30M for a quick check)
#   BENCH_RUNS   repetitions, default 1; the report shows medians (and min-max)
#   BENCH_DIR    work directory, default bench/work (datasets are cached there)
#   BENCH_SEED / BENCH_MUTATE_SEED   dataset and mutation seeds, default 1 / 2
#   BENCH_TOOLS  tools to run, default "stele restic borg" ("stele restic" for s3)
#   BENCH_TARGET local (repositories in directories, the default) or s3 (buckets on a Ceph RGW
#                on loopback that the script starts and stops; bench/lib-s3.sh)
#   BENCH_S3_LOCK / BENCH_S3_RETENTION   s3 only: Stele's lock mode and period, default governance / 1d
#   BENCH_QUIET_WAIT  before each step, wait up to this many seconds (default 180) for the rest of
#                the machine to go quiet (under 0.25 CPU-s per second); 0 turns the wait off
#   BENCH_WARM   1 (default): also time backups 1-3 in one Stele JVM (stele bench warm-backup)
#   BENCH_FIXED  1 (default, local only): time the fixed cost of small commands on a repository of
#                the dataset with BENCH_FIXED_SNAPSHOTS (100) snapshots, median of BENCH_FIXED_RUNS (5)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH_SIZE=${BENCH_SIZE:-1G}
BENCH_RUNS=${BENCH_RUNS:-1}
BENCH_DIR=${BENCH_DIR:-$ROOT/bench/work}
BENCH_SEED=${BENCH_SEED:-1}
BENCH_MUTATE_SEED=${BENCH_MUTATE_SEED:-2}
BENCH_TARGET=${BENCH_TARGET:-local}
BENCH_QUIET_WAIT=${BENCH_QUIET_WAIT:-180}
BENCH_DATASET=${BENCH_DATASET:-generated}
BENCH_LINUX_PART=${BENCH_LINUX_PART:-}
BENCH_WARM=${BENCH_WARM:-1}
BENCH_FIXED=${BENCH_FIXED:-1}
BENCH_FIXED_SNAPSHOTS=${BENCH_FIXED_SNAPSHOTS:-100}
BENCH_FIXED_RUNS=${BENCH_FIXED_RUNS:-5}
if [[ $BENCH_TARGET == s3 ]]; then BENCH_TOOLS=${BENCH_TOOLS:-stele restic}; else BENCH_TOOLS=${BENCH_TOOLS:-stele restic borg}; fi
PASSWORD=stele-bench-not-a-secret
STELE="$ROOT/stele"

export RESTIC_PASSWORD=$PASSWORD STELE_PASSWORD=$PASSWORD BORG_PASSPHRASE=$PASSWORD
export BORG_RELOCATED_REPO_ACCESS_IS_OK=yes BORG_UNKNOWN_UNENCRYPTED_REPO_ACCESS_IS_OK=yes
export BORG_DISPLAY_PASSPHRASE=no BORG_DELETE_I_KNOW_WHAT_I_AM_DOING=YES

say()  { printf '==> %s\n' "$*" >&2; }
warn() { printf '\n!!! %s\n\n' "$*" >&2; }
die()  { printf 'error: %s\n' "$*" >&2; exit 1; }

[[ $BENCH_RUNS =~ ^[1-9][0-9]*$ ]] || die "BENCH_RUNS must be a positive integer, got '$BENCH_RUNS'"
[[ $BENCH_SIZE =~ ^[0-9.]+[KMGTkmgt]?$ ]] || die "BENCH_SIZE must look like 1G, 30M or 512K, got '$BENCH_SIZE'"
[[ $BENCH_DATASET == generated || $BENCH_DATASET == linux ]] \
    || die "BENCH_DATASET must be generated or linux, got '$BENCH_DATASET'"
[[ $BENCH_FIXED_SNAPSHOTS =~ ^[1-9][0-9]*$ && $BENCH_FIXED_RUNS =~ ^[1-9][0-9]*$ ]] \
    || die "BENCH_FIXED_SNAPSHOTS and BENCH_FIXED_RUNS must be positive integers"
case $BENCH_TARGET in
    local) ;;
    s3) source "$ROOT/bench/lib-s3.sh"; s3_check_config ;;
    *) die "BENCH_TARGET must be local or s3, got '$BENCH_TARGET'" ;;
esac

# ------------------------------------------------------------------ tools

ensure_packages() {
    local missing=() pair
    for pair in restic:restic borg:borgbackup rsync:rsync /usr/bin/time:time xz:xz-utils; do
        command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
    done
    ((${#missing[@]} == 0)) && return 0
    say "installing ${missing[*]}"
    local sudo=()
    ((EUID == 0)) || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null \
        || die "apt-get install ${missing[*]} failed"
}

STELE_NOTE=""
ensure_stele() {
    if [[ ! -x $STELE ]]; then
        STELE_NOTE="launcher ./stele not found"
        return 1
    fi
    if [[ ! -d $ROOT/stele-cli/target/stele/lib ]]; then
        say "stele-cli/target/stele/lib is missing: building with mvn -B -q -DskipTests package"
        if ! (cd "$ROOT" && mvn -B -q -DskipTests package) >"$BENCH_DIR/mvn.log" 2>&1; then
            tail -n 20 "$BENCH_DIR/mvn.log" >&2
            STELE_NOTE="mvn package failed (see $BENCH_DIR/mvn.log)"
            return 1
        fi
    fi
    return 0
}

tool_version() {
    case $1 in
        restic) restic version 2>/dev/null | head -n 1 ;;
        borg) borg --version 2>/dev/null | head -n 1 ;;
        stele) "$STELE" --version 2>/dev/null | head -n 1 || true ;;
    esac
}

# ------------------------------------------------------------------ dataset

# The cache key includes a hash of the generator, so changing it regenerates the data.
DATA="$BENCH_DIR/data"
GEN_HASH=$(sha256sum "$ROOT/bench/gen-dataset.py" | cut -c1-8)
if [[ $BENCH_DATASET == linux ]]; then
    LINUX_OLD=6.1.176-1 LINUX_NEW=6.1.192-3
    PRISTINE="$DATA/linux-$LINUX_OLD/linux-source-6.1${BENCH_LINUX_PART:+/$BENCH_LINUX_PART}"
    MUTATED="$DATA/linux-$LINUX_NEW/linux-source-6.1${BENCH_LINUX_PART:+/$BENCH_LINUX_PART}"
    DATASET_NAME="linux${BENCH_LINUX_PART:+-${BENCH_LINUX_PART//\//-}}"
else
    PRISTINE="$DATA/ds-$BENCH_SIZE-s$BENCH_SEED-g$GEN_HASH"
    MUTATED="$PRISTINE-m$BENCH_MUTATE_SEED"
    DATASET_NAME=$BENCH_SIZE
fi

# linux_source VERSION: fetch Debian's linux-source-6.1 at VERSION and unpack its tarball into
# $DATA/linux-VERSION/linux-source-6.1, once.
linux_source() {
    local v=$1 dir="$DATA/linux-$1"
    if [[ -f $dir.done ]]; then
        say "using the cached Linux $v source in $dir"
        return 0
    fi
    say "fetching linux-source-6.1=$v (apt-get download) and unpacking it into $dir"
    rm -rf "$dir" "$dir.tmp"
    mkdir -p "$dir.tmp/deb"
    (cd "$dir.tmp/deb" && apt-get download -q "linux-source-6.1=$v") \
        || die "apt-get download linux-source-6.1=$v failed (is deb.debian.org/debian-security in the apt sources? run apt-get update)"
    dpkg-deb -x "$dir.tmp/deb/"linux-source-6.1_*.deb "$dir.tmp/pkg" || die "dpkg-deb -x of linux-source-6.1=$v failed"
    tar -xf "$dir.tmp/pkg/usr/src/linux-source-6.1.tar.xz" -C "$dir.tmp" || die "unpacking linux-source-6.1.tar.xz of $v failed"
    rm -rf "$dir.tmp/deb" "$dir.tmp/pkg"
    [[ -d $dir.tmp/linux-source-6.1 ]] || die "linux-source-6.1=$v holds no linux-source-6.1 directory"
    mv "$dir.tmp" "$dir"
    touch "$dir.done"
}

prepare_datasets() {
    mkdir -p "$DATA"
    if [[ $BENCH_DATASET == linux ]]; then
        linux_source "$LINUX_OLD"
        linux_source "$LINUX_NEW"
        [[ -d $PRISTINE && -d $MUTATED ]] || die "BENCH_LINUX_PART=$BENCH_LINUX_PART is not a directory of both trees"
        return 0
    fi
    if [[ ! -f $PRISTINE.done ]]; then
        say "generating the $BENCH_SIZE dataset (seed $BENCH_SEED) in $PRISTINE"
        rm -rf "$PRISTINE" "$PRISTINE.tmp"
        python3 "$ROOT/bench/gen-dataset.py" --size "$BENCH_SIZE" --seed "$BENCH_SEED" "$PRISTINE.tmp" \
            | tee "$PRISTINE.log" >&2
        mv "$PRISTINE.tmp" "$PRISTINE"
        touch "$PRISTINE.done"
    else
        say "using the cached dataset $PRISTINE"
    fi
    if [[ ! -f $MUTATED.done ]]; then
        say "making the mutated copy (seed $BENCH_MUTATE_SEED) in $MUTATED"
        rm -rf "$MUTATED" "$MUTATED.tmp"
        cp -a "$PRISTINE" "$MUTATED.tmp"
        python3 "$ROOT/bench/gen-dataset.py" --mutate "$MUTATED.tmp" --seed "$BENCH_MUTATE_SEED" \
            | tee "$MUTATED.log" >&2
        mv "$MUTATED.tmp" "$MUTATED"
        touch "$MUTATED.done"
    else
        say "using the cached mutated copy $MUTATED"
    fi
}

tree_bytes() { find "$1" -type f -printf '%s\n' | awk '{s += $1} END {printf "%d\n", s}'; }
tree_files() { find "$1" -type f | wc -l; }

# Read every file once so each step starts with a warm page cache.
warm() { find "$@" -type f -print0 | xargs -0 -r cat >/dev/null; }

# ------------------------------------------------------------------ steps

W="$BENCH_DIR/run"          # src/, repo-<tool>/, restore-<tool>-r<run>/ live here
RESULTS="$W/results.tsv"    # run tool step wall user sys maxrss_kib status
SIZES="$W/sizes.tsv"        # run tool point bytes
FIXED="$W/fixed.tsv"        # run tool command wall user sys maxrss_kib status
MACHINE="$W/machine.tsv"    # run tool step load1 busy_s mon_s osd_s rgw_s t0 t1 (daemons: s3 only)
FAILED_PEER=0
MISMATCH=0
declare -A BROKEN=()        # tool -> 1 once a step failed in the current run

# tool_argv TOOL STEP: set ARGV to the command line of a step.
tool_argv() {
    if [[ $BENCH_TARGET == s3 ]]; then s3_argv "$1" "$2" "$3"; return; fi
    local tool=$1 step=$2 repo="$W/repo-$1" target="$W/restore-$1-r$3"
    local -a restic=(restic -q -r "$repo" --cache-dir "$W/cache-restic")
    case $tool:$step in
        restic:init)    ARGV=("${restic[@]}" init) ;;
        restic:backup*) ARGV=("${restic[@]}" backup --host bench src) ;;
        restic:restore) ARGV=("${restic[@]}" restore latest --target "$target") ;;
        restic:check)   ARGV=("${restic[@]}" check) ;;
        restic:verify)  ARGV=("${restic[@]}" check --read-data) ;;
        borg:init)      ARGV=(borg init -e repokey "$repo") ;;
        borg:backup*)   ARGV=(borg create "$repo::b${step#backup}" src) ;;
        borg:restore)   ARGV=(borg extract "$repo::b3") ;;
        borg:check)     ARGV=(borg check "$repo") ;;
        borg:verify)    ARGV=(borg check --verify-data "$repo") ;;
        stele:init)     ARGV=("$STELE" repo init --repo "$repo") ;;
        stele:backup*)  ARGV=("$STELE" snapshot create --repo "$repo" src) ;;
        stele:restore)  ARGV=("$STELE" restore --repo "$repo" latest --target "$target") ;;
        stele:check)    ARGV=("$STELE" verify --repo "$repo") ;;
        stele:verify)   ARGV=("$STELE" verify --repo "$repo" --read-data) ;;
        *) die "no command for $tool $step" ;;
    esac
}

# Machine-wide busy CPU ticks of all CPUs (user, nice, system, irq, softirq; not idle, iowait or
# steal) from /proc/stat.
busy_ticks() { awk '$1 == "cpu" {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }

# Other people's jobs on this shared machine distort a step badly (the report's "other" column
# shows how much). Before a step, wait until the machine is nearly idle for one second: at that
# point nothing of ours runs except the idle Ceph daemons. Prints the seconds waited.
wait_quiet() {
    local start=$SECONDS a b
    ((BENCH_QUIET_WAIT > 0)) || { echo 0; return; }
    while :; do
        a=$(busy_ticks); sleep 1; b=$(busy_ticks)
        (((b - a) * 4 < $(getconf CLK_TCK))) && break
        ((SECONDS - start >= BENCH_QUIET_WAIT)) && { warn "machine still busy after ${BENCH_QUIET_WAIT}s; measuring anyway"; break; }
        sleep 2
    done
    echo $((SECONDS - start))
}

repo_bytes() { # TOOL RUN
    if [[ $BENCH_TARGET == s3 ]]; then s3_repo_bytes "$1" "$2"; else du -sb "$W/repo-$1" | cut -f1; fi
}

# run_step RUN TOOL STEP: time one step, append a line to results.tsv.
run_step() {
    local run=$1 tool=$2 step=$3 dir=$W
    if [[ -n ${BROKEN[$tool]:-} ]]; then
        printf '%s\t%s\t%s\t\t\t\t\tskipped\n' "$run" "$tool" "$step" >>"$RESULTS"
        return 0
    fi
    if [[ $step == restore ]]; then
        await_inode_recency "$tool"
        mkdir -p "$W/restore-$tool-r$run"
        [[ $tool == borg ]] && dir="$W/restore-$tool-r$run"
    fi
    tool_argv "$tool" "$step" "$run"
    local log="$W/logs/run$run-$tool-$step.log" tf="$W/logs/run$run-$tool-$step.time"
    case $step in
        backup*) warm "$W/src" ;;
        restore | check | verify) [[ $BENCH_TARGET == s3 ]] || warm "$W/repo-$tool" ;;
    esac
    sync
    local rc=0 load1 busy0 busy1 srv0="" srv1="" t0 t1 waited
    waited=$(wait_quiet)
    ((waited > 1)) && say "waited ${waited}s for the machine to go quiet before $tool $step"
    load1=$(cut -d' ' -f1 /proc/loadavg)
    [[ $BENCH_TARGET == s3 ]] && srv0=$(rgw_ticks)
    busy0=$(busy_ticks)
    t0=$(date +%s.%N)
    (cd "$dir" && exec /usr/bin/time -o "$tf" -f '%e %U %S %M' "${ARGV[@]}") </dev/null >"$log" 2>&1 || rc=$?
    t1=$(date +%s.%N)
    busy1=$(busy_ticks)
    [[ $BENCH_TARGET == s3 ]] && srv1=$(rgw_ticks)
    awk -v r="$run" -v t="$tool" -v s="$step" -v l="$load1" -v b0="$busy0" -v b1="$busy1" \
        -v s0="$srv0" -v s1="$srv1" -v hz="$(getconf CLK_TCK)" -v t0="$t0" -v t1="$t1" 'BEGIN {
        n = split(s0, a, " "); split(s1, b, " ")
        line = r "\t" t "\t" s "\t" l "\t" sprintf("%.2f", (b1 - b0) / hz)
        for (i = 1; i <= 3; i++) line = line "\t" (i <= n ? sprintf("%.2f", (b[i] - a[i]) / hz) : "")
        print line "\t" t0 "\t" t1 }' >>"$MACHINE"
    local wall user sys rss
    read -r wall user sys rss < <(tail -n 1 "$tf") || true
    if ((rc != 0)); then
        printf '%s\t%s\t%s\t\t\t\t\tfailed\n' "$run" "$tool" "$step" >>"$RESULTS"
        BROKEN[$tool]=1
        if [[ $tool == stele ]]; then
            warn "stele $step failed (exit $rc): stele is reported as n/a for the rest of run $run; log: $log"
            [[ -n $STELE_NOTE ]] || STELE_NOTE="stele $step failed in run $run (exit $rc), see $log"
        else
            FAILED_PEER=1
            warn "$tool $step FAILED (exit $rc); log: $log"
        fi
        tail -n 15 "$log" >&2 || true
        return 0
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\tok\n' "$run" "$tool" "$step" "$wall" "$user" "$sys" "$rss" >>"$RESULTS"
    printf '    %-7s %-8s %7.2f s wall %7.2f CPU s %6d MiB RSS\n' "$tool" "$step" "$wall" \
        "$(echo "$user $sys" | awk '{print $1 + $2}')" "$((rss / 1024))" >&2
    case $step in
        backup1 | backup2 | backup3)
            printf '%s\t%s\t%s\t%s\n' "$run" "$tool" "$step" "$(repo_bytes "$tool" "$run")" >>"$SIZES" ;;
        restore) check_restore "$run" "$tool" ;;
    esac
}

# The restored tree may sit at TARGET/src (relative path kept) or TARGET/<abs path>/src.
check_restore() {
    local run=$1 tool=$2 target="$W/restore-$2-r$1" got=""
    for cand in "$target/src" "$target$W/src" "$target"; do
        if [[ -d $cand && ! ( $cand == "$target" && -e $target/src ) ]]; then got=$cand; break; fi
    done
    if [[ -n $got ]] && diff -r "$W/src" "$got" >"$W/logs/run$run-$tool-diff.log" 2>&1; then
        say "$tool restore is identical to src"
    else
        MISMATCH=1
        printf '%s\t%s\trestore-diff\t\t\t\t\tfailed\n' "$run" "$tool" >>"$RESULTS"
        warn "RESTORE MISMATCH: $tool restore differs from src (run $run); see $W/logs/run$run-$tool-diff.log"
        head -n 20 "$W/logs/run$run-$tool-diff.log" >&2 || true
    fi
}

# Nothing large is deleted while a bench runs: restored trees are kept until it ends, and the
# previous bench's work directory is moved aside at the start and deleted at the end. This
# machine's root filesystem is ext4 without a journal, which will not reuse an inode for a minute
# after its deletion (six if its inode table block is still unwritten), and each one it passes over
# costs a lookup. Creating N files in block groups where M were just deleted then costs N x M: a
# restore right after the previous one's tree was removed took 20-30 s, nearly all of it system
# time, where it otherwise takes 6. A restore also waits until the last bulk delete (stamped in
# $BENCH_DIR/.bulk-delete, by this bench or an earlier one) is old enough.
INODE_RECENCY=400
STAMP="$BENCH_DIR/.bulk-delete"
clean_up() {
    if compgen -G "$W/restore-*" >/dev/null || compgen -G "$BENCH_DIR/run.old.*" >/dev/null; then
        rm -rf "$W"/restore-* "$BENCH_DIR"/run.old.*
        sync
        date +%s >"$STAMP"
    fi
}
await_inode_recency() {
    local last wait
    last=$(cat "$STAMP" 2>/dev/null || echo 0)
    wait=$((last + INODE_RECENCY - $(date +%s)))
    if ((wait > 0)); then
        say "waiting ${wait}s before the $1 restore: files were deleted here within ${INODE_RECENCY}s"
        sleep "$wait"
    fi
}

# timed OUT CMD...: run CMD in $W under /usr/bin/time; its output goes to OUT, the time to OUT.time.
timed() {
    local out=$1
    shift
    (cd "$W" && exec /usr/bin/time -o "$out.time" -f '%e %U %S %M' "$@") </dev/null >"$out" 2>&1
}

# run_warm RUN: backups 1-3 of the round (pristine, unchanged, mutated) in one Stele JVM, into a
# repository of their own; each backup's wall and CPU seconds go to results.tsv as warm1..warm3 (the
# JVM's own clocks; RSS is the whole process's peak, so the same for all three).
run_warm() {
    local run=$1 repo="$W/repo-stele-warm" log="$W/logs/run$1-stele-warm.log"
    rm -rf "$repo"
    rsync -a --delete "$PRISTINE/" "$W/src/"
    if ! timed "$W/logs/run$run-stele-warm-init.log" "$STELE" repo init --repo "$repo"; then
        warn "stele repo init for the warm backups failed; log: $W/logs/run$run-stele-warm-init.log"
        printf '%s\tstele\twarm1\t\t\t\t\tfailed\n' "$run" >>"$RESULTS"
        return 0
    fi
    # Untimed, before runs 2 and 3: the mutation before 3, and a warm page cache before both.
    local before="if [ \"\$RUN\" = 3 ]; then rsync -a --delete '$MUTATED/' '$W/src/'; fi
        find '$W/src' -type f -print0 | xargs -0 -r cat >/dev/null; sync"
    warm "$W/src"
    sync
    wait_quiet >/dev/null
    if ! timed "$log" "$STELE" bench warm-backup --repo "$repo" --runs 3 --before-run "$before" src; then
        warn "stele bench warm-backup failed; log: $log"
        tail -n 15 "$log" >&2 || true
        printf '%s\tstele\twarm1\t\t\t\t\tfailed\n' "$run" >>"$RESULTS"
        return 0
    fi
    local rss
    rss=$(tail -n 1 "$log.time" | cut -d' ' -f4)
    awk -v r="$run" -v m="$rss" '$1 == "run" && $3 == "wall" {
        printf "%s\tstele\twarm%s\t%s\t%s\t0\t%s\tok\n", r, $2, $4, $6, m }' "$log" >>"$RESULTS"
    awk '$1 == "run" {printf "    stele   warm%s   %7.2f s wall %7.2f CPU s (one JVM)\n", $2, $4, $6}' "$log" >&2
    rm -rf "$repo"
}

# start_api_server: the test API server with BENCH_FIXED_SNAPSHOTS completed Backups, for timing
# stele backup get (stele-cli's test harness BackupGetServer, compiled here with its test classpath).
# It serves until fd 9 closes. Sets API_KUBECONFIG; warns and returns 1 if it cannot start.
start_api_server() {
    local cp="$W/test-classpath.txt" log="$W/logs/api-server.log" i
    say "fixed cost: compiling and starting the test API server for backup get"
    if ! (cd "$ROOT" && mvn -B -o -q -pl stele-cli -am test-compile dependency:build-classpath \
            -Dmdep.includeScope=test -Dmdep.outputFile="$cp") >"$W/logs/api-server-build.log" 2>&1; then
        warn "cannot build the test API server (log: $W/logs/api-server-build.log): backup get is not timed"
        return 1
    fi
    mkdir -p "$W/k8s"
    exec 9> >(exec java -cp "$ROOT/stele-cli/target/test-classes:$(cat "$cp")" \
        dev.stele.cli.cluster.BackupGetServer "$W/k8s" "$BENCH_FIXED_SNAPSHOTS" >"$log" 2>&1)
    for ((i = 0; i < 120; i++)); do
        API_KUBECONFIG=$(awk '$1 == "ready" {print $2}' "$log" 2>/dev/null || true)
        [[ -n $API_KUBECONFIG ]] && return 0
        sleep 1
    done
    warn "the test API server did not start in 120 s (log: $log): backup get is not timed"
    return 1
}

# index_figures RUN LOG: the "key value" lines of a stele bench open, to index.tsv.
index_figures() {
    awk -v r="$1" 'NF == 2 {print r "\t" $1 "\t" $2}' "$2" >>"$W/index.tsv"
}

# fixed_cost: a repository of the dataset with BENCH_FIXED_SNAPSHOTS snapshots per tool (the
# dataset once, then one small file changed before each further backup; Stele's through one JVM,
# which writes the same snapshots as snapshot create, only faster), then each small command
# BENCH_FIXED_RUNS times, tools alternating. Lines go to fixed.tsv: run tool command wall user sys
# maxrss_kib status, and stele bench open's figures to index.tsv (the heap's from one more run).
fixed_cost() {
    local n=$BENCH_FIXED_SNAPSHOTS t i c
    local change="$W/src/.bench-fixed-change"
    local -a restic=(restic -q -r "$W/fixed-restic" --cache-dir "$W/cache-restic-fixed")
    local -a stele_repo=(--repo "$W/fixed-stele")
    say "fixed cost: building repositories with $n snapshots"
    rsync -a --delete "$PRISTINE/" "$W/src/"
    rm -rf "$W/fixed-stele" "$W/fixed-restic" "$W/cache-restic-fixed"
    for t in "${tools[@]}"; do
        case $t in
            stele)
                timed "$W/logs/fixed-stele-build.log" "$STELE" repo init "${stele_repo[@]}" \
                    && timed "$W/logs/fixed-stele-build.log" "$STELE" bench warm-backup "${stele_repo[@]}" \
                        --runs "$n" --before-run "echo \$RUN >'$change'" src \
                    || { warn "stele: building the fixed-cost repository failed; see $W/logs/fixed-stele-build.log"; continue; } ;;
            restic)
                rm -f "$change"
                "${restic[@]}" init >"$W/logs/fixed-restic-build.log" 2>&1 || { warn "restic init failed"; continue; }
                for ((i = 1; i <= n; i++)); do
                    ((i > 1)) && echo "$i" >"$change"
                    (cd "$W" && "${restic[@]}" backup --host bench src) >>"$W/logs/fixed-restic-build.log" 2>&1 \
                        || { warn "restic backup $i for the fixed-cost repository failed"; break; }
                done ;;
        esac
    done
    declare -A cmd=(
        [stele:version]="$STELE --version"
        [stele:open]="$STELE bench open ${stele_repo[*]}"
        [stele:status]="$STELE repo status ${stele_repo[*]}"
        [stele:snapshots]="$STELE snapshot list ${stele_repo[*]}"
        [restic:version]="restic version"
        [restic:open]="${restic[*]} cat config"
        [restic:snapshots]="${restic[*]} snapshots"
    )
    if [[ " ${tools[*]} " == *" stele "* ]] && start_api_server; then
        cmd[stele:get]="$STELE backup get --kubeconfig $API_KUBECONFIG"
    fi
    for ((i = 1; i <= BENCH_FIXED_RUNS; i++)); do
        for c in version open status snapshots get; do
            for t in "${tools[@]}"; do
                [[ -n ${cmd[$t:$c]:-} ]] || continue
                local out="$W/logs/fixed-$t-$c-$i.log" wall user sys rss
                # shellcheck disable=SC2086 # the paths in cmd have no spaces (checked at start)
                if timed "$out" ${cmd[$t:$c]}; then
                    read -r wall user sys rss < <(tail -n 1 "$out.time")
                    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\tok\n' "$i" "$t" "$c" "$wall" "$user" "$sys" "$rss" >>"$FIXED"
                    [[ $t:$c == stele:open ]] && index_figures "$i" "$out"
                else
                    printf '%s\t%s\t%s\t\t\t\t\tfailed\n' "$i" "$t" "$c" >>"$FIXED"
                    warn "$t $c failed on the fixed-cost repository; log: $out"
                fi
            done
        done
    done
    # The index's heap, measured apart: its two full collections are not part of an open's time.
    if [[ " ${tools[*]} " == *" stele "* ]]; then
        local out="$W/logs/fixed-stele-open-heap.log"
        # shellcheck disable=SC2086 # the paths in cmd have no spaces (checked at start)
        ${cmd[stele:open]} --heap >"$out" 2>&1 && index_figures heap "$out" \
            || warn "stele bench open --heap failed; log: $out"
    fi
    exec 9>&- # the API server, if started, sees its input close and stops
    rm -rf "$W/fixed-stele" "$W/fixed-restic" "$W/cache-restic-fixed"
}

# ------------------------------------------------------------------ main

mkdir -p "$BENCH_DIR"
# Datasets, src and three repositories need about 5x the dataset size, every restore once more, and
# the previous bench's directory about 4x until the end (see clean_up).
[[ $BENCH_DIR != *[[:space:]]* ]] || die "BENCH_DIR must not contain spaces: '$BENCH_DIR'"
need_size=$BENCH_SIZE
[[ $BENCH_DATASET == linux ]] && need_size=1.3G # each tree; both are kept
need=$(awk -v s="$need_size" -v runs="$BENCH_RUNS" -v tools="$(wc -w <<<"$BENCH_TOOLS")" 'BEGIN {
    u = toupper(substr(s, length(s))); m = 1
    if (u == "K") m = 2^10; else if (u == "M") m = 2^20; else if (u == "G") m = 2^30; else if (u == "T") m = 2^40
    printf "%.0f", (s + 0) * m * (9 + runs * tools) }')
avail=$(df -PB1 "$BENCH_DIR" | awk 'NR == 2 {print $4}')
if ((avail < need)); then
    warn "$BENCH_DIR has $((avail >> 20)) MiB free; a $BENCH_SIZE run needs about $((need >> 20)) MiB"
fi
ensure_packages
[[ $BENCH_TARGET == s3 ]] && s3_ensure_packages

tools=()
for t in $BENCH_TOOLS; do
    case $t in
        stele) if ensure_stele; then tools+=(stele); else warn "stele is n/a: $STELE_NOTE"; fi ;;
        restic) tools+=("$t") ;;
        borg) [[ $BENCH_TARGET == s3 ]] && die "borg has no S3 backend: leave it out of BENCH_TOOLS for BENCH_TARGET=s3"
              tools+=("$t") ;;
        *) die "unknown tool '$t' in BENCH_TOOLS (use stele, restic, borg)" ;;
    esac
done
((${#tools[@]} > 0)) || die "no tool to run"

prepare_datasets

[[ -e $W ]] && mv "$W" "$BENCH_DIR/run.old.$(date +%s%N)" # deleted by clean_up, at the end
mkdir -p "$W/logs"
: >"$RESULTS"
: >"$SIZES"
: >"$FIXED"
: >"$W/index.tsv"
: >"$MACHINE"
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
RGW_IDLE=""
if [[ $BENCH_TARGET == s3 ]]; then
    trap rgw_stop EXIT
    trap 'exit 130' INT TERM
    rgw_start "${#tools[@]}"
    RGW_IDLE=$(rgw_idle_rate)
    say "Ceph RGW ready at $S3_ENDPOINT; idle, its daemons use $RGW_IDLE CPU-s per second"
fi

for ((run = 1; run <= BENCH_RUNS; run++)); do
    # Rotate the tool order every run so no tool always goes first.
    order=("${tools[@]:$(((run - 1) % ${#tools[@]}))}" "${tools[@]:0:$(((run - 1) % ${#tools[@]}))}")
    say "run $run/$BENCH_RUNS, tool order: ${order[*]}"
    BROKEN=()
    for t in "${order[@]}"; do rm -rf "$W/repo-$t"; done
    [[ $BENCH_TARGET == s3 ]] && s3_new_round "$run" "${order[@]}"
    rm -rf "$W/cache-restic" "$W/cache-stele" "$W/borg-base"
    export BORG_BASE_DIR="$W/borg-base"
    rsync -a --delete "$PRISTINE/" "$W/src/"
    for step in init backup1 backup2 backup3 restore check verify; do
        if [[ $step == backup3 ]]; then
            say "rsync the mutated dataset into src"
            rsync -a --delete "$MUTATED/" "$W/src/"
        fi
        say "run $run: $step"
        for t in "${order[@]}"; do run_step "$run" "$t" "$step"; done
    done
    if ((BENCH_WARM)) && [[ $BENCH_TARGET == local && -z ${BROKEN[stele]:-} && " ${order[*]} " == *" stele "* ]]; then
        say "run $run: backups 1-3 in one Stele JVM (warm path)"
        run_warm "$run"
    fi
done
if ((BENCH_FIXED)) && [[ $BENCH_TARGET == local ]]; then
    fixed_cost
fi

clean_up

# ------------------------------------------------------------------ report

mkdir -p "$ROOT/bench/results"
suffix=$DATASET_NAME
[[ $BENCH_TARGET == s3 ]] && suffix=s3-$DATASET_NAME
out="$ROOT/bench/results/$(date +%Y-%m-%d)-$suffix.md"
[[ -e $out ]] && out="$ROOT/bench/results/$(date +%Y-%m-%d-%H%M%S)-$suffix.md"
{
    echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "size=$BENCH_SIZE"
    echo "dataset=$BENCH_DATASET"
    [[ $BENCH_DATASET == linux ]] && echo "dataset_desc=Linux source from Debian's linux-source-6.1 $LINUX_OLD${BENCH_LINUX_PART:+ (only $BENCH_LINUX_PART/)}, mutated to $LINUX_NEW by rsync -a --delete"
    echo "fixed_snapshots=$BENCH_FIXED_SNAPSHOTS"
    echo "fixed_runs=$BENCH_FIXED_RUNS"
    echo "seed=$BENCH_SEED"
    echo "mutate_seed=$BENCH_MUTATE_SEED"
    echo "runs=$BENCH_RUNS"
    echo "target=$BENCH_TARGET"
    echo "tools=${tools[*]}"
    echo "load_start=$LOAD_START"
    echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)"
    if [[ $BENCH_TARGET == s3 ]]; then
        echo "rgw_version=$(radosgw --version 2>/dev/null | head -n 1)"
        echo "rgw_idle=$RGW_IDLE"
        echo "rgw_memstore_mib=$((RGW_MEMSTORE >> 20))"
        echo "s3_lock=$BENCH_S3_LOCK"
        echo "s3_retention=$BENCH_S3_RETENTION"
        echo "rgw_beast_opts=$BENCH_RGW_BEAST_OPTS"
        echo "rgw_log=$RGW_DIR/ceph/log/client.rgw.a.log"
    fi
    echo "src_bytes=$(tree_bytes "$PRISTINE")"
    echo "src_files=$(tree_files "$PRISTINE")"
    echo "mut_bytes=$(tree_bytes "$MUTATED")"
    echo "mut_files=$(tree_files "$MUTATED")"
    echo "cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo) x $(nproc)"
    echo "kernel=$(uname -r)"
    echo "stele_note=$STELE_NOTE"
    echo "commit=$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
    for t in stele restic borg; do echo "version_$t=$(tool_version "$t")"; done
    echo "java=$(java -version 2>&1 | head -n 1)"
    if [[ $BENCH_DATASET == generated ]]; then
        echo "dataset_log=$PRISTINE.log"
        echo "mutation_log=$MUTATED.log"
    fi
} >"$W/meta.env"
python3 "$ROOT/bench/report.py" "$W" >"$out"
cat "$out"
say "report written to ${out#"$ROOT"/}"

if ((MISMATCH)); then
    warn "AT LEAST ONE RESTORE DIFFERED FROM THE SOURCE: see the logs in $W/logs"
    exit 1
fi
if ((FAILED_PEER)); then
    warn "a peer tool failed: see the logs in $W/logs"
    exit 1
fi
