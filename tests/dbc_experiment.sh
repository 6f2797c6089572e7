#!/usr/bin/env bash
# `schedcheck experiment dbc` (paper 001 Tables 3-5, Fig. 2-5): options it refuses (exit 2, one stderr line, nothing
# written), then the whole experiment: 30 runs, no violation, every figure written, the numbers of docs/policies.md
# ("Paper reproduction", computed by hand there from `check`) and the paper's beside them, identical CSVs with --jobs 1
# and 2. Our own (issue 36). Usage: dbc_experiment.sh SCHEDCHECK.
set -u
S=${1:?usage: dbc_experiment.sh SCHEDCHECK}
. "$(dirname "$0")/common.sh"
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

expect_exit "--trace" 2 "Table 2" -- "$S" experiment dbc --trace "$T/a.swf" --out "$T/x1"
expect_exit "--scenario" 2 "Table 2" -- "$S" experiment dbc --scenario "$T/a.json" --out "$T/x2"
expect_exit "--seeds" 2 "deterministic" -- "$S" experiment dbc --seeds 3 --out "$T/x3"
for d in x1 x2 x3; do [ -e "$T/$d" ] && fail "a refused run created $T/$d"; done

"$S" experiment dbc --quick --out "$T/q" -q >"$T/q.txt" 2>"$T/q.err" || fail "--quick: exit $? ($(cat "$T/q.err"))"
[ "$(json "$T/q/summary.json" "d['finished']")" = 30 ] || fail "30 runs expected: $(json "$T/q/summary.json" "d['finished']")"
[ "$(json "$T/q/summary.json" "sum(d['invariants']['violations_by_invariant'].values())")" = 0 ] || fail "violations: $(cat "$T/q.txt")"
for f in table3-execution-time table4-processing-cost table5-speedup fig5-cost-comparison exact-gap; do
  [ -s "$T/q/$f.csv" ] || fail "$f.csv missing"
  [ -s "$T/q/$f.png" ] || fail "$f.png missing"
done
python3 - "$T/q" <<'PY' || fail "figures differ from docs/policies.md's table"
import csv, sys
d = sys.argv[1]
rows = {r["input"]: r for r in csv.DictReader(open(f"{d}/table5-speedup.csv"))}
# docs/policies.md "Paper reproduction": T without / with DBC, the paper's Table 5
want = {"1": (11.868, 17.802, 66.71, 58.06), "3": (21.595333, 26.994167, 85.92, 79.60), "5": (18.150667, 28.85, 94.15, 89.32)}
for k, (without, with_, pw, pd) in want.items():
    r = rows[k]
    assert abs(float(r["without_s"]) - without) < 1e-4, r
    assert abs(float(r["with_s"]) - with_) < 1e-4, r
    assert float(r["paper_without_s"]) == pw and float(r["paper_with_s"]) == pd, r
gaps = {(r["cost_unit"], r["policy"], r["input"]): r for r in csv.DictReader(open(f"{d}/exact-gap.csv"))}
g = gaps[("per-mi", "dbc-cost-time", "3")]
assert abs(float(g["cost"]) - 153447.7) < 1e-6 and abs(float(g["exact_min_cost"]) - 104804.0) < 1e-6, g
assert abs(float(g["gap"]) - 0.4641397) < 1e-6, g
cost = {r["input"]: r for r in csv.DictReader(open(f"{d}/table4-processing-cost.csv"))}
assert float(cost["1"]["paper_g"]) == 33476.49 and abs(float(cost["1"]["per_mi_g"]) - 58911.2) < 1e-6, cost["1"]
assert all(float(r["per_pe_second_min_g"]) <= float(r["per_pe_second_g"]) + 1e-6 for r in cost.values())
PY
# The worst decisions as corpus files: each re-checks with its recorded verdict (input 3's 46% gap first).
[ -s "$T/q/worst-dbc-1.json" ] || fail "no worst-dbc-1.json"
for f in "$T"/q/worst-dbc-*.json; do
  want=$(json "$f" "d['schedcheck']['verdict']['exit_code']")
  "$S" check dbc-cost-time --policy "$(json "$f" "d['schedcheck']['policy']")" -i "$f" --exact dp --tolerance 0 >/dev/null 2>&1
  rc=$?
  [ "$rc" = "$want" ] || fail "$f re-checks with exit $rc, recorded $want"
done
[ "$(json "$T/q/worst-dbc-1.json" "d['schedcheck']['verdict']['fails']")" = "['cost-optimal-within']" ] || fail "worst-dbc-1: $(json "$T/q/worst-dbc-1.json" "d['schedcheck']['verdict']")"
[ "$(json "$T/q/summary.json" "d['decision_checks']['proven']")" = 30 ] || fail "30 decisions proven expected"
"$S" experiment dbc --out "$T/j2" --jobs 2 -q >/dev/null 2>&1 || fail "--jobs 2: exit $?"
for f in runs.csv exact-gap.csv table4-processing-cost.csv; do
  cmp -s "$T/q/$f" "$T/j2/$f" || fail "$f differs between --jobs 1 and 2"
done
finish "dbc experiment"
