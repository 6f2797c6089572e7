#!/usr/bin/env bash
# `schedcheck experiment auction` (paper 003 sec. 5): bad scenarios (exit 2, one stderr line naming the file and field,
# nothing written), and the --quick form: every point finishes, no run property is violated, the properties were
# checked on every event, every figure and the claims are written, the CSVs are the same with --jobs 1 and 2, and a
# reading runs beside the default. Our own. Usage: auction_experiment.sh SCHEDCHECK SOURCE_DIR.
set -u
S=${1:?usage: auction_experiment.sh SCHEDCHECK SOURCE_DIR}
SOURCE_DIR=${2:?usage: auction_experiment.sh SCHEDCHECK SOURCE_DIR}
. "$(dirname "$0")/common.sh"
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
AU=$SOURCE_DIR/examples/scenarios/auction.json

# ---------------------------------------------------------------- bad input: exit 2, one line, nothing written
python3 - "$AU" "$T" <<'PY'
import json, sys, os
d = json.load(open(sys.argv[1])); t = sys.argv[2]
def write(name, change):
    e = json.loads(json.dumps(d)); change(e); json.dump(e, open(os.path.join(t, name), "w"))
write("bid-above.json", lambda e: e["users"][0].__setitem__("bid", 700))
write("no-capacity.json", lambda e: e["resources"][1].__setitem__("mips", 0))
write("unknown-domain.json", lambda e: e["users"][2].__setitem__("domain", "Z"))
write("deadline-past.json", lambda e: e["users"][4].__setitem__("deadline", -1))
write("zero-length.json", lambda e: e["users"][5].__setitem__("lengths", [750000, 0]))
write("negative-length.json", lambda e: e["defaults"].__setitem__("min_length", -5))
write("unknown-key.json", lambda e: e.__setitem__("auctioneers", 5))
write("unknown-broker.json", lambda e: e["users"][7].__setitem__("policy", "greedy"))
PY
expect_exit "bid outside its bounds" 2 "users[0].bid" -- "$S" experiment auction --scenario "$T/bid-above.json" --out "$T/x1"
expect_exit "no capacity" 2 "resources[1].mips" -- "$S" experiment auction --scenario "$T/no-capacity.json" --out "$T/x2"
expect_exit "unknown domain" 2 "users[2].domain" -- "$S" experiment auction --scenario "$T/unknown-domain.json" --out "$T/x3"
expect_exit "deadline in the past" 2 "users[4].deadline" -- "$S" experiment auction --scenario "$T/deadline-past.json" --out "$T/x4"
expect_exit "zero length" 2 "users[5].lengths[1]" -- "$S" experiment auction --scenario "$T/zero-length.json" --out "$T/x5"
expect_exit "negative length" 2 "defaults.min_length" -- "$S" experiment auction --scenario "$T/negative-length.json" --out "$T/x6"
expect_exit "unknown key" 2 "auctioneers" -- "$S" experiment auction --scenario "$T/unknown-key.json" --out "$T/x7"
expect_exit "unknown broker" 2 "users[7].policy" -- "$S" experiment auction --scenario "$T/unknown-broker.json" --out "$T/x8"
expect_exit "--trace" 2 "auction scenario" -- "$S" experiment auction --trace "$T/a.swf" --out "$T/x9"
expect_exit "simulate on an auction scenario" 2 "schedcheck experiment auction --scenario FILE" -- "$S" simulate --scenario "$AU" --check
expect_exit "a cluster scenario" 2 "kind: expected \"auction-scenario\"" -- "$S" experiment auction --scenario "$SOURCE_DIR/examples/scenarios/federation.json" --out "$T/x10"
for d in x1 x2 x3 x4 x5 x6 x7 x8 x9 x10; do [ -e "$T/$d" ] && fail "a refused run created $T/$d"; done

# ---------------------------------------------------------------- --quick, --jobs 1, 2 and 0 (every core)
for jobs in 1 2 0; do
  "$S" experiment auction --quick --out "$T/q$jobs" --jobs "$jobs" >"$T/q$jobs.txt" 2>"$T/q$jobs.err" ||
    fail "--quick --jobs $jobs: exit $? ($(tail -3 "$T/q$jobs.err"))"
