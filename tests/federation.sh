#!/usr/bin/env bash
# `schedcheck experiment federation` (paper 004): the greedy-loses scenario (the run earns 160 with every decision at
# its optimum), bad scenarios (exit 2, one stderr line, nothing written), and the --quick form on Table 2 over the
# shared traces: no violation, every admission decision checked, every figure written, the same CSVs with --jobs 1 and
# 2, corpus files (--corpus DIR) that re-check with their recorded verdict; the paper's claims (claims.csv) and the
# readings they depend on (--readings: the pricing reading flips fig4c-budget-rise). Our own.
# Usage: federation.sh SCHEDCHECK SOURCE_DIR. Skips the shared-trace part when no traces folder is found.
set -u
S=${1:?usage: federation.sh SCHEDCHECK SOURCE_DIR}
SOURCE_DIR=${2:?usage: federation.sh SCHEDCHECK SOURCE_DIR}
. "$(dirname "$0")/common.sh"
find_traces "$SOURCE_DIR"
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# ---------------------------------------------------------------- greedy at each decision, fewer earnings over the run
GL=$SOURCE_DIR/examples/scenarios/federation-greedy-loses.json
"$S" experiment federation --scenario "$GL" --out "$T/gl" --json -q >"$T/gl.json" 2>"$T/err" ||
  fail "greedy-loses: exit $? ($(cat "$T/err"))"
python3 - "$T/gl/runs-table.csv" "$T/gl.json" <<'EOF' || fail "greedy-loses: not the documented run"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["bid_share"] for r in rows] == ["0", "0.5"], rows
for r in rows:
    assert float(r["earnings"]) == 160 and r["accepted"] == "1" and r["dropped"] == "2", r
    assert r["decisions_checked"] == r["decisions_at_optimum"] == "3", r
d = json.load(open(sys.argv[2]))
assert d["violations"] == 0 and d["exit_code"] == 0, d
EOF
[ -s "$T/gl/admission-gaps.png" ] || fail "greedy-loses: the gap CDF (every gap 0) was not drawn"

# ---------------------------------------------------------------- bad input: exit 2, one line, nothing written
python3 - "$GL" "$T" <<'EOF'
import json, sys, os
d = json.load(open(sys.argv[1])); t = sys.argv[2]
d["workloads"][0]["trace"] = os.path.join(os.path.dirname(sys.argv[1]), d["workloads"][0]["trace"])
def write(name, change):
    e = json.loads(json.dumps(d)); change(e); json.dump(e, open(os.path.join(t, name), "w"))
write("no-mips.json", lambda e: e["clusters"][0]["parameters"].pop("mips"))
write("bad-workload.json", lambda e: e["clusters"][0]["parameters"].__setitem__("workload", "nope"))
write("bad-share.json", lambda e: e["sweep"].__setitem__("bid_shares", [0.5, 0.2]))
write("policy.json", lambda e: e.__setitem__("policy", {"name": "fcfs"}))
write("nan.json", lambda e: e["clusters"][0]["parameters"].__setitem__("price", -3))
EOF
expect_exit "no mips" 2 "clusters[0].parameters" -- "$S" experiment federation --scenario "$T/no-mips.json" --out "$T/x1"
expect_exit "unknown workload" 2 "workload" -- "$S" experiment federation --scenario "$T/bad-workload.json" --out "$T/x2"
expect_exit "shares out of order" 2 "bid_shares" -- "$S" experiment federation --scenario "$T/bad-share.json" --out "$T/x3"
expect_exit "a cluster policy" 2 "policy" -- "$S" experiment federation --scenario "$T/policy.json" --out "$T/x4"
expect_exit "negative price" 2 "price" -- "$S" experiment federation --scenario "$T/nan.json" --out "$T/x5"
expect_exit "--trace" 2 "scenario file" -- "$S" experiment federation --trace "$T/a.swf" --out "$T/x6"
expect_exit "no such scenario" 2 "none.json" -- "$S" experiment federation --scenario "$T/none.json" --out "$T/x7"
for d in x1 x2 x3 x4 x5 x6 x7; do [ -e "$T/$d" ] && fail "a refused run created $T/$d"; done

