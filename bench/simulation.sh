#!/usr/bin/env bash
# The simulation benchmarks of docs/performance.md, as whole processes timed with /usr/bin/time:
# each command RUNS times after one warm-up, median wall seconds and the largest peak resident set.
# Usage: bench/simulation.sh SCHEDCHECK BENCH_SIMULATION TRACES_DIR [RUNS] [targets|traces|models|all]
#   targets: the targets of docs/performance.md (KTH-SP2 and lublin_256; count and processors; checked and unchecked;
#            SWF reading on a synthetic 1,000,000-job trace; memory of that trace)
#   traces:  jobs/s of every trace in TRACES_DIR, every policy, both resource models
#   models:  the processors model against count on large machines: serial grid jobs (schedcheck generate-trace) on
#            5,000 and 20,000 processors, LPC-EGEE on 5,000, CTC-SP2 conservative on its own 338, and parallel
#            jobs (schedcheck_bench_simulation parallel) on 5,000 and 20,000 processors, easy and conservative
# Our own. Prints a markdown table a row per command.
set -euo pipefail
S=${1:?usage: simulation.sh SCHEDCHECK BENCH_SIMULATION TRACES_DIR [RUNS] [targets|traces|models|all]}
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
if [ "$WHAT" = models ] || [ "$WHAT" = all ]; then
  "$S" generate-trace --seed 1 --jobs 190000 --processors 5000 --load 0.27 --bag-mean 1 --out "$TMP/grid-5000.swf"
  "$S" generate-trace --seed 1 --jobs 60000 --processors 20000 --load 0.5 --bag-mean 1 --out "$TMP/grid-20000.swf"
  "$B" parallel 20000 5000 0.9 "$TMP/parallel-5000.swf"
  "$B" parallel 20000 20000 0.8 "$TMP/parallel-20000.swf"
  # label|simulate arguments: each case in the count model, then in the processors model
  while IFS='|' read -r label args; do
    for model in count processors; do
      measure "$label ($model)" "$S" simulate $args --model "$model" -q
    done
  done <<CASES
easy grid 190,000 serial jobs, 5,000 processors|--trace $TMP/grid-5000.swf --policy easy
conservative grid 190,000 serial jobs, 5,000 processors|--trace $TMP/grid-5000.swf --policy conservative
easy grid 60,000 serial jobs, 20,000 processors|--trace $TMP/grid-20000.swf --policy easy
easy LPC-EGEE, 5,000 processors|--trace $TRACES/LPC-EGEE-2004-1.2-cln.swf.gz --processors 5000 --policy easy
easy HPC2N, 5,000 processors|--trace $TRACES/HPC2N-2002-2.2-cln.swf.gz --processors 5000 --policy easy
conservative CTC-SP2|--trace $TRACES/CTC-SP2-1996-3.1-cln.swf.gz --policy conservative
easy parallel 20,000 jobs, 5,000 processors|--trace $TMP/parallel-5000.swf --policy easy
conservative parallel 20,000 jobs, 5,000 processors|--trace $TMP/parallel-5000.swf --policy conservative
easy parallel 20,000 jobs, 20,000 processors|--trace $TMP/parallel-20000.swf --policy easy
conservative parallel 20,000 jobs, 20,000 processors|--trace $TMP/parallel-20000.swf --policy conservative
CASES
fi
