#!/usr/bin/env bash
# Throughput through a repository server against the same commands on the repository directly:
# `restore` of a whole snapshot and `cat` of its largest file, in pairs run back to back, with
# wall time and CPU seconds (the client's, and the server's own). See bench/README.md, "Through a
# repository server".
set -euo pipefail

ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
STELE="$ROOT/stele"
DATASET="${BENCH_SERVER_DATA:-/work/bench-data/ds-1G}"
RUNS="${BENCH_RUNS:-3}"
W="${BENCH_DIR:-$ROOT/bench/work}/server"
NAME="$(basename "$DATASET")"
REPO="$W/repo-$NAME"
PORT="${BENCH_SERVER_PORT:-18443}"
export STELE_PASSWORD=bench-password

say() { printf '%s\n' "server bench: $*" >&2; }
die() { say "$*"; exit 1; }

[[ -d $DATASET ]] || die "no dataset at $DATASET"
[[ -d $ROOT/stele-cli/target/stele/lib ]] \
    || die "build the distribution first: mvn -B -o -q -pl stele-cli -am package -DskipTests"
mkdir -p "$W/logs"

# A repository of the dataset, made once and kept (its name says which dataset).
if [[ ! -f $REPO/.ready ]]; then
    rm -rf "$REPO"
    say "backing up $DATASET into $REPO"
    "$STELE" repo init --repo "$REPO" >"$W/logs/init.log" 2>&1
    "$STELE" snapshot create --repo "$REPO" "$DATASET" >"$W/logs/backup.log" 2>&1
    touch "$REPO/.ready"
fi

# A self-signed certificate, one admin user, and the server.
if [[ ! -f $W/tls.key ]]; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \
        -subj /CN=localhost -addext subjectAltName=DNS:localhost \
        -keyout "$W/tls.key" -out "$W/tls.crt" >/dev/null 2>&1
fi
mkdir -p "$W/users"
printf 'bench-user-pw' >"$W/users/bench"
printf 'bench-user-pw\n' >"$W/user-password"
printf '{"admins": ["bench"]}' >"$W/access.json"
"$STELE" server --repo "$REPO" --listen "127.0.0.1:$PORT" --tls-cert "$W/tls.crt" \
    --tls-key "$W/tls.key" --users "$W/users" --access "$W/access.json" \
    --audit-log "$W/logs/audit.log" >"$W/logs/server.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do
    grep -q '^stele server listening' "$W/logs/server.log" && break
    kill -0 "$SERVER" 2>/dev/null || die "the server stopped: $(tail -n 3 "$W/logs/server.log")"
    sleep 0.1
done
FINGERPRINT="$(sed -n 's/^fingerprint: //p' "$W/logs/server.log")"
[[ -n $FINGERPRINT ]] || die "the server printed no fingerprint"
THROUGH=(--repo "https://localhost:$PORT" --user bench --password-file "$W/user-password"
    --server-cert-fingerprint "$FINGERPRINT")

# The server's CPU seconds so far (user + system, from /proc; clock ticks of 1/100 s).
server_cpu() {
    awk '{printf "%.2f", ($14 + $15) / 100}' "/proc/$SERVER/stat"
}

LARGEST="$(find "$DATASET" -type f -printf '%s %p\n' | sort -n | tail -n 1 | cut -d' ' -f2-)"
say "dataset $DATASET; largest file $LARGEST; $RUNS runs"

# One timed command: prints "wall client-cpu server-cpu".
timed() {
    local log=$1 before after
    shift
    before=$(server_cpu)
    /usr/bin/time -f '%e %U %S' -o "$W/time" "$@" >"$log" 2>&1 || {
        say "failed: $* (log: $log)"
        tail -n 3 "$log" >&2
        exit 1
    }
    after=$(server_cpu)
    read -r wall user sys <"$W/time"
    echo "$wall $(echo "$user + $sys" | bc) $(echo "$after - $before" | bc)"
}

printf '%-8s %-7s %4s %8s %9s %9s\n' step via run wall client-s server-s
RESULTS="$W/results.tsv"
: >"$RESULTS"
for run in $(seq 1 "$RUNS"); do
    for via in direct server; do
        args=(--repo "$REPO")
        [[ $via == server ]] && args=("${THROUGH[@]}")
        rm -rf "$W/target"
        line=$(timed "$W/logs/restore-$via-$run.log" \
            "$STELE" restore "${args[@]}" latest --target "$W/target")
        printf 'restore\t%s\t%s\t%s\n' "$via" "$run" "${line// /$'\t'}" >>"$RESULTS"
        printf '%-8s %-7s %4s %8s %9s %9s\n' restore "$via" "$run" $line
        if [[ $run == 1 ]]; then
            # The restore is the dataset, byte for byte (modes, times and links are the tests').
            diff -r --no-dereference "$DATASET" "$W/target${DATASET}" >"$W/logs/diff-$via.log" \
                || die "the $via restore differs from the dataset (see $W/logs/diff-$via.log)"
        fi
        line=$(timed "$W/logs/cat-$via-$run.log" \
            bash -c '"$0" cat "${@:2}" "$1" >/dev/null' "$STELE" "latest:$LARGEST" "${args[@]}")
        printf 'cat\t%s\t%s\t%s\n' "$via" "$run" "${line// /$'\t'}" >>"$RESULTS"
        printf '%-8s %-7s %4s %8s %9s %9s\n' cat "$via" "$run" $line
    done
done
rm -rf "$W/target"

# Medians, and the server's throughput as a share of direct (time direct / time through).
python3 - "$RESULTS" <<'EOF'
import statistics, sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().split("\n") if l]
for step in ("restore", "cat"):
    med = {}
    for via in ("direct", "server"):
        r = [x for x in rows if x[0] == step and x[1] == via]
        med[via] = [statistics.median(float(x[i]) for x in r) for i in (3, 4, 5)]
    d, s = med["direct"], med["server"]
    print(f"{step}: direct {d[0]:.2f} s ({d[1]:.1f} CPU-s), through the server {s[0]:.2f} s "
          f"({s[1]:.1f} CPU-s client + {s[2]:.1f} CPU-s server): {100 * d[0] / s[0]:.0f}% of direct")
EOF
