#!/usr/bin/env bash
# `schedcheck audit` on hand-made schedules: each invariant it checks is violated by one small CSV and reported
# (exit 1) with the job and the instant; our own schedules audit clean (exit 0). Source: our own (docs/simulation.md,
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
audit_expect "a backfill that delays the pivot" 1 "job 5 placed over [3, 23) takes processors already promised to job 2 (reserved at 10)" -- \
  -t "$T/w.json" -s "$T/careless.csv" -p easy
audit_expect "... and the pivot starts late" 1 "job 2 starts at 23, later than the reservation 10" -- \
  -t "$T/w.json" -s "$T/careless.csv" -p easy
# FCFS: C waits behind B (15); E too (15): audited as EASY, C could have started at 2.
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n3,2,15,20,0\n5,3,15,35,1\n' "$H" >"$T/fcfs.csv"
audit_expect "an FCFS schedule is fcfs" 0 "every invariant holds" -- -t "$T/w.json" -s "$T/fcfs.csv" -p fcfs
audit_expect "an FCFS schedule is not EASY" 1 "job 3 (1 processors, estimate 5) fits at 2 without touching any reservation, but waits" -- \
  -t "$T/w.json" -s "$T/fcfs.csv" -p easy
audit_expect "an EASY schedule is not FCFS" 1 "job 3 (submitted 2) starts at 2 while job 2 (submitted 1) still waits" -- \
  -t "$T/w.json" -s "$T/easy.csv" -p fcfs
# Rows that no policy would write.
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n3,2,1,6,2\n5,3,15,35,0\n' "$H" >"$T/early.csv"
audit_expect "a start before the submit time" 1 "job 3 starts at 1, before its submit time 2" -- -t "$T/w.json" -s "$T/early.csv" -p easy
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n3,2,2,9,2\n5,3,15,35,0\n' "$H" >"$T/long.csv"
audit_expect "a job that runs too long" 1 "job 3 runs 7 s" -- -t "$T/w.json" -s "$T/long.csv" -p easy
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n5,3,15,35,0\n' "$H" >"$T/missing.csv"
audit_expect "a job missing" 1 "job 3 (submitted at 2) is not in the schedule" -- -t "$T/w.json" -s "$T/missing.csv" -p easy
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n3,2,2,7,2\n5,3,15,35,0\n9,3,15,35,1\n' "$H" >"$T/extra.csv"
audit_expect "a row for a job the trace does not have" 1 "job 9 is not a job of the trace" -- -t "$T/w.json" -s "$T/extra.csv" -p easy
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n3,2,2,7,1\n5,3,15,35,0\n' "$H" >"$T/twice.csv"
audit_expect "a processor held twice" 1 "processor 1 is held by job 1 over [0, 10) and by job 3 from 2" -- \
  -t "$T/w.json" -s "$T/twice.csv" -p easy
printf '%s\n1,0,0,10,0-1\n2,1,10,15,0-3\n3,2,2,7,2\n5,3,2,22,3\n' "$H" >"$T/over.csv"
audit_expect "more processors than the machine" 1 "processors are in use on a machine of 4" -- -t "$T/w.json" -s "$T/over.csv" -p conservative

# Our own runs audit clean.
for policy in fcfs easy conservative; do
  "$S" simulate --trace "$T/w.json" --policy "$policy" -q --jobs-csv "$T/own.csv" >/dev/null 2>&1
  audit_expect "our own $policy schedule" 0 "every invariant holds" -- -t "$T/w.json" -s "$T/own.csv" -p "$policy"
done

finish audit
