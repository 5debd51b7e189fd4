# S3 target of bench/run.sh (BENCH_TARGET=s3): a single-node Ceph RGW on loopback, its buckets,
# the tools' S3 command lines, bucket sizes and the daemons' CPU time. Sourced by run.sh, which
# defines say/warn/die, W, BENCH_SIZE, BENCH_RUNS and the tool list before calling these.
# See bench/README.md, "S3 mode".

RGW_SCRIPT="$ROOT/stele-testing/src/main/resources/dev/stele/testing/start-rgw.sh"
RGW_DIR=""                  # set by rgw_start; the Ceph data, logs, ceph.conf and pids live there
RGW_PIDS=()                 # monitor, OSD, gateway (start-rgw.sh writes them in this order)
RGW_NAMES=(mon osd rgw)
S3_ENDPOINT=""
S3_REGION=us-east-1
S3_ACCESS=STELEBENCH
S3_SECRET=stele-bench-secret-not-a-secret
BENCH_S3_LOCK=${BENCH_S3_LOCK:-governance}
BENCH_S3_RETENTION=${BENCH_S3_RETENTION:-1d}
BENCH_RGW_BEAST_OPTS=${BENCH_RGW_BEAST_OPTS-tcp_nodelay=1}
CLK_TCK=$(getconf CLK_TCK)

s3_check_config() {
    case $BENCH_S3_LOCK in
        governance | compliance | none) ;;
        *) die "BENCH_S3_LOCK must be governance, compliance or none, got '$BENCH_S3_LOCK'" ;;
    esac
    [[ -f $RGW_SCRIPT ]] || die "$RGW_SCRIPT is missing"
}

