#!/usr/bin/env bash
# `schedcheck audit` on hand-made schedules: each invariant it checks is violated by one small CSV and reported
# (exit 1) with the job and the instant, certain verdicts apart from differences with schedcheck's replay; our own
# schedules audit clean (exit 0). Source: our own (docs/simulation.md,
# "Auditing another simulator's schedule"). Usage: audit.sh SCHEDCHECK
set -u
S=${1:?usage: audit.sh SCHEDCHECK}
. "$(dirname "$0")/common.sh"

# audit_expect NAME EXIT SUBSTRING -- ARGS...: exit code and a substring of stdout.
audit_expect() {
  local name=$1 want_rc=$2 want=$3
  shift 4
  "$S" audit "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" -eq "$want_rc" ] || { fail "$name: exit $rc, expected $want_rc: $(cat "$T/out" "$T/err" | head -c 600)"; return; }
  grep -qF -- "$want" "$T/out" || { fail "$name: output lacks '$want': $(head -c 600 "$T/out")"; return; }
  echo "ok: $name"
}

H=job_id,submission_time,starting_time,finish_time,allocated_resources
# P = 4. A (2 procs, 10 s) at 0; B (4 procs, 5 s) at 1; C (1 proc, 5 s) at 2; E (1 proc, 20 s) at 3.
cat >"$T/w.json" <<'EOF'
{"kind": "workload", "name": "w", "processors": 4, "jobs": [
 {"id": 1, "submit": 0, "run": 10, "estimate": 10, "procs": 2}, {"id": 2, "submit": 1, "run": 5, "estimate": 5, "procs": 4},
 {"id": 3, "submit": 2, "run": 5, "estimate": 5, "procs": 1}, {"id": 5, "submit": 3, "run": 20, "estimate": 20, "procs": 1}]}
EOF
# EASY as it should be: C backfills at 2 (ends 7 <= 10, B's reservation); E waits for B: 15.
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n3,2,2,7,2\n5,3,15,35,0\n' "$H" >"$T/easy.csv"
audit_expect "a correct EASY schedule" 0 "every invariant holds" -- -t "$T/w.json" -s "$T/easy.csv" -p easy
audit_expect "a correct EASY schedule, processors model" 0 "every invariant holds" -- \
  -t "$T/w.json" -s "$T/easy.csv" -p easy --model processors
# E backfilled at 3 over B's reservation [10, 15): B can only start at 23.
printf '%s\n1,0,0,10,0-1\n2,1,23,28,0-3\n3,2,2,7,2\n5,3,3,23,3\n' "$H" >"$T/careless.csv"
# Certain: whatever the scheduler's legal choices, B is reserved at 10 at the latest when it becomes first in the
# queue (at 1); the blame goes to the job that took the processors (E), once, and nothing is repeated as a difference.
audit_expect "a backfill that delays the pivot" 1 "VIOLATION easy-pivot-not-delayed at t=3 (job 5): job 5 (queued after job 2) started at 3 on 1 processors held until 23, which job 2 needed: first in the queue from 1, it is reserved at its earliest fit among the jobs running then, 10 at the latest; job 2 started at 23" -- \
  -t "$T/w.json" -s "$T/careless.csv" -p easy
audit_expect "... reported once" 1 "verdict   1 certain violations (exit 1)" -- -t "$T/w.json" -s "$T/careless.csv" -p easy
audit_expect "... the same as conservative" 1 "(job 5): job 5 (queued after job 2) started at 3 on 1 processors held until 23, which job 2 needed: at its arrival (1) a conservative scheduler reserves it at its earliest fit, which the jobs before it push to 10 at the latest" -- \
  -t "$T/w.json" -s "$T/careless.csv" -p conservative
