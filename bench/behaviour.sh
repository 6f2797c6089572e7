#!/usr/bin/env bash
# Same behaviour, two builds: runs `simulate` and `audit` in every configuration below with two schedcheck binaries
# (BASE, e.g. one built from an earlier commit, and NEW) and compares what they write: the per-job CSV byte for byte,
# and the --json summary field by field but for the wall-time fields (wall_seconds, jobs_per_second, seconds,
# solve_seconds). Our own. Usage: bench/behaviour.sh BASE NEW [TRACES_DIR] [quick]
#   quick: small-cluster.swf, KTH-SP2 and lublin_256 only (no HPC2N, fewer window checks): about a minute.
# Exit 0 when every pair agrees, 1 with the first differences printed otherwise.
set -uo pipefail
BASE=${1:?usage: behaviour.sh BASE NEW [TRACES_DIR] [quick]}
NEW=${2:?usage: behaviour.sh BASE NEW [TRACES_DIR] [quick]}
here=$(cd "$(dirname "$0")/.." && pwd)
TRACES=${3:-$here/../shared/traces}
MODE=${4:-full}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

SMALL=$here/examples/small-cluster.swf
KTH=$TRACES/KTH-SP2-1996-2.1-cln.swf
LUBLIN=$TRACES/lublin_256.swf
HPC2N=$TRACES/HPC2N-2002-2.2-cln.swf.gz
traces=("$SMALL" "$KTH" "$LUBLIN")
[ "$MODE" = quick ] || traces+=("$HPC2N")

pairs=0
failed=0
# compare LABEL KIND ARGS...: KIND simulate (CSV + JSON) or audit (JSON)
compare() {
  local label=$1 kind=$2
  shift 2
  local side rc_base rc_new
  for side in base new; do
    local bin=$BASE
    [ "$side" = new ] && bin=$NEW
    if [ "$kind" = simulate ]; then
      # One CSV path for both sides (the summary names it); moved aside after each run.
      "$bin" simulate "$@" -q --json --jobs-csv "$TMP/run.csv" >"$TMP/$side.json" 2>"$TMP/$side.err"
      mv -f "$TMP/run.csv" "$TMP/$side.csv" 2>/dev/null || : >"$TMP/$side.csv"
    else
      "$bin" audit "$@" --json >"$TMP/$side.json" 2>"$TMP/$side.err"
    fi
    echo $? >"$TMP/$side.rc"
  done
  pairs=$((pairs + 1))
  rc_base=$(cat "$TMP/base.rc")
  rc_new=$(cat "$TMP/new.rc")
  local why=""
  [ "$rc_base" = "$rc_new" ] || why="exit $rc_base vs $rc_new ($(head -c 300 "$TMP/new.err"))"
  if [ -z "$why" ] && [ "$kind" = simulate ] && ! cmp -s "$TMP/base.csv" "$TMP/new.csv"; then
    why="per-job CSV differs: $(cmp "$TMP/base.csv" "$TMP/new.csv" 2>&1 | head -1)"
  fi
  if [ -z "$why" ]; then
    why=$(python3 - "$TMP/base.json" "$TMP/new.json" <<'EOF'
import json, sys
WALL = {"wall_seconds", "jobs_per_second", "seconds", "solve_seconds"}
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in WALL}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
def diff(a, b, path=""):
    if type(a) != type(b):
        return f"{path}: {a!r} vs {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'new' if k in b else 'base'}"
            d = diff(a[k], b[k], f"{path}.{k}")
            if d: return d
        return ""
    if isinstance(a, list):
        if len(a) != len(b): return f"{path}: {len(a)} vs {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            d = diff(x, y, f"{path}[{i}]")
            if d: return d
        return ""
    return "" if a == b else f"{path}: {a!r} vs {b!r}"
a, b = (strip(json.load(open(p))) for p in sys.argv[1:3])
print(diff(a, b))
EOF
)
    [ -z "$why" ] || why="--json summary differs at $why"
  fi
  if [ -n "$why" ]; then
    failed=$((failed + 1))
    echo "DIFFERS: $label: $why"
  else
    echo "same: $label"
  fi
}

for trace in "${traces[@]}"; do
  name=$(basename "$trace")
  for model in count processors; do
    for policy in fcfs easy conservative; do
      compare "$name $policy $model" simulate --trace "$trace" --policy "$policy" --model "$model" --check
    done
    compare "$name easy --pivots 4 $model" simulate --trace "$trace" --policy easy --pivots 4 --model "$model" --check
    compare "$name conservative --estimates runtime $model" simulate --trace "$trace" --policy conservative \
      --estimates runtime --model "$model" --check
  done
  # Several clusters behind a broker: both brokers, a latency, status reports.
  procs=$(grep -m1 -E '^; *MaxProcs:' <(zcat -f "$trace") | grep -oE '[0-9]+' | head -1)
  [ -n "$procs" ] || procs=64
  half=$((procs / 2))
  third=$((procs / 3))
  for broker in least-loaded round-robin; do
    compare "$name 2 clusters $broker" simulate --trace "$trace" --policy easy --clusters "$half,$half" \
      --broker "$broker" --latency 5 --status-period 300 --check
    compare "$name 3 clusters $broker processors" simulate --trace "$trace" --policy conservative --model processors \
      --clusters "$procs,$half,$third" --broker "$broker" --latency 0 --status-period 600 --check
  done
  # Exact queue windows along the run (sampled on the long traces).
  every=1
  [ "$trace" = "$SMALL" ] || every=200
  [ "$MODE" = quick ] && [ "$trace" != "$SMALL" ] && every=1000
  compare "$name easy --check-windows 6:$every" simulate --trace "$trace" --policy easy --check-windows "6:$every"
  # The audit of our own schedules, and of one policy's schedule as another's.
  for policy in fcfs easy conservative; do
    "$NEW" simulate --trace "$trace" --policy "$policy" -q --jobs-csv "$TMP/$policy.schedule.csv" >/dev/null 2>&1
  done
  compare "$name audit easy as easy" audit --trace "$trace" --schedule "$TMP/easy.schedule.csv" --policy easy
  compare "$name audit conservative as conservative" audit --trace "$trace" --schedule "$TMP/conservative.schedule.csv" \
    --policy conservative
  compare "$name audit fcfs as easy" audit --trace "$trace" --schedule "$TMP/fcfs.schedule.csv" --policy easy
  compare "$name audit easy as conservative" audit --trace "$trace" --schedule "$TMP/easy.schedule.csv" --policy conservative
  compare "$name audit easy as fcfs" audit --trace "$trace" --schedule "$TMP/easy.schedule.csv" --policy fcfs
done

echo "$pairs pairs compared, $failed differ"
[ "$failed" -eq 0 ]
