#!/usr/bin/env bash
# The cost of paper 002's partition policies beside the policies they extend, on every shared trace: the simulation's
# own wall time (simulate --json: wall_seconds, reading excluded) of easy-partitions against easy and of
# conservative-partitions against conservative, both resource models, the median of RUNS runs each, taken in turn.
# Our own. Usage: bench/partitions.sh [SCHEDCHECK] [TRACES_DIR] [RUNS]   (defaults: build/cli/schedcheck,
# ../shared/traces, 3). Prints one line per trace and model: the four medians and the two ratios.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$here/build/cli/schedcheck}
TRACES=${2:-$here/../shared/traces}
RUNS=${3:-3}
wall() {  # TRACE MODEL POLICY: the median wall_seconds of RUNS runs
  for _ in $(seq "$RUNS"); do
    "$BIN" simulate --trace "$1" --model "$2" --policy "$3" --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["wall_seconds"])'
  done | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}
printf '%-34s %-10s %9s %9s %7s %9s %9s %7s\n' trace model easy ebm ratio cons cbm ratio
for t in "$TRACES"/*.swf "$TRACES"/*.swf.gz; do
  [ -e "$t" ] || continue
  if ! "$BIN" simulate --trace "$t" --policy fcfs --json >/dev/null 2>&1; then
    printf '%-34s skipped: %s\n' "$(basename "$t")" "$("$BIN" simulate --trace "$t" --policy fcfs 2>&1 >/dev/null | head -1 | cut -c1-80)"
    continue
  fi
  for m in count processors; do
    e=$(wall "$t" $m easy); p=$(wall "$t" $m easy-partitions)
    c=$(wall "$t" $m conservative); q=$(wall "$t" $m conservative-partitions)
    printf '%-34s %-10s %9.3f %9.3f %7.2f %9.3f %9.3f %7.2f\n' "$(basename "$t")" $m "$e" "$p" \
      "$(python3 -c "print($p/$e)")" "$c" "$q" "$(python3 -c "print($q/$c)")"
  done
done
