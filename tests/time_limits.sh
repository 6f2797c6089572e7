#!/usr/bin/env bash
# Exit codes and wall time under --timeout-ms (issue 12): every exact method of every problem at 1, 5, 20 and 100 ms
# on small generated instances, then large instances beyond what a method can do in its limit. Never exit 4, always 0
# or 3, within the limit plus a margin. Source: our own (docs/cli.md, "Time limits"). Usage: time_limits.sh SCHEDCHECK
set -u

SCHEDCHECK=${1:?usage: time_limits.sh SCHEDCHECK [MARGIN_MS]}
# The documented margin is 1 s; the default here is more generous because CI machines are slow and shared.
MARGIN_MS=${2:-3000}
. "$(dirname "$0")/common.sh"
runs=0

# timed WHAT LIMIT ARGS...: runs `schedcheck ARGS --timeout-ms LIMIT`; asserts exit 0 or 3 (neither solve nor these
# checks have a property that fails) and a wall time within LIMIT + MARGIN_MS.
timed() {
  local what=$1 limit=$2
  shift 2
  local start elapsed rc
  start=$(now_ms)
  "$SCHEDCHECK" "$@" --timeout-ms "$limit" >"$T/out" 2>"$T/err"
  rc=$?
  elapsed=$(($(now_ms) - start))
  runs=$((runs + 1))
  case $rc in
    0 | 3) ;;
    *) fail "$what --timeout-ms $limit: exit $rc: $(head -c 300 "$T/err")" ;;
  esac
  [ "$elapsed" -le $((limit + MARGIN_MS)) ] || fail "$what --timeout-ms $limit: took $elapsed ms (margin $MARGIN_MS ms)"
}

# generate PROBLEM SEED SIZE: prints the instance file's name (generated once).
generate() {
  local file="$T/$1-$2-$3.json"
  [ -f "$file" ] || "$SCHEDCHECK" generate "$1" --seed "$2" --size "$3" >"$file" || fail "generate $*"
  echo "$file"
}

# ---------------------------------------------------------------- sweep: every exact method, short limits
# Problems and exact methods from `list --json`, so that a new method is swept without editing this file.
"$SCHEDCHECK" list --json >"$T/list.json" || { echo "FAIL: list --json"; exit 1; }
python3 -c '
import json, sys
for p in json.load(open(sys.argv[1])):
    for m in p["exact"]:
        print(p["problem"], m["name"])' "$T/list.json" >"$T/methods"
[ -s "$T/methods" ] || { echo "FAIL: no exact methods listed"; exit 1; }
while read -r problem method; do
  for spec in 1:3 2:12; do  # seed:size, a small and a mid-sized instance
    file=$(generate "$problem" "${spec%%:*}" "${spec##*:}")
    for limit in 1 5 20 100; do
      timed "solve $problem --exact $method ($(basename "$file"))" "$limit" solve "$problem" -i "$file" --exact "$method"
    done
  done
done <"$T/methods"

# ---------------------------------------------------------------- large instances (issue 12's reports)
# Before the fix: 88 s; 32 s; 8-15 s and exit 4 ("canceled").
timed "solve sla-admission-timed (400 bids)" 2000 solve sla-admission-timed -i "$(generate sla-admission-timed 1 400)"
timed "solve sla-admission --exact z3-optimize (10,000 bids)" 2000 \
  solve sla-admission --exact z3-optimize -i "$(generate sla-admission 1 10000)"
timed "solve deadline-feasibility (300 jobs)" 2000 solve deadline-feasibility -i "$(generate deadline-feasibility 3 300)"
# --tolerance 1: since issue 15 the default method proves this optimum, and the policy's gap must not fail the check.
timed "check sla-admission-timed --policy greedy-backfilling (400 bids)" 2000 \
  check sla-admission-timed --policy greedy-backfilling --tolerance 1 -i "$(generate sla-admission-timed 1 400)"

# ---------------------------------------------------------------- issue 34's large instances
# Before the fixes (2,000 ms limit): sla-admission z3 80 s at 100,000 bids (quadratic preprocessing before the
# limit started); offers gecode killed after 60 s at 10,000 jobs (400 here: 2.3 s); offer-composition and
# dbc-cost-time z3 4.4 and 4.2 s at 10,000; queue-window bnb 17.5 s at 100,000 jobs.
timed "solve sla-admission --exact z3 (100,000 bids)" 1000 \
  solve sla-admission --exact z3 -i "$(generate sla-admission 1 100000)"
timed "solve offers --exact gecode (400 jobs)" 1000 solve offers --exact gecode --json -i "$(generate offers 1 400)"
grep -q "exceed its limit of" "$T/out" || fail "offers gecode at 400 jobs: not refused: $(head -c 300 "$T/out")"
timed "solve offer-composition --exact z3-providers (10,000 providers)" 1000 \
  solve offer-composition --exact z3-providers --json -i "$(generate offer-composition 1 10000)"
grep -q "encoding terms, more than" "$T/out" || fail "offer-composition z3 at 10,000 providers: not refused"
timed "solve dbc-cost-time --exact z3 (10,000 jobs)" 1000 \
  solve dbc-cost-time --exact z3 --json -i "$(generate dbc-cost-time 1 10000)"
grep -q "encoding terms, more than" "$T/out" || fail "dbc-cost-time z3 at 10,000 jobs: not refused"
timed "solve queue-window --exact bnb (100,000 jobs)" 1000 \
  solve queue-window --exact bnb -i "$(generate queue-window 1 100000)"

echo "$runs runs"
finish time_limits