# EASY broken at the instant of a backfill, though the pivot starts before its reservation: job 3 (2 processors,
# estimate 30) starts at 2 while job 2 (4 processors) waits for its shadow time 20, with none to spare; job 1 then ends
# early (5 of its 20), and job 2 still starts at 12, before 20.
cat >"$T/bf.json" <<'EOF2'
{"kind": "workload", "name": "backfill", "processors": 4, "jobs": [
 {"id": 1, "submit": 0, "run": 5, "estimate": 20, "procs": 2}, {"id": 2, "submit": 1, "run": 10, "estimate": 10, "procs": 4},
 {"id": 3, "submit": 2, "run": 10, "estimate": 30, "procs": 2}]}
EOF2
printf 'job_id,submission_time,starting_time,finish_time\n1,0,0,5\n2,1,12,22\n3,2,2,12\n' >"$T/bf.csv"
for passes in instant event; do
  audit_expect "a backfill breaking EASY at its start, passes $passes" 1 "VIOLATION easy-pivot-not-delayed at t=2 (job 3): job 3 (2 processors, estimate 30) started at 2 while job 2 waited first in the queue: with the jobs running then held until start + estimate, job 2's shadow time is 20 with 0 processors to spare, and job 3 takes more and ends by its estimate at 32" -- \
    -t "$T/bf.json" -s "$T/bf.csv" -p easy --passes "$passes"
done
# The same start ending by the shadow time is legal: job 3's estimate 18 (it ends by 20).
sed 's/"run": 10, "estimate": 30/"run": 10, "estimate": 18/' "$T/bf.json" >"$T/bf-short.json"
audit_expect "... and a backfill that ends by the shadow time is not" 0 "every invariant holds" -- \
  -t "$T/bf-short.json" -s "$T/bf.csv" -p easy

# FCFS: C waits behind B (15); E too (15): audited as EASY, C could have started at 2.
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n3,2,15,20,0\n5,3,15,35,1\n' "$H" >"$T/fcfs.csv"
audit_expect "an FCFS schedule is fcfs" 0 "every invariant holds" -- -t "$T/w.json" -s "$T/fcfs.csv" -p fcfs
audit_expect "an FCFS schedule is not EASY" 1 "job 3 (1 processors, estimate 5) fits at 2 without delaying job 2, first in the queue (reserved at 10 at the earliest), but waits until 15" -- \
  -t "$T/w.json" -s "$T/fcfs.csv" -p easy
audit_expect "an EASY schedule is not FCFS" 1 "job 3 (submitted 2) starts at 2 while job 2 (submitted 1) waits until 10" -- \
  -t "$T/w.json" -s "$T/easy.csv" -p fcfs
# Rows that no policy would write.
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n3,2,1,6,2\n5,3,15,35,0\n' "$H" >"$T/early.csv"
audit_expect "a start before the submit time" 1 "job 3 starts at 1, before its submit time 2" -- -t "$T/w.json" -s "$T/early.csv" -p easy
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n3,2,2,9,2\n5,3,15,35,0\n' "$H" >"$T/long.csv"
audit_expect "a job that runs too long" 1 "job 3 runs 7 s" -- -t "$T/w.json" -s "$T/long.csv" -p easy
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n5,3,15,35,0\n' "$H" >"$T/missing.csv"
audit_expect "a job missing" 1 "job 3 (submitted at 2, 1 processors) is not in the schedule: no row names it, so no verdict from 2 on is certain" -- -t "$T/w.json" -s "$T/missing.csv" -p easy
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n3,2,2,7,2\n5,3,15,35,0\n9,3,15,35,1\n' "$H" >"$T/extra.csv"
audit_expect "a row for a job the trace does not have" 1 "job 9 is not a job of the trace" -- -t "$T/w.json" -s "$T/extra.csv" -p easy
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n3,2,2,7,1\n5,3,15,35,0\n' "$H" >"$T/twice.csv"
audit_expect "a processor held twice" 1 "processor 1 is held by job 1 over [0, 10) and by job 3 from 2" -- \
  -t "$T/w.json" -s "$T/twice.csv" -p easy
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n3,2,2,7,2\n5,3,2,22,3\n' "$H" >"$T/over.csv"
audit_expect "more processors than the machine" 1 "processors are in use on a machine of 4" -- -t "$T/w.json" -s "$T/over.csv" -p conservative
# An overfull machine names the start that overfills it and the jobs holding the rest.
audit_expect "... blamed on the start, the holders named" 1 "VIOLATION capacity at t=10 (job 2): at t = 10, 5 processors are in use on a machine of 4: job 2 (4 processors) starts while job 5 (1) holds the rest" -- \
  -t "$T/w.json" -s "$T/over.csv" -p conservative
