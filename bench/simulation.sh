#!/usr/bin/env bash
# The simulation benchmarks of docs/performance.md, as whole processes timed with /usr/bin/time:
# each command RUNS times after one warm-up, median wall seconds and the largest peak resident set.
# Usage: bench/simulation.sh SCHEDCHECK BENCH_SIMULATION TRACES_DIR [RUNS] [targets|traces|all]
#   targets: the targets of docs/performance.md (KTH-SP2 and lublin_256; count and processors; checked and unchecked; SWF reading
#            on a synthetic 1,000,000-job trace; memory of that trace)
#   traces:  jobs/s of every trace in TRACES_DIR, every policy, both resource models
# Our own. Prints a markdown table a row per command.
set -euo pipefail
S=${1:?usage: simulation.sh SCHEDCHECK BENCH_SIMULATION TRACES_DIR [RUNS] [targets|traces|all]}
B=${2:?}
TRACES=${3:?}
RUNS=${4:-5}
WHAT=${5:-all}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. "$(dirname "$0")/measure.sh"

echo "| command | median wall s | min | max | peak MiB |"
echo "|---|---|---|---|---|"
if [ "$WHAT" = targets ] || [ "$WHAT" = all ]; then
  KTH=$TRACES/KTH-SP2-1996-2.1-cln.swf
  LUBLIN=$TRACES/lublin_256.swf
  for model in count processors; do
    measure "easy KTH-SP2 ($model)" "$S" simulate --trace "$KTH" --policy easy --model "$model" -q
    measure "conservative KTH-SP2 ($model)" "$S" simulate --trace "$KTH" --policy conservative --model "$model" -q
    measure "conservative lublin_256 ($model)" "$S" simulate --trace "$LUBLIN" --policy conservative --model "$model" -q
  done
  for policy in easy conservative; do
    measure "$policy KTH-SP2 --check" "$S" simulate --trace "$KTH" --policy "$policy" --check -q
  done
  measure "conservative lublin_256 --check" "$S" simulate --trace "$LUBLIN" --policy conservative --check -q
  "$B" synthetic 1000000 "$TMP/synthetic.swf" >/dev/null
  measure "read 1,000,000-line SWF (reader only)" "$B" read "$TMP/synthetic.swf"
  for policy in fcfs easy conservative; do
    measure "$policy synthetic 1,000,000 jobs" "$S" simulate --trace "$TMP/synthetic.swf" --policy "$policy" -q
  done
  measure "easy synthetic 1,000,000 jobs --jobs-csv" "$S" simulate --trace "$TMP/synthetic.swf" --policy easy -q --jobs-csv "$TMP/jobs.csv"
fi
if [ "$WHAT" = traces ] || [ "$WHAT" = all ]; then
  for trace in "$TRACES"/*.swf "$TRACES"/*.swf.gz; do
    extra=()
    grep -qE '^; *(MaxProcs|MaxNodes):' <(zcat -f "$trace" | head -c 65536) || extra=(--processors 1152)
    for model in count processors; do
      for policy in fcfs easy conservative; do
        measure "$(basename "$trace") $policy $model" "$S" simulate --trace "$trace" "${extra[@]}" --policy "$policy" --model "$model" -q
      done
    done
  done
fi
