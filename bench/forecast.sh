#!/usr/bin/env bash
# The cost of paper 002's load-forecast partitions (easy-forecast-fixed, Mf) beside EASY, the policy it extends, and
# conservative backfilling (the reservations its conservative pass of every interval makes are kept), on every shared
# trace: the simulation's own wall time (simulate --json: wall_seconds, reading excluded), both resource
# models, the median of RUNS runs each. Every job of a trace run alone is local: the Grid partition gets what the load
# leaves, and every interval (2 h) a conservative pass. Our own.
# Usage: bench/forecast.sh [SCHEDCHECK] [TRACES_DIR] [RUNS]   (defaults: build/cli/schedcheck, ../shared/traces, 3).
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
printf '%-34s %-10s %9s %9s %9s %9s %9s\n' trace model easy cons mf mf/easy mf/cons
for t in "$TRACES"/*.swf "$TRACES"/*.swf.gz; do
  [ -e "$t" ] || continue
  if ! "$BIN" simulate --trace "$t" --policy fcfs --json >/dev/null 2>&1; then
    printf '%-34s skipped: %s\n' "$(basename "$t")" "$("$BIN" simulate --trace "$t" --policy fcfs 2>&1 >/dev/null | head -1 | cut -c1-80)"
    continue
  fi
  for m in count processors; do
    e=$(wall "$t" $m easy); c=$(wall "$t" $m conservative); f=$(wall "$t" $m easy-forecast-fixed)
    printf '%-34s %-10s %9.3f %9.3f %9.3f %9.2f %9.2f\n' "$(basename "$t")" $m "$e" "$c" "$f" \
      "$(python3 -c "print($f/$e)")" "$(python3 -c "print($f/$c)")"
  done
done
