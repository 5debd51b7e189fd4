#!/usr/bin/env bash
# pairs.sh: one command timed on two builds of Stele, alternately, as in docs/performance.md's
# "pairs": each run's wall time, CPU time (user + system) and peak RSS, then the medians per build.
#
#   bench/pairs.sh [-n RUNS] [-w DIR] [-b SNIPPET] A B -- SNIPPET
#
# A and B are checkouts (each with its ./stele launcher and a built distribution). SNIPPET is bash,
# run in the current directory with $STELE set to the build's launcher; the -b snippet runs before
# each timed one, untimed (make a fresh repository, say). -w DIR reads every file under DIR before
# each run: this machine kind's guest pages out page cache idle for a minute (docs/performance.md,
# fifteenth round), so a tree read earlier is partly on disk again and the first build to run
# would pay for it.
#
# Example, the initial backup of the Linux tree:
#   bench/pairs.sh -n 5 -w bench/work/data/linux-6.1.176-1 \
#     -b 'rm -rf /tmp/r && $STELE repo init --repo /tmp/r >/dev/null' /work/base . -- \
#     '$STELE snapshot create --repo /tmp/r bench/work/data/linux-6.1.176-1 >/dev/null'
set -euo pipefail

runs=5 warm_dir="" before=":"
while getopts "n:w:b:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    w) warm_dir=$OPTARG ;;
    b) before=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -ne 4 ] || [ "$3" != "--" ]; then
  echo "usage: $0 [-n RUNS] [-w DIR] [-b SNIPPET] A B -- SNIPPET" >&2
  exit 2
fi
builds=("$(cd "$1" && pwd)" "$(cd "$2" && pwd)")
timed=$4
for b in "${builds[@]}"; do
  [ -x "$b/stele" ] || { echo "$b/stele is missing" >&2; exit 2; }
done
export STELE_PASSWORD=${STELE_PASSWORD:-pairs}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

for ((i = 1; i <= runs; i++)); do
  for b in "${builds[@]}"; do
    STELE="$b/stele" bash -c "$before"
    if [ -n "$warm_dir" ]; then
      find "$warm_dir" -type f -print0 | xargs -0 -r cat >/dev/null
    fi
    sync
    STELE="$b/stele" /usr/bin/time -o "$out" -f "%e %U %S %M" bash -c "$timed"
    read -r wall user sys rss <"$out"
    printf '%s\t%s\t%s\t%.2f\t%d\n' "$i" "$b" "$wall" "$(echo "$user + $sys" | bc)" "$((rss / 1024))"
  done
done | tee /dev/stderr | awk -F'\t' -v a="${builds[0]}" -v b="${builds[1]}" '
  { wall[$2] = wall[$2] " " $3; cpu[$2] = cpu[$2] " " $4; rss[$2] = rss[$2] " " $5 }
  function median(list,   a, n, i, j, t) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  function show(x) { printf "%s: median wall %.2f s, CPU %.2f s, peak RSS %d MiB\n", x, median(wall[x]), median(cpu[x]), median(rss[x]) }
  END { show(a); show(b) }'