if [ -z "$TRACES" ] || [ ! -d "$TRACES" ]; then
  echo "no shared traces folder: the --quick run over Table 2 skipped"
  finish federation_experiment
fi

# ---------------------------------------------------------------- --quick on Table 2, --jobs 1 and 2
with_traces "$SOURCE_DIR/examples/scenarios/federation.json" "$TRACES" "$T/fed.json"
# (Its speed, under a minute, is a benchmark's: bench/experiments.sh, docs/performance.md.)
for jobs in 1 2; do
  "$S" experiment federation --quick --scenario "$T/fed.json" --out "$T/q$jobs" --corpus "$T/corpus$jobs" \
    --jobs "$jobs" >"$T/q$jobs.txt" 2>"$T/q$jobs.err" || fail "--quick --jobs $jobs: exit $? ($(tail -3 "$T/q$jobs.err"))"
done
grep -q "verdict    no violation" "$T/q1.txt" || fail "--quick: no verdict line: $(tail -5 "$T/q1.txt")"
summary=$T/q1/summary.json
[ "$(json "$summary" "d['interrupted'], d['points'] == d['finished'] == 3, d['violations'], d['exit_code']")" = \
  "(False, True, 0, 0)" ] || fail "--quick: summary $(head -c 600 "$summary")"
[ "$(json "$summary" "sorted(d['invariants']['checked'])")" = "['budget-respected', 'capacity', 'drop-asked-every-cluster-with-room', 'expiry-schedule', 'jobs-conserved', 'messages-accounted', 'no-accepted-deadline-violation', 'rejected-only-when-unfit']" ] ||
  fail "--quick: properties checked $(json "$summary" "d['invariants']")"
[ "$(json "$summary" "d['decision_checks']['problem'], d['decision_checks']['checked'] == d['invariants']['decisions'] > 1000, d['decision_checks']['invalid'], d['decision_checks']['undecided']")" = \
  "('sla-admission', True, 0, 0)" ] || fail "--quick: decision checks $(json "$summary" "d['decision_checks']")"
for stem in fig4a-federation-earnings fig4b-federation-response fig4c-federation-budget fig5a-owner-mi \
  fig5b-owner-earnings fig5c-owner-earnings-per-processor fig6a-user-response fig6b-user-budget fig6c-user-accepted \
  fig7a-messages-per-job fig7b-remote-messages fig7c-local-messages admission-gaps; do
  [ -s "$T/q1/$stem.csv" ] || fail "--quick: $stem.csv missing"
  [ -s "$T/q1/$stem.png" ] || fail "--quick: $stem.png missing"
  cmp -s "$T/q1/$stem.csv" "$T/q2/$stem.csv" || fail "--jobs 1 and --jobs 2 wrote different $stem.csv"
done
cmp -s "$T/q1/runs.csv" "$T/q2/runs.csv" || fail "--jobs 1 and --jobs 2 wrote different runs.csv"
# The share of 0 is FCFS decided on arrival; the others Greedy-Backfilling; the 0% run answers every bid at once.
python3 - "$T/q1/runs-table.csv" "$T/q1/admission-gaps.csv" <<'EOF' || fail "--quick: tables"
import csv, sys
runs = list(csv.DictReader(open(sys.argv[1])))
assert [r["bid_share"] for r in runs] == ["0", "0.2", "0.5"], runs
assert all(int(float(r["jobs"])) > 500 and r["violations"] == "0" for r in runs), runs
assert float(runs[2]["messages_per_job"]) >= float(runs[0]["messages_per_job"]), runs
gaps = list(csv.DictReader(open(sys.argv[2])))
assert [g["policy"] for g in gaps] == ["fcfs", "greedy-backfilling", "greedy-backfilling"], gaps
assert gaps[0]["checked"] == gaps[0]["at_optimum"], gaps[0]   # one bid at a time: FCFS is the knapsack optimum
EOF
# The worst decisions, written with --corpus, re-check with the verdict they record.
n=0
for f in "$T/corpus1"/worst-admission-*.json; do
  [ -e "$f" ] || continue
  n=$((n + 1))
  policy=$(json "$f" "d['schedcheck']['policy']")
  recorded=$(json "$f" "d['schedcheck']['verdict']['exit_code']")
  "$S" check sla-admission --policy "$policy" --exact dp -i "$f" >/dev/null 2>&1
  rc=$?
  [ "$rc" = "$recorded" ] || fail "$f re-checks to exit $rc, not its recorded $recorded"
  gap=$(json "$f" "d['schedcheck']['verdict']['gap']")
  [ "$(python3 -c "print($gap > 0)")" = True ] || fail "$f: a worst decision with gap $gap"
