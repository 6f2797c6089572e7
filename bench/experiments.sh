#!/usr/bin/env bash
# The experiments' speed targets of docs/performance.md ("Experiments"), as whole processes timed with /usr/bin/time:
# every experiment's --quick form on 2 threads (target: under a minute each), and one 60-day run of the metascheduler
# (offers-plb, Schema 1, one seed; target: seconds). Each command RUNS times after one warm-up; median wall seconds.
# Usage: bench/experiments.sh SCHEDCHECK TRACES_DIR [RUNS] [quick|single|all]
# Our own. Prints a markdown table a row per command; stops at a run that exits with more than 1 (0: no violation,
# 1: a run found one, which tests/*.sh judge).
set -euo pipefail
S=${1:?usage: experiments.sh SCHEDCHECK TRACES_DIR [RUNS] [quick|single|all]}
TRACES=${2:?}
RUNS=${3:-3}
WHAT=${4:-all}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export SCHEDCHECK_TRACES=$TRACES

# measure LABEL TARGET_SECONDS CMD...: prints "| LABEL | median s | min s | max s | peak MiB | target | met |"
measure() {
  local label=$1 target=$2
  shift 2
  "$@" >/dev/null 2>&1 || true  # warm-up (and the page cache)
  : >"$TMP/times"
  for _ in $(seq "$RUNS"); do
    rm -rf "$TMP/out"
    local rc=0
    /usr/bin/time -f "%e %M" -o "$TMP/one" "$@" >/dev/null 2>"$TMP/err" || rc=$?
    if [ "$rc" -gt 1 ]; then  # 0: no violation, 1: a run found one; anything else is no figure
      echo "$label: exit $rc: $(tail -2 "$TMP/err")" >&2
      exit 1
    fi
    cat "$TMP/one" >>"$TMP/times"
  done
  python3 - "$label" "$target" "$TMP/times" <<'EOF'
import statistics, sys
label, target, path = sys.argv[1], sys.argv[2], sys.argv[3]
rows = [line.split() for line in open(path) if line.strip() and line.split()[0][0].isdigit()]
wall = sorted(float(r[0]) for r in rows)
peak = max(int(r[1]) for r in rows) / 1024
median = statistics.median(wall)
met = "-" if target == "-" else ("met" if median < float(target) else "missed")
print(f"| {label} | {median:.2f} | {wall[0]:.2f} | {wall[-1]:.2f} | {peak:.0f} | {'-' if target == '-' else '< ' + target + ' s'} | {met} |")
EOF
}

echo "| command | median wall s | min | max | peak MiB | target | |"
echo "|---|---|---|---|---|---|---|"
if [ "$WHAT" = quick ] || [ "$WHAT" = all ]; then
  for e in backfilling federation metascheduler dbc; do
    measure "experiment $e --quick --jobs 2" 60 "$S" experiment "$e" --quick --jobs 2 --out "$TMP/out" -q
  done
fi
if [ "$WHAT" = single ] || [ "$WHAT" = all ]; then
  # examples/scenarios/metascheduler.json with its sweep cut to one policy and one schema ("in seconds": 10 s here).
  python3 - "$ROOT/examples/scenarios/metascheduler.json" "$TRACES" "$TMP/one.json" <<'EOF'
import json, os, sys
scenario = json.load(open(sys.argv[1]))
for w in scenario["workloads"]:
    w["trace"] = os.path.join(os.path.abspath(sys.argv[2]), os.path.basename(w["trace"]))
scenario["sweep"] = {**scenario.get("sweep", {}), "policies": ["offers-plb"], "deadline_schemas": ["schema-1"]}
json.dump(scenario, open(sys.argv[3], "w"), indent=1)
EOF
  measure "experiment metascheduler, one 60-day run (offers-plb, Schema 1, 1 seed)" 10 \
    "$S" experiment metascheduler --scenario "$TMP/one.json" --seeds 1 --jobs 1 --out "$TMP/out" -q
fi