# 1,200 jobs that each run a second too long fill the kept findings; the overfull machine after them is still shown.
python3 - "$T/many.json" "$T/many.csv" <<'EOF2'
import json, sys
jobs = [{"id": j, "submit": 20 * j, "run": 10, "estimate": 10, "procs": 1} for j in range(1, 1201)]
jobs += [{"id": 5000 + k, "submit": 30000, "run": 10, "estimate": 10, "procs": 1} for k in range(3)]
json.dump({"kind": "workload", "name": "many", "processors": 2, "jobs": jobs}, open(sys.argv[1], "w"))
with open(sys.argv[2], "w") as f:
    f.write("job_id,submission_time,starting_time,finish_time\n")
    for j in jobs:
        f.write("%d,%d,%d,%d\n" % (j["id"], j["submit"], j["submit"], j["submit"] + (11 if j["id"] < 5000 else 10)))
EOF2
audit_expect "the first capacity finding after 1,200 others" 1 "VIOLATION capacity at t=30000 (job 5002): at t = 30000, 3 processors are in use on a machine of 2: job 5002 (1 processors) starts while job 5000 (1), job 5001 (1) hold the rest" -- \
  -t "$T/many.json" -s "$T/many.csv" -p fcfs
"$S" audit -t "$T/many.json" -s "$T/many.csv" -p fcfs --json --show 3 >"$T/many-out.json"
python3 - "$T/many-out.json" <<'EOF2' && echo "ok: ... and in JSON, after the first --show" || fail "the first capacity finding in JSON: $(head -c 600 "$T/many-out.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["violations_by_invariant"]["run-time-kept"] == 1200 and d["violations_by_invariant"]["capacity"] == 1, d["violations_by_invariant"]
shown = [v["invariant"] for v in d["violations"]]
assert shown == ["run-time-kept"] * 3 + ["capacity"], shown
EOF2

# Dated where it happens: a processor held twice and an overfull machine at the instant of the start that does it
# (both were dated t=0).
audit_expect "a processor held twice, dated" 1 "VIOLATION capacity at t=2 (job 3):" -- -t "$T/w.json" -s "$T/twice.csv" -p easy
audit_expect "an overfull machine, dated" 1 "VIOLATION capacity at t=10 (job 2):" -- -t "$T/w.json" -s "$T/over.csv" -p conservative
# Times in full (1.06265e+06 printed both 1062652 and 1062653).
cat >"$T/late.json" <<'EOF2'
{"kind": "workload", "name": "late", "processors": 4, "jobs": [{"id": 1, "submit": 1062653, "run": 10, "estimate": 10, "procs": 1}]}
EOF2
printf '%s\n1,1062653,1062652,1062662,0\n' "$H" >"$T/late.csv"
audit_expect "times printed in full" 1 "job 1 starts at 1062652, before its submit time 1062653" -- \
  -t "$T/late.json" -s "$T/late.csv" -p easy
# A missing job is reported once and the replay goes on without it: the rest of the schedule audits clean.
audit_expect "a job missing, nothing else reported" 1 "verdict   1 certain violations (exit 1)" -- \
  -t "$T/w.json" -s "$T/missing.csv" -p easy