done
summary=$T/q1/summary.json
[ "$(json "$summary" "d['interrupted'], d['points'] == d['finished'] == 2")" = "(False, True)" ] ||
  fail "--quick: summary $(head -c 600 "$summary")"
[ "$(json "$summary" "sum(d['invariants']['violations_by_invariant'].values())")" = 0 ] ||
  fail "--quick: run properties violated: $(json "$summary" "d['invariants']")"
checked=$(json "$summary" "sorted(d['invariants']['checked'])")
for name in shares-sum-to-capacity bid-within-bounds charged-only-for-use no-task-lost balance-accounted \
  one-task-per-user-per-resource; do
  case "$checked" in *"'$name'"*) ;; *) fail "--quick: $name not checked ($checked)";; esac
done
for f in fig2-bid-R1 fig3-share-R1 fig4-bid-R4 fig5-share-R4 fig6-run-time fig7-cost; do
  [ -s "$T/q1/$f.csv" ] || fail "$f.csv missing"
  [ -s "$T/q1/$f.png" ] || fail "$f.png missing"
  cmp -s "$T/q1/$f.csv" "$T/q2/$f.csv" || fail "$f.csv differs between --jobs 1 and 2"
done
cmp -s "$T/q1/claims.csv" "$T/q2/claims.csv" || fail "claims.csv differs between --jobs 1 and 2"
cmp -s "$T/q1/fig6-run-time.csv" "$T/q0/fig6-run-time.csv" || fail "fig6-run-time.csv differs between --jobs 1 and 0"
grep -q "($(nproc) at a time)" "$T/q0.txt" || fail "--jobs 0: not one worker a core ($(grep '^points' "$T/q0.txt"))"
for f in shares-R0 shares-R2 shares-R3 tasks; do
  [ -s "$T/q1/$f.csv" ] || fail "$f.csv missing"
  cmp -s "$T/q1/$f.csv" "$T/q2/$f.csv" || fail "$f.csv differs between --jobs 1 and 2"
done
# The first seed as a per-job CSV that gantt draws, one band a resource and one lane a user.
"$S" gantt --jobs-csv "$T/q1/jobs-seed1.csv" --clusters 10,10,10,10,10 --max-jobs 1000 --out "$T/gantt.png" >"$T/g.txt" 2>&1 ||
  fail "gantt of jobs-seed1.csv: $(cat "$T/g.txt")"
grep -q "500 jobs" "$T/g.txt" || fail "gantt: $(cat "$T/g.txt")"
# Every task of both runs completed once, after it was submitted and started.
python3 - "$T/q1/tasks.csv" <<'PY' || fail "tasks.csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2 * 10 * 50, len(rows)
assert len({(r["seed"], r["user"], r["task"]) for r in rows}) == len(rows)
assert all(float(r["submitted"]) <= float(r["started"]) < float(r["finished"]) for r in rows)
PY
python3 - "$T/q1" <<'PY' || fail "figures"
import csv, sys
rows = list(csv.DictReader(open(f"{sys.argv[1]}/fig6-run-time.csv")))
assert [r["user"] for r in rows] == [f"U{i}" for i in range(10)], rows
# Every user finished in both runs; the Global Domain users (U2, U7) meet the 10 h deadline.
assert all(r["runs"] == "2" for r in rows), rows
by = {r["user"]: float(r["mean"]) for r in rows}
assert by["U2"] <= 10 and by["U7"] <= 10, by
cost = {r["user"]: float(r["mean"]) for r in csv.DictReader(open(f"{sys.argv[1]}/fig7-cost.csv"))}
assert all(v > 0 for v in cost.values()), cost
claims = list(csv.DictReader(open(f"{sys.argv[1]}/claims.csv")))
assert len(claims) == 14, len(claims)
assert all(c["verdict"] != "not measured" for c in claims), [c for c in claims if c["verdict"] == "not measured"]
PY
# Every 10th decision of each broker went through auction-bid: none failing or invalid (a broker's plan that misses the
# deadline is measured), and the worst as corpus files that re-check with the verdict they record.
[ "$(json "$summary" "[(c['problem'], c['checked'] > 50, c['failing'], c['invalid'], c['measured'] > 0) for c in d['decision_checks_by_problem']]")" = \
  "[('auction-bid', True, 0, 0, True)]" ] || fail "--quick: decision checks $(json "$summary" "d['decision_checks_by_problem']")"
