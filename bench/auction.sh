#!/usr/bin/env bash
# The cost of `schedcheck experiment auction` (paper 003 sec. 5), whole processes timed by bench/measure.sh (median
# of RUNS after a warm-up; plots included): one run of the Table 2 scenario (--seeds 1: ten users, 500 tasks, every
# run property on every event) without decision checks ("check_every": 0) and with the default (every 10th decision
# of each broker against auction-bid's exact bnb); the default sweep (10 seeds); 100 seeds with --jobs 2 (one timed
# run). Exit 1 (a property failing) is still timed. Our own.
# Usage: bench/auction.sh [SCHEDCHECK] [RUNS]   (defaults: build/cli/schedcheck, 5).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$here/build/cli/schedcheck}
RUNS=${2:-5}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/measure.sh"
python3 - "$here/examples/scenarios/auction.json" "$TMP/unchecked.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["check_every"] = 0; json.dump(d, open(sys.argv[2], "w"))
PY
echo "| what | median wall s | min | max | peak MiB | target | |"
echo "|---|---|---|---|---|---|---|"
measure --max-exit 1 --target 1 "one Table 2 run, no decision checks" \
  "$BIN" experiment auction --scenario "$TMP/unchecked.json" --seeds 1 --out "$TMP/out-bare" -q --force
measure --max-exit 1 --target 1 "one Table 2 run, every 10th broker decision against auction-bid" \
  "$BIN" experiment auction --seeds 1 --out "$TMP/out-one" -q --force
RUNS=1 measure --max-exit 1 "the default sweep, 10 seeds, --jobs 1" "$BIN" experiment auction --out "$TMP/out-ten" -q --force
RUNS=1 measure --max-exit 1 --target 60 "100 seeds, --jobs 2" \
  "$BIN" experiment auction --seeds 100 --jobs 2 --out "$TMP/out-hundred" -q --force
python3 - "$TMP/out-one/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); c = d["decision_checks"]
print(f"(one run: {d['invariants']['decisions']} events through the run properties; {c['checked']} decisions checked, "
      f"{c['undecided']} undecided at their 250 ms limit)")
PY