# A legal EASY schedule whose row of job 2 was lost: job 2 ran over [10, 20) beside job 3, so job 4 waited for them.
# The loss is reported once, and what job 4's wait looks like without job 2 is not certain.
cat >"$T/lost.json" <<'EOF2'
{"kind": "workload", "name": "lost", "processors": 4, "jobs": [
 {"id": 1, "submit": 0, "run": 10, "estimate": 10, "procs": 4}, {"id": 2, "submit": 10, "run": 10, "estimate": 10, "procs": 2},
 {"id": 3, "submit": 10, "run": 10, "estimate": 10, "procs": 2}, {"id": 4, "submit": 11, "run": 10, "estimate": 10, "procs": 2}]}
EOF2
printf 'job_id,submission_time,starting_time,finish_time\n1,0,0,10\n3,10,10,20\n4,11,20,30\n' >"$T/lost.csv"
audit_expect "a lost row, reported once" 1 "verdict   1 certain violations; 2 findings not certain (exit 1)" -- \
  -t "$T/lost.json" -s "$T/lost.csv" -p easy
audit_expect "... and the wait beside it not certain" 1 "NOT CERTAIN easy-maximal at t=11 (job 4): job 4, first in the queue, fits at 11 (2 processors free) but waits until 20 (not certain: job 2 has no row, and may have waited or held processors at 11)" -- \
  -t "$T/lost.json" -s "$T/lost.csv" -p easy
# A row of a record the reading rules skip (no processor count) is no certain violation, nor is a wait it explains.
# Job 2 has no processor count: pyss runs it as a job of 1 s on 1 processor, before job 3.
printf '; MaxProcs: 1\n1 0 -1 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n2 10 -1 480 -1 -1 -1 -1 600 -1 1 -1 -1 -1 -1 -1 -1 -1\n3 10 -1 5 1 -1 -1 1 5 -1 1 -1 -1 -1 -1 -1 -1 -1\n' \
  >"$T/skipped.swf"
printf 'job_id,submission_time,starting_time,finish_time\n1,0,0,10\n2,10,10,11\n3,10,11,16\n' >"$T/skipped.csv"
skipped_expect() {  # skipped_expect NAME EXIT SUBSTRING [OPTIONS...]: that schedule audited as FCFS
  local name=$1 rc=$2 want=$3
  shift 3
  audit_expect "$name" "$rc" "$want" -- -t "$T/skipped.swf" -s "$T/skipped.csv" -p fcfs "$@"
}
skipped_expect "a row of a skipped record, not certain" 0 "NOT CERTAIN jobs-conserved at t=10 (job 2): line 3: job 2 is a record the reading rules skip (no processor count (fields 5 and 8 both -1 or 0)): the audit leaves it out"
skipped_expect "... and the wait it explains" 0 "NOT CERTAIN fcfs-order at t=10 (job 3): job 3, first in the queue, fits at 10 (1 processors free) but waits until 11 (not certain: job 2 is a record the reading rules skip"
skipped_expect "... with --strict, exit 1" 1 "verdict   no certain violation; 2 findings not certain (exit 1)" --strict
skipped_expect "... read as pyss reads it" 0 "every invariant holds" --invalid-records unit-job --strict

# A compressed schedule, or workload, reads as the plain one; a corrupt one is one line, exit 2.
gzip -c "$T/easy.csv" >"$T/easy.csv.gz"
audit_expect "a .csv.gz schedule" 0 "every invariant holds" -- -t "$T/w.json" -s "$T/easy.csv.gz" -p easy
gzip -c "$T/w.json" >"$T/w.json.gz"
audit_expect "a .json.gz workload" 0 "every invariant holds" -- -t "$T/w.json.gz" -s "$T/easy.csv" -p easy
head -c 40 "$T/w.json.gz" >"$T/cut.json.gz"
"$S" audit -t "$T/cut.json.gz" -s "$T/easy.csv" -p easy >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -qF "cut.json.gz" "$T/err"; then echo "ok: a truncated .json.gz workload"
else fail "a truncated .json.gz workload: exit $rc: $(head -c 300 "$T/err")"; fi