# Ceph and curl, installed the way .ci/run does it.
s3_ensure_packages() {
    local missing=() b
    for b in radosgw radosgw-admin ceph-mon ceph-osd ceph curl; do
        command -v "$b" >/dev/null 2>&1 || missing+=("$b")
    done
    ((${#missing[@]} == 0)) && return 0
    say "installing Ceph RGW and curl (missing: ${missing[*]})"
    local sudo=()
    ((EUID == 0)) || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
        radosgw ceph-mon ceph-osd ceph-common curl >/dev/null || die "installing Ceph failed"
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Memstore keeps every object in RAM and refuses writes beyond its "device bytes". Both tools'
# repositories of every round stay in it (Stele's are locked), about 0.6x the dataset each; allow
# 1x per tool and round plus 1 GiB for RGW's own pools, at least the script's 2 GiB.
memstore_bytes() {
    local ntools=$1
    awk -v s="$BENCH_SIZE" -v runs="$BENCH_RUNS" -v n="$ntools" 'BEGIN {
        u = toupper(substr(s, length(s))); m = 1
        if (u == "K") m = 2^10; else if (u == "M") m = 2^20; else if (u == "G") m = 2^30; else if (u == "T") m = 2^40
        b = (s + 0) * m * runs * n + 2^30
        if (b < 2^31) b = 2^31
        printf "%.0f\n", b }'
}

rgw_start() {
    local ntools=$1 bytes avail_kib
    bytes=$(memstore_bytes "$ntools")
    avail_kib=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
    if ((avail_kib * 1024 < bytes + (1 << 30))); then
        warn "memstore may hold up to $((bytes >> 20)) MiB but only $((avail_kib >> 10)) MiB of RAM is available"
    fi
    RGW_DIR="$W/rgw"
    rm -rf "$RGW_DIR"
    mkdir -p "$RGW_DIR"
    local mon_port s3_port
    mon_port=$(free_port)
    s3_port=$(free_port)
    say "starting Ceph RGW on 127.0.0.1:$s3_port (memstore $((bytes >> 20)) MiB) in $RGW_DIR"
    if ! RGW_MEMSTORE_BYTES=$bytes RGW_BEAST_OPTS=$BENCH_RGW_BEAST_OPTS bash "$RGW_SCRIPT" "$RGW_DIR/ceph" "$mon_port" "$s3_port" \
        "$S3_ACCESS" "$S3_SECRET" >"$RGW_DIR/start.log" 2>&1; then
        cat "$RGW_DIR/start.log" >&2
        mapfile -t RGW_PIDS <"$RGW_DIR/ceph/pids" 2>/dev/null || true
        die "Ceph RGW did not start; logs in $RGW_DIR/ceph/log"
    fi
    mapfile -t RGW_PIDS <"$RGW_DIR/ceph/pids"
    ((${#RGW_PIDS[@]} == 3)) || die "expected 3 Ceph pids in $RGW_DIR/ceph/pids, got ${#RGW_PIDS[@]}"
    S3_ENDPOINT="http://127.0.0.1:$s3_port"
    export CEPH_CONF="$RGW_DIR/ceph/ceph.conf"
    export AWS_ACCESS_KEY_ID=$S3_ACCESS AWS_SECRET_ACCESS_KEY=$S3_SECRET
    # Stele's local cache (retention read back, docs/s3.md) beside restic's, not in ~/.cache.
    export XDG_CACHE_HOME="$W/cache-stele"
    RGW_MEMSTORE=$bytes
}

# Stops the daemons this script started (by pid), waiting up to 10 s before SIGKILL.
rgw_stop() {
    ((${#RGW_PIDS[@]} > 0)) || return 0
    local p i
    for p in "${RGW_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for ((i = 0; i < 50; i++)); do
        local alive=0
        for p in "${RGW_PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
        ((alive)) || break
        sleep 0.2
    done
    for p in "${RGW_PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
    RGW_PIDS=()
    say "Ceph RGW stopped"
}

# s3_curl METHOD PATH [curl args]: a SigV4-signed request (RGW wants x-amz-content-sha256 signed).
s3_curl() {
    local method=$1 path=$2
    shift 2
    curl -sS --fail-with-body --aws-sigv4 "aws:amz:$S3_REGION:s3" --user "$S3_ACCESS:$S3_SECRET" \
        -H "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" \
        -X "$method" "$@" "$S3_ENDPOINT/$path"
}

# s3_bucket NAME lock|plain
s3_bucket() {
    local h=()
    [[ $2 == lock ]] && h=(-H "x-amz-bucket-object-lock-enabled: true")
    s3_curl PUT "$1" "${h[@]}" >"$W/logs/bucket-$1.log" 2>&1 \
        || { cat "$W/logs/bucket-$1.log" >&2; die "creating bucket $1 failed"; }
}

s3_bucket_of() { echo "bench-$1-r$2"; }   # tool run

# Fresh buckets for a round: Stele's with object lock (unless BENCH_S3_LOCK=none), restic's plain.
s3_new_round() {   # RUN TOOL...
    local run=$1 t
    shift
    for t in "$@"; do
        if [[ $t == stele && $BENCH_S3_LOCK != none ]]; then
            s3_bucket "$(s3_bucket_of "$t" "$run")" lock
        else
            s3_bucket "$(s3_bucket_of "$t" "$run")" plain
        fi
    done
}

# s3_argv TOOL STEP RUN: the S3 command line of a step, in ARGV.
s3_argv() {
    local tool=$1 step=$2 run=$3 target="$W/restore-$1-r$3" bucket
    bucket=$(s3_bucket_of "$tool" "$run")
    local -a stele=(--repo "s3://$bucket/repo" --endpoint "$S3_ENDPOINT" --path-style --region "$S3_REGION")
    local -a restic=(restic -q -r "s3:$S3_ENDPOINT/$bucket" --cache-dir "$W/cache-restic")
    local -a lock=()
    [[ $BENCH_S3_LOCK != none ]] && lock=(--lock-mode "$BENCH_S3_LOCK" --min-retention "$BENCH_S3_RETENTION")
    case $tool:$step in
        restic:init)    ARGV=("${restic[@]}" init) ;;
        restic:backup*) ARGV=("${restic[@]}" backup --host bench src) ;;
        restic:restore) ARGV=("${restic[@]}" restore latest --target "$target") ;;
        restic:check)   ARGV=("${restic[@]}" check) ;;
        restic:verify)  ARGV=("${restic[@]}" check --read-data) ;;
        stele:init)     ARGV=("$STELE" repo init "${stele[@]}" "${lock[@]}") ;;
        stele:backup*)  ARGV=("$STELE" snapshot create "${stele[@]}" src) ;;
        stele:restore)  ARGV=("$STELE" restore "${stele[@]}" latest --target "$target") ;;
        stele:check)    ARGV=("$STELE" verify "${stele[@]}") ;;
        stele:verify)   ARGV=("$STELE" verify "${stele[@]}" --read-data) ;;
        *) die "no S3 command for $tool $step" ;;
    esac
}

# Bytes stored in the tool's bucket (all versions), from the bucket index.
s3_repo_bytes() {
    radosgw-admin bucket stats --bucket="$(s3_bucket_of "$1" "$2")" 2>/dev/null \
        | python3 -c 'import json, sys; print(json.load(sys.stdin).get("usage", {}).get("rgw.main", {}).get("size", 0))'
}

# CPU ticks (utime+stime, all threads) of the monitor, OSD and gateway, space-separated.
rgw_ticks() {
    local p out=()
    for p in "${RGW_PIDS[@]}"; do
        out+=("$(awk '{sub(/^.*\) /, ""); print $12 + $13}' "/proc/$p/stat" 2>/dev/null || echo 0)")
    done
    echo "${out[*]}"
}

# What the idle daemons burn (CPU seconds per second over 5 s), to read the step numbers against.
rgw_idle_rate() {
    local a b
    a=$(rgw_ticks | awk '{print $1 + $2 + $3}')
    sleep 5
    b=$(rgw_ticks | awk '{print $1 + $2 + $3}')
    awk -v a="$a" -v b="$b" -v t="$CLK_TCK" 'BEGIN {printf "%.3f\n", (b - a) / t / 5}'
}
