#!/usr/bin/env bash
# `schedcheck experiment availability` (paper 002 sec. 5): bad scenarios (exit 2, one stderr line, nothing written),
# and the --quick form over the shared DAS-2 log: every point finishes, no run invariant is violated, every gateway
# choice of earliest-ask is the exact earliest start on the providers' true profiles, the periodic gateway's
# violations rise with the interval in the runs table, every figure and the claims are written, and the CSVs are the
# same with --jobs 1 and 2. Our own. Usage: availability_experiment.sh SCHEDCHECK SOURCE_DIR. Skips the --quick part
# without traces.
set -u
S=${1:?usage: availability_experiment.sh SCHEDCHECK SOURCE_DIR}
SOURCE_DIR=${2:?usage: availability_experiment.sh SCHEDCHECK SOURCE_DIR}
. "$(dirname "$0")/common.sh"
find_traces "$SOURCE_DIR"
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
AV=$SOURCE_DIR/examples/scenarios/availability.json

# ---------------------------------------------------------------- bad input: exit 2, one line, nothing written
python3 - "$AV" "$T" <<'PY'
import json, sys, os
d = json.load(open(sys.argv[1])); t = sys.argv[2]
for w in d["workloads"]:
    w["trace"] = os.path.join(os.path.dirname(sys.argv[1]), w["trace"])
def write(name, change):
    e = json.loads(json.dumps(d)); change(e); json.dump(e, open(os.path.join(t, name), "w"))
write("zero-interval.json", lambda e: e["sweep"].__setitem__("intervals", [900, 0]))
write("negative-interval.json", lambda e: e["sweep"].__setitem__("intervals", [-60]))
write("unknown-workload.json", lambda e: e["sweep"]["grid"].__setitem__("workload", "DAS2-fs9"))
write("window-backwards.json", lambda e: e["sweep"]["grid"].__setitem__("to_day", 100))
write("unknown-key.json", lambda e: e["sweep"].__setitem__("planning", 3600))
write("long-warmup.json", lambda e: e["sweep"].__setitem__("warmup_days", 200))
write("no-grid-jobs.json", lambda e: e["sweep"]["grid"].update({"from_day": 4000, "to_day": 4100}))
write("no-sweep.json", lambda e: e.pop("sweep"))
write("horizon-zero.json", lambda e: e["sweep"].__setitem__("horizon", 0))
write("horizon-negative.json", lambda e: e["sweep"].__setitem__("horizon", -600))
write("bad-forecast.json", lambda e: e["sweep"].__setitem__("forecast", "best"))
write("bad-partitions.json", lambda e: e["sweep"].__setitem__("partitions", "by-size"))
write("unknown-policy.json", lambda e: e["sweep"].__setitem__("providers", {"Cb": "conservative-deluxe"}))
write("unknown-acronym.json", lambda e: e["sweep"].__setitem__("providers", {"CbX": "conservative"}))
write("no-reservations.json", lambda e: e["sweep"].__setitem__("providers", {"Cb": "fcfs"}))
PY
expect_exit "interval 0" 2 "sweep.intervals[1]" -- "$S" experiment availability --scenario "$T/zero-interval.json" --out "$T/x1"
expect_exit "negative interval" 2 "sweep.intervals[0]" -- "$S" experiment availability --scenario "$T/negative-interval.json" --out "$T/x2"
expect_exit "unknown workload" 2 "sweep.grid.workload" -- "$S" experiment availability --scenario "$T/unknown-workload.json" --out "$T/x3"
expect_exit "window backwards" 2 "sweep.grid.to_day" -- "$S" experiment availability --scenario "$T/window-backwards.json" --out "$T/x4"
expect_exit "unknown key" 2 "planning" -- "$S" experiment availability --scenario "$T/unknown-key.json" --out "$T/x5"
expect_exit "warm-up longer than the window" 2 "sweep.warmup_days" -- "$S" experiment availability --scenario "$T/long-warmup.json" --out "$T/x6"
expect_exit "no sweep block" 2 "sweep" -- "$S" experiment availability --scenario "$T/no-sweep.json" --out "$T/x8"
expect_exit "--trace" 2 "scenario file" -- "$S" experiment availability --trace "$T/a.swf" --out "$T/x7"
expect_exit "horizon 0" 2 "sweep.horizon: expected a planning horizon after now" -- "$S" experiment availability --scenario "$T/horizon-zero.json" --out "$T/x10"
expect_exit "horizon before now" 2 "sweep.horizon" -- "$S" experiment availability --scenario "$T/horizon-negative.json" --out "$T/x11"
expect_exit "unknown forecast reading" 2 "sweep.forecast" -- "$S" experiment availability --scenario "$T/bad-forecast.json" --out "$T/x12"
expect_exit "unknown partitions" 2 "sweep.partitions" -- "$S" experiment availability --scenario "$T/bad-partitions.json" --out "$T/x13"
expect_exit "unknown policy" 2 "sweep.providers.Cb: expected a cluster policy" -- "$S" experiment availability --scenario "$T/unknown-policy.json" --out "$T/x14"
expect_exit "unknown acronym" 2 "sweep.providers.CbX" -- "$S" experiment availability --scenario "$T/unknown-acronym.json" --out "$T/x15"
expect_exit "a provider that takes no reservation" 2 "keeps advance reservations" -- "$S" experiment availability --scenario "$T/no-reservations.json" --out "$T/x16"
for d in x1 x2 x3 x4 x5 x6 x7 x8 x10 x11 x12 x13 x14 x15 x16; do [ -e "$T/$d" ] && fail "a refused run created $T/$d"; done