# A legal conservative schedule made with one pass per event (pyss's way; tests/data/per_event_conservative.py, an
# independent simulator) differs from schedcheck's once-per-instant replay: differences, never certain violations.
D=$(dirname "$0")/data
python3 "$D/per_event_conservative.py" "$D/per-event-ties.swf" 4 >"$T/ties.csv"
python3 "$D/per_event_conservative.py" "$D/per-event-random.swf" 16 >"$T/random.csv"
audit_expect "a per-event conservative schedule (ties)" 0 "verdict   no certain violation; 2 differences from schedcheck's replay (exit 0)" -- \
  -t "$D/per-event-ties.swf" -s "$T/ties.csv" -p conservative
audit_expect "... worded as a difference" 0 "DIFFERENCE conservative-guarantee at t=10 (job 4): job 4 placed over [10, 60)" -- \
  -t "$D/per-event-ties.swf" -s "$T/ties.csv" -p conservative
audit_expect "... exit 1 with --strict" 1 "verdict   no certain violation; 2 differences from schedcheck's replay (exit 1)" -- \
  -t "$D/per-event-ties.swf" -s "$T/ties.csv" -p conservative --strict
audit_expect "a per-event conservative schedule (300 jobs)" 0 "verdict   no certain violation;" -- \
  -t "$D/per-event-random.swf" -s "$T/random.csv" -p conservative
"$S" audit -t "$D/per-event-random.swf" -s "$T/random.csv" -p conservative --json >"$T/random.json"
python3 - "$T/random.json" <<'EOF2' && echo "ok: per-event schedule in JSON: certain and differences apart" || fail "per-event JSON: $(head -c 400 "$T/random.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["violations_total"] == 0 and d["exit_code"] == 0, d
assert d["differences_total"] > 0 and d["differences_by_invariant"]["conservative-guarantee"] > 0, d
assert all(v["invariant"] in ("conservative-guarantee", "easy-maximal") for v in d["differences"]), d
assert any("easy-maximal" in why for why in d["no_certain_check"]), d
EOF2
# The same ties schedule with job 3 held back to 110: at its arrival it was reserved at 100 at the latest, and no
# job queued after it held processors then: it waited, certainly.
sed 's/^3,1,60,110$/3,1,110,160/' "$T/ties.csv" >"$T/late3.csv"
audit_expect "a conservative job held past any reservation" 1 "VIOLATION conservative-guarantee at t=100 (job 3): job 3 waited: at its arrival (1) a conservative scheduler reserves it at its earliest fit, which the jobs before it push to 100 at the latest, and it started at 110 (4 of 4 processors were free at 100)" -- \
  -t "$D/per-event-ties.swf" -s "$T/late3.csv" -p conservative

# compare-runs: two runs of different workloads, or an empty run, are refused (exit 2, one line).
compare_refused() {
  local name=$1 want=$2
  shift 2
  "$S" compare-runs "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" -eq 2 ] || { fail "$name: exit $rc, expected 2: $(cat "$T/out" "$T/err" | head -c 400)"; return; }
  grep -qF -- "$want" "$T/err" || { fail "$name: stderr lacks '$want': $(head -c 400 "$T/err")"; return; }
  [ "$(wc -l <"$T/err")" -eq 1 ] || { fail "$name: more than one stderr line"; return; }
  echo "ok: $name"
}
cat >"$T/w2.json" <<'EOF2'
{"kind": "workload", "name": "w2", "processors": 4, "jobs": [
 {"id": 1, "submit": 0, "run": 10, "estimate": 10, "procs": 2}, {"id": 2, "submit": 7, "run": 5, "estimate": 5, "procs": 4},
 {"id": 3, "submit": 2, "run": 5, "estimate": 5, "procs": 1}, {"id": 5, "submit": 3, "run": 20, "estimate": 20, "procs": 1}]}
