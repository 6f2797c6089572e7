#!/usr/bin/env bash
# The cost of `schedcheck experiment auction` (paper 003 sec. 5). One run of the Table 2 scenario (--seeds 1: ten
# users, 500 tasks, every run property on every event), without decision checks ("check_every": 0) and with the
# default (every 10th decision of each broker against auction-bid's exact bnb), median of RUNS; the default sweep
# (10 seeds); a sweep of 100 seeds with --jobs 2. Wall time of the whole command, from the start of the process to its
# last file (plots included). Our own. Usage: bench/auction.sh [SCHEDCHECK] [RUNS]   (defaults: build/cli/schedcheck, 5).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$here/build/cli/schedcheck}
RUNS=${2:-5}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
seconds() {  # COMMAND...: the wall time of one run, seconds (exit 1 is a run whose properties failed: still timed)
  local start end rc
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 && rc=0 || rc=$?
  [ "$rc" -le 1 ] || { echo "failed ($rc): $*" >&2; exit 1; }
  end=$(date +%s.%N)
  python3 -c "print(round($end - $start, 3))"
}
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
python3 - "$here/examples/scenarios/auction.json" "$T/unchecked.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["check_every"] = 0; json.dump(d, open(sys.argv[2], "w"))
PY
bare=$(for _ in $(seq "$RUNS"); do seconds "$BIN" experiment auction --scenario "$T/unchecked.json" --seeds 1 --out "$T/bare" -q --force; done | median)
one=$(for _ in $(seq "$RUNS"); do seconds "$BIN" experiment auction --seeds 1 --out "$T/one" -q --force; done | median)
ten=$(seconds "$BIN" experiment auction --out "$T/ten" -q)
hundred=$(seconds "$BIN" experiment auction --seeds 100 --jobs 2 --out "$T/hundred" -q)
events=$(python3 -c "import json; d=json.load(open('$T/one/summary.json')); print(d['invariants']['decisions'])")
checks=$(python3 -c "import json; d=json.load(open('$T/one/summary.json')); c=d['decision_checks']; print(c['checked'], 'checked,', c['undecided'], 'undecided')")
echo "one Table 2 run, no decision checks (median of $RUNS, $events events through the run properties): $bare s"
echo "one Table 2 run, every 10th broker decision against auction-bid ($checks; median of $RUNS): $one s"
echo "default sweep, 10 seeds, --jobs 1: $ten s"
echo "100 seeds, --jobs 2: $hundred s"
