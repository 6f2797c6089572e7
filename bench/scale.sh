#!/usr/bin/env bash
# Throughput of one machine's cores and of MPI ranks: a search whose five counterexamples' shrinking is most of the
# work (sla-admission, n = 40), one of ~5 ms trials (offers, EDF against the exact offers), one of ~0.03 ms trials
# (sla-admission, n = 10), the default exhaustive
# offer-composition scope and the metascheduler's --quick sweep (28 points), each with --jobs 1 and 2 (threads) and
# under mpirun -n 1, 2, 4 and 8 (4 and 8 oversubscribe a 2-core machine: their cost over -n 2 is the coordination's).
# One Markdown row per run: the run's own wall time as it reports it (`seconds`, `wall_seconds`: from its start to its
# results, without the launcher's start and end, given apart as `mpirun -n K true`), items a second, and the parallel
# efficiency T(1) / (min(k, cores) x T(k)). Medians of RUNS. Our own; figures in docs/performance.md (Scale-out).
# Usage: bench/scale.sh SCHEDCHECK [RUNS] (default 1); needs mpirun for the MPI rows (skipped without it).
# SCALE_ONLY=TEXT runs the workloads whose name holds TEXT only.
set -eu
S=${1:?usage: bench/scale.sh SCHEDCHECK [RUNS]}
RUNS=${2:-1}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CORES=$(nproc)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd)

# seconds LABEL KEY CMD...: the median over RUNS of the run's own wall time (JSON field KEY of its --json output).
seconds() {
  local label=$1 key=$2
  shift 2
  : >"$TMP/times"
  for _ in $(seq "$RUNS"); do
    rm -rf "$TMP/out"
    local rc=0
    "$@" --json >"$TMP/json" 2>"$TMP/err" || rc=$?
    if [ "$rc" -gt 1 ] && [ "$rc" -ne 3 ]; then echo "$label: exit $rc: $(tail -2 "$TMP/err")" >&2; exit 1; fi
    python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$TMP/json" "$key" >>"$TMP/times"
  done
  sort -g "$TMP/times" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

row() {  # WORKLOAD ITEMS CONFIG K SECONDS T1
  python3 - "$@" "$CORES" <<'PY'
import sys
workload, items, config, k, seconds, t1, cores = sys.argv[1:8]
k, seconds, t1, items, cores = int(k), float(seconds), float(t1), int(items), int(cores)
print(f"| {workload} | {config} | {seconds:.2f} | {items / seconds:,.0f} | {t1 / (min(k, cores) * seconds):.2f} |")
PY
}

echo "| workload | run | wall s | items/s | efficiency |"
echo "| --- | --- | --- | --- | --- |"
bench_one() {  # WORKLOAD ITEMS KEY ARGS...: every configuration of one command (ARGS take --out $TMP/out)
  local workload=$1 items=$2 key=$3
  shift 3
  case $workload in *"${SCALE_ONLY:-}"*) ;; *) return 0 ;; esac
  local t1
  t1=$(seconds "$workload j1" "$key" "$S" "$@" --out "$TMP/out")
  row "$workload" "$items" "--jobs 1" 1 "$t1" "$t1"
  row "$workload" "$items" "--jobs 2" 2 "$(seconds "$workload j2" "$key" "$S" "$@" --out "$TMP/out" --jobs 2)" "$t1"
  if command -v mpirun >/dev/null; then
    for k in 1 2 4 8; do
      row "$workload" "$items" "mpirun -n $k" "$k" \
        "$(seconds "$workload n$k" "$key" mpirun -n "$k" "$S" "$@" --out "$TMP/out")" "$t1"
    done
  fi
}
bench_one "sla-admission search, n = 40 (shrinking 5 counterexamples)" 1500 seconds \
  search sla-admission --policy greedy-backfilling --trials 1500 --size 40 -q
bench_one "offers search, EDF offers (~4 ms a trial, 5 shrunk)" 2000 seconds \
  search offers --policy edf --trials 2000 -q
bench_one "offers search, EDF offers, counts only (--max-counterexamples 0)" 2000 seconds \
  search offers --policy edf --trials 2000 --max-counterexamples 0 -q
bench_one "sla-admission search, n = 10 (~0.03 ms a trial)" 100000 seconds \
  search sla-admission --policy greedy-backfilling --trials 100000 --size 10 -q
bench_one "offer-composition --exhaustive, the default scope" 3173952 seconds \
  search offer-composition --policy offers-dplb --exhaustive -q
bench_one "metascheduler --quick (28 points)" 28 wall_seconds experiment metascheduler --quick -q
if command -v mpirun >/dev/null; then
  for k in 1 2 8; do
    start=$(date +%s.%N); mpirun -n "$k" true; end=$(date +%s.%N)
    echo "| the launcher alone | mpirun -n $k true | $(printf '%.3f' "$(echo "$end - $start" | bc)") | - | - |"
  done
fi