EOF2
"$S" simulate --trace "$T/w.json" --policy easy -q --jobs-csv "$T/run1.csv" >/dev/null 2>&1
"$S" simulate --trace "$T/w2.json" --policy easy -q --jobs-csv "$T/run2.csv" >/dev/null 2>&1
compare_refused "compare-runs of two workloads (named)" "(workload \"w\" against \"w2\"): expected two runs of the same workload" "$T/run1.csv" "$T/run2.csv"
# The same jobs under another name (a copy of the trace) are one workload.
sed 's/"name": "w"/"name": "w-copy"/' "$T/w.json" >"$T/w-copy.json"
"$S" simulate --trace "$T/w-copy.json" --policy fcfs -q --jobs-csv "$T/run3.csv" >/dev/null 2>&1
"$S" compare-runs "$T/run1.csv" "$T/run3.csv" >"$T/out" 2>"$T/err" && grep -q "4 jobs in both" "$T/out" \
  && echo "ok: compare-runs of one workload under two names" || fail "compare-runs of one workload under two names: $(cat "$T/out" "$T/err" | head -c 300)"
# The same jobs but the workload column gone: the submit times tell.
cut -d, -f1,4,9,11 "$T/run1.csv" >"$T/bare1.csv"
cut -d, -f1,4,9,11 "$T/run2.csv" >"$T/bare2.csv"
compare_refused "compare-runs of two workloads (submit times)" "job \"2\" was submitted at 1" "$T/bare1.csv" "$T/bare2.csv"
head -n 1 "$T/run1.csv" >"$T/empty.csv"
compare_refused "compare-runs with an empty run" "no job rows" "$T/empty.csv" "$T/run1.csv"
"$S" compare-runs "$T/run1.csv" "$T/run1.csv" >"$T/out" 2>"$T/err" && grep -q "4 jobs in both" "$T/out" \
  && echo "ok: compare-runs of one workload" || fail "compare-runs of one run with itself: $(cat "$T/out" "$T/err" | head -c 300)"
# A CSV opening with a UTF-8 byte-order mark (as spreadsheets write) reads as the same CSV without it.
printf '\xef\xbb\xbf' | cat - "$T/run1.csv" >"$T/bom.csv"
"$S" compare-runs "$T/bom.csv" "$T/run1.csv" >"$T/out" 2>"$T/err" && grep -q "4 jobs in both" "$T/out" \
  && echo "ok: compare-runs of a CSV with a byte-order mark" || fail "compare-runs of a CSV with a byte-order mark: $(cat "$T/out" "$T/err" | head -c 300)"
printf '\xef\xbb\xbf' | cat - "$T/easy.csv" >"$T/easy-bom.csv"
audit_expect "a schedule with a byte-order mark" 0 "every invariant holds" -- -t "$T/w.json" -s "$T/easy-bom.csv" -p easy

# A trace with a job number twice is refused where it is read (simulate wrote a CSV that audit refused).
printf '; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n1 5 -1 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n' \
  >"$T/dup.swf"
"$S" simulate --trace "$T/dup.swf" --policy easy -q --jobs-csv "$T/dup.csv" >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "line 3: field 1 (job number): job 1 is listed twice (first on line 2)" "$T/err" \
  && [ ! -e "$T/dup.csv" ]; then echo "ok: a job number twice is refused"
else fail "a job number twice: exit $rc: $(head -c 300 "$T/err")"; fi

# Our own runs audit clean.
for policy in fcfs easy conservative; do
  "$S" simulate --trace "$T/w.json" --policy "$policy" -q --jobs-csv "$T/own.csv" >/dev/null 2>&1
  audit_expect "our own $policy schedule" 0 "every invariant holds" -- -t "$T/w.json" -s "$T/own.csv" -p "$policy" --strict
done

finish audit
