#!/usr/bin/env bash
# The experiments' speed targets of docs/performance.md ("Experiments"), as whole processes timed with /usr/bin/time:
# every experiment's --quick form on 2 threads (target: under a minute each), the full federation experiment, alone and
# with every reading of its claims (target: under 5 minutes), and one 60-day run of the metascheduler (offers-plb,
# Schema 1, one seed; target: seconds). Each command RUNS times after one warm-up; median wall seconds.
# Usage: bench/experiments.sh SCHEDCHECK TRACES_DIR [RUNS] [quick|federation|single|all]
# Our own. Prints a markdown table a row per command (bench/measure.sh); stops at a run that exits with more than 1
# (0: no violation, 1: a run found one, which tests/*.sh judge).
set -euo pipefail
S=${1:?usage: experiments.sh SCHEDCHECK TRACES_DIR [RUNS] [quick|federation|single|all]}
TRACES=${2:?}
RUNS=${3:-3}
WHAT=${4:-all}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export SCHEDCHECK_TRACES=$TRACES

. "$ROOT/bench/measure.sh"

echo "| command | median wall s | min | max | peak MiB | target | |"
echo "|---|---|---|---|---|---|---|"
if [ "$WHAT" = quick ] || [ "$WHAT" = all ]; then
  for e in backfilling federation metascheduler dbc; do
    measure --max-exit 1 --target 60 "experiment $e --quick --jobs 2" "$S" experiment "$e" --quick --jobs 2 --out "$TMP/out" -q
  done
fi
if [ "$WHAT" = federation ] || [ "$WHAT" = all ]; then
  python3 - "$ROOT/examples/scenarios/federation.json" "$TRACES" "$TMP/federation.json" <<'EOF'
import json, os, sys
scenario = json.load(open(sys.argv[1]))
for w in scenario["workloads"]:
    w["trace"] = os.path.join(os.path.abspath(sys.argv[2]), os.path.basename(w["trace"]))
json.dump(scenario, open(sys.argv[3], "w"), indent=1)
EOF
  measure --max-exit 1 --target 300 "experiment federation --jobs 2" \
    "$S" experiment federation --scenario "$TMP/federation.json" --jobs 2 --out "$TMP/out" -q
  measure --max-exit 1 --target 300 "experiment federation --readings --jobs 2" \
    "$S" experiment federation --scenario "$TMP/federation.json" --readings --jobs 2 --out "$TMP/out" -q
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
  measure --max-exit 1 --target 10 "experiment metascheduler, one 60-day run (offers-plb, Schema 1, 1 seed)" \
    "$S" experiment metascheduler --scenario "$TMP/one.json" --seeds 1 --jobs 1 --out "$TMP/out" -q
fi