if [ -z "$TRACES" ] || [ ! -d "$TRACES" ]; then
  echo "no shared traces folder: the --quick run over the DAS-2 log skipped"
  finish availability_experiment
fi
with_traces "$T/no-grid-jobs.json" "$TRACES" "$T/no-grid.json"
expect_exit "a window without grid jobs" 2 "sweep.grid: no job of" -- "$S" experiment availability --scenario "$T/no-grid.json" --out "$T/x9"
[ -e "$T/x9" ] && fail "a refused run created $T/x9"

# ---------------------------------------------------------------- --quick, --jobs 1 and 2, and the reading of Alg. 1 as printed
with_traces "$AV" "$TRACES" "$T/av.json"
for jobs in 1 2; do
  "$S" experiment availability --quick --scenario "$T/av.json" --out "$T/q$jobs" --jobs "$jobs" >"$T/q$jobs.txt" 2>"$T/q$jobs.err" ||
    fail "--quick --jobs $jobs: exit $? ($(tail -3 "$T/q$jobs.err"))"
done
summary=$T/q1/summary.json
[ "$(json "$summary" "d['interrupted'], d['points'] == d['finished'] == 21")" = "(False, True)" ] ||
  fail "--quick: summary $(head -c 600 "$summary")"
[ "$(json "$summary" "sum(d['invariants']['violations_by_invariant'].values())")" = 0 ] ||
  fail "--quick: run invariants violated: $(json "$summary" "d['invariants']")"
checked=$(json "$summary" "sorted(d['invariants']['checked'])")
for name in capacity reservation-honoured slots-free-when-published partition-pivot-not-delayed borrowing-delays-no-pivot; do
  case "$checked" in *"'$name'"*) ;; *) fail "--quick: $name not checked ($checked)";; esac
done
for f in fig3a-messages fig3b-violations fig3c-grid-slowdown fig4a-ratio-grid fig4b-ratio-local fig5a-ratio-grid-interval \
  fig5b-ratio-local-interval; do
  [ -s "$T/q1/$f.csv" ] || fail "$f.csv missing"
  [ -s "$T/q1/$f.png" ] || fail "$f.png missing"
  cmp -s "$T/q1/$f.csv" "$T/q2/$f.csv" || fail "$f.csv differs between --jobs 1 and 2"