done
[ "$n" -ge 1 ] || fail "--corpus: no worst-admission file written"
ls "$T/q1"/worst-admission-*.json >/dev/null 2>&1 && fail "--corpus DIR: corpus files also written in --out"

# ---------------------------------------------------------------- the paper's claims, and the readings they depend on
[ -s "$T/q1/claims.csv" ] && [ -s "$T/q1/claims.md" ] || fail "--quick: no claims.csv or claims.md"
cmp -s "$T/q1/claims.csv" "$T/q2/claims.csv" || fail "--jobs 1 and --jobs 2 wrote different claims.csv"
"$S" experiment federation --quick --readings --scenario "$T/fed.json" --out "$T/r" -q >"$T/r.txt" 2>"$T/r.err"
rc=$?
# The reading "drop at a zero interval" drops jobs before every cluster with room was asked: its runs violate
# drop-asked-every-cluster-with-room (exit 1); the other readings' runs violate nothing.
[ "$rc" -eq 1 ] || fail "--readings: exit $rc ($(tail -3 "$T/r.err"))"
python3 - "$T/r" <<'EOF' || fail "--readings: claims"
import csv, json, sys
d = sys.argv[1]
table = {r["claim"]: r for r in csv.DictReader(open(d + "/claims-readings.csv"))}
readings = ["default", "pricing-wall-clock", "window-first-days", "home-first", "strict-greedy-one-per-call",
            "drop-at-zero-interval", "substitute-at-median-load", "messages-requests-only"]
assert list(next(iter(table.values())).keys()) == ["claim"] + readings, table
# Under wall-clock pricing the users' budget no longer grows with the bid time (a wide job no longer costs more).
assert table["fig4c-budget-rise"]["default"] == "agrees", table["fig4c-budget-rise"]
assert table["fig4c-budget-rise"]["pricing-wall-clock"] == "disagrees", table["fig4c-budget-rise"]
s = json.load(open(d + "/summary.json"))
assert sorted(s["claims"]["by_reading"]) == sorted(readings), s["claims"]
assert sum(s["claims"]["counts"].values()) + sum(s["claims"]["inputs"].values()) == len(table) == 24, s["claims"]
v = s["violations_by_reading"]
assert [r for r in v if v[r]["violations"]] == ["drop-at-zero-interval"], v
assert list(v["drop-at-zero-interval"]["by_invariant"]) == ["drop-asked-every-cluster-with-room"], v
rows = list(csv.DictReader(open(d + "/claims.csv")))
assert len(rows) == 24 * 8 and all(r["paper"] and r["test"] and r["where"] for r in rows), rows[0]
assert [r["claim"] for r in rows if r["kind"] == "input"][:1] == ["sec4-lanl-job-counts"], rows
# LANL Origin replays another trace (the scenario marks it "substitute"): the claims about it are judged at most
# partly, with the reason.
counts = next(r for r in rows if r["claim"] == "sec4-lanl-job-counts" and r["reading"] == "default")
assert counts["verdict"] == "partly" and "not judged" in counts["measured"], counts
EOF
"$S" claims "$T/r" --markdown >"$T/claims.md" 2>"$T/err" || fail "schedcheck claims: exit $? ($(cat "$T/err"))"
grep -qF '| `fig4c-budget-rise` | agrees → **disagrees**' "$T/claims.md" || fail "schedcheck claims --markdown: $(head -5 "$T/claims.md")"
expect_exit "claims of a bad file" 2 "no column claim" -- "$S" claims "$T/q1/runs.csv"

finish federation_experiment