grep -q "^decisions  global-domain: " "$T/q1.txt" || fail "no decision summary of global-domain in the text"
for b in global-domain local-domain no-opt; do [ -s "$T/q1/worst-bid-$b-1.json" ] || fail "no worst-bid-$b-1.json"; done
for f in "$T"/q1/worst-bid-*.json; do
  want=$(json "$f" "d['schedcheck']['verdict']['exit_code']")
  "$S" check auction-bid --policy recorded -i "$f" --exact bnb --tolerance 0 >/dev/null 2>&1
  rc=$?
  [ "$rc" = "$want" ] || fail "$f re-checks with exit $rc, recorded $want"
done
expect_exit "recorded without a record" 2 "records no plan" -- "$S" check auction-bid --policy recorded -i "$SOURCE_DIR/examples/auction-bid-hand.json"
# A reading runs beside the default and gets its column.
"$S" experiment auction --quick --reading task-speed-share --out "$T/r" >"$T/r.txt" 2>"$T/r.err" ||
  fail "--reading task-speed-share: exit $? ($(tail -3 "$T/r.err"))"
[ "$(json "$T/r/summary.json" "d['points']")" = 4 ] || fail "--reading: 4 points expected"
grep -q "task-speed-share" "$T/r/claims-readings.csv" || fail "no claims-readings.csv column for the reading"

# ---------------------------------------------------------------- a broker outside C++ (--policy-cmd)
B="python3 $SOURCE_DIR/examples/policies/auction_broker.py"
"$S" experiment auction --quick --out "$T/o" --policy-cmd "$B" --policy-for U2 --policy-for U7 --policy-name mine \
  >"$T/o.txt" 2>"$T/o.err" || fail "--policy-cmd: exit $? ($(tail -3 "$T/o.err"))"
grep -q "^U2 *mine" "$T/o.txt" || fail "--policy-cmd: U2 not run by mine ($(head -20 "$T/o.txt"))"
[ "$(json "$T/o/summary.json" "sum(d['invariants']['violations_by_invariant'].values())")" = 0 ] ||
  fail "--policy-cmd: violations $(json "$T/o/summary.json" "d['invariants']")"
# Its bids above the maximum are what bid-within-bounds exists for: exit 1 with the broker's bids counted.
"$S" experiment auction --quick --out "$T/ob" --policy-cmd "$B --overbid" --policy-for U2 >"$T/ob.txt" 2>"$T/ob.err"
rc=$?
[ "$rc" = 1 ] || fail "--overbid: exit $rc, 1 expected ($(tail -3 "$T/ob.err"))"
[ "$(json "$T/ob/summary.json" "d['invariants']['violations_by_invariant']['bid-within-bounds'] > 0")" = True ] ||
  fail "--overbid: bid-within-bounds did not fail"
# A process that fails, writes garbage or names no resource of the snapshot: one line, exit 2, no --out left.
expect_exit "a failing broker" 2 "exited with status 1" -- "$S" experiment auction --quick --out "$T/y1" --policy-cmd false --policy-for U2
expect_exit "a garbage broker" 2 "garbage" -- "$S" experiment auction --quick --out "$T/y2" --policy-cmd "echo garbage; cat >/dev/null" --policy-for U2
expect_exit "an unknown user" 2 "--policy-for: no user U22" -- "$S" experiment auction --quick --out "$T/y3" --policy-cmd "$B" --policy-for U22
expect_exit "no --policy-cmd" 2 "needs --policy-cmd" -- "$S" experiment auction --quick --out "$T/y4" --policy-for U2
expect_exit "an experiment without outside policies" 2 "takes no policy outside C++" -- "$S" experiment dbc --out "$T/y5" --policy-cmd "$B" --policy-for U2
for d in y1 y2 y3 y4 y5; do [ -e "$T/$d" ] && fail "a refused run left $T/$d"; done
finish auction_experiment