done
cmp -s "$T/q1/runs-table.csv" "$T/q2/runs-table.csv" || fail "runs-table.csv differs between --jobs 1 and 2"
cmp -s "$T/q1/claims.csv" "$T/q2/claims.csv" || fail "claims.csv differs between --jobs 1 and 2"
python3 - "$T/q1" <<'PY' || fail "runs table"
import csv, sys
rows = {r["label"]: r for r in csv.DictReader(open(f"{sys.argv[1]}/runs-table.csv"))}
ask = rows["ArCb+earliest-ask"]
# Asked for before each job, the slots are fresh: every choice is the exact earliest start, and no job starts late.
assert int(ask["choices_checked"]) > 0 and ask["choices_checked"] == ask["choices_at_optimum"], ask
assert float(ask["violations"]) == 0, ask
# The base is R = 0 against itself; 20% of the grid jobs carry deadlines in Fig. 3's runs only.
base = rows["Eb+least-load"]
assert float(base["ratio_grid"]) == 0 and float(base["ratio_local"]) == 0, base
assert int(ask["deadline_jobs"]) > 0 and int(rows["ArCbM+least-load"]["deadline_jobs"]) == 0
# Violations at the periodic gateway do not fall as the interval grows, and earliest-ask needs the most messages.
v = [float(rows[f"ArCb+earliest-partial-{i}"]["violations"]) for i in ("15min", "30min", "1h", "2h")]
assert v == sorted(v) and v[-1] > 0, v
m = [float(rows[f"ArCb+earliest-partial-{i}"]["messages"]) for i in ("15min", "30min", "1h", "2h")]
assert all(float(ask["messages"]) > x for x in m) and m == sorted(m, reverse=True), (ask["messages"], m)
# Mf (easy-forecast-fixed) runs at every interval; its providers publish their Grid partitions' slots themselves.
assert all(f"ArEbMf+earliest-partial-{i}" in rows for i in ("15min", "30min", "1h", "2h")), sorted(rows)
for label, r in rows.items():
    assert float(r["invariant_violations"]) == 0, (label, r)
    assert int(r["grid_jobs"]) > 1000 and int(r["local_jobs"]) > 5000, (label, r)
PY
# Every gateway choice went through gateway-choice: none unexplained (a miss the stale slots do not explain, or a choice
# above the optimum, would be failing), the stale misses measured; the worst ones as corpus files that re-check with
# their recorded verdict.
[ "$(json "$summary" "[(c['problem'], c['checked'] > 0, c['failing'], c['measured'] > 0) for c in d['decision_checks_by_problem']]")" = \
  "[('gateway-choice', True, 0, True)]" ] || fail "--quick: decision checks $(json "$summary" "d['decision_checks_by_problem']")"
[ -s "$T/q1/worst-choice-1.json" ] || fail "no worst-choice-1.json"
for f in "$T"/q1/worst-choice-*.json; do
  want=$(json "$f" "d['schedcheck']['verdict']['exit_code']")
  "$S" check gateway-choice --policy earliest-start -i "$f" --exact scan --tolerance 0 >/dev/null 2>&1
  rc=$?
  [ "$rc" = "$want" ] || fail "$f re-checks with exit $rc, recorded $want"
  "$S" check gateway-choice --policy earliest-start -i "$f" --exact scan 2>&1 | grep -q "miss-explained-by-staleness *holds" ||
    fail "$f: the miss is not explained by the stale slots"
done
[ "$(python3 -c "import csv,sys; print(len(list(csv.DictReader(open(sys.argv[1])))))" "$T/q1/claims.csv")" = 12 ] ||
  fail "claims.csv: 12 claims expected"
grep -q "fig4-ebmf" "$T/q1/claims.csv" || fail "claims.csv lacks fig4-ebmf"
# Algorithm 1 as printed (the reading forecast-as-printed): its providers never inform the gateway.
"$S" experiment availability --quick --scenario "$T/av.json" --reading forecast-as-printed --out "$T/r" --jobs 2 \
  >"$T/r.txt" 2>"$T/r.err" || fail "--reading forecast-as-printed: exit $? ($(tail -3 "$T/r.err"))"
[ "$(json "$T/r/summary.json" "d['points']")" = 25 ] || fail "--reading: 25 points expected"
python3 - "$T/r" <<'PY' || fail "the reading's runs"
import csv, sys
rows = [r for r in csv.DictReader(open(f"{sys.argv[1]}/runs.csv")) if r["provider"] == "EbMf" and r["metric"] == "messages_slots"]
printed = [float(r["value"]) for r in rows if r["reading"] == "forecast-as-printed"]
fixed = [float(r["value"]) for r in rows if r["reading"] != "forecast-as-printed"]
assert len(printed) == 4 and all(v == 0 for v in printed), printed
assert len(fixed) == 4 and all(v > 0 for v in fixed), fixed
PY
grep -q "forecast-as-printed" "$T/r/claims-readings.csv" || fail "no claims-readings.csv column for the reading"
finish availability_experiment
