#!/usr/bin/env bash
# Another simulator's conventions (--round, --run-offset, --estimate-offset, --min-time, --estimate-at-least-run,
# --run-is-estimate, --kill-at-request, --invalid-records, --processor-field allocated-only) on simulate and audit: a
# schedule made with GridSim's +1 s audits clean only when the audit is told of it; pyss's reading of a job killed at
# its request; the records our rules skip read as pyss and GridSim read them; the options' bad values. Source: our
# own (docs/simulation.md, "Conventions of other simulators"). Usage: conventions.sh SCHEDCHECK
set -u
S=${1:?usage: conventions.sh SCHEDCHECK}
. "$(dirname "$0")/common.sh"

# P = 4. Job 1: 2 procs, runs 10.6 s, requests 8 (killed at 8 here; pyss: believed 10, ends at 8). Job 2: runs 0 s
# (pyss, GridSim, Alea: 1 s). Job 3: 4 procs, 5 s, requests 20.
cat >"$T/w.swf" <<'EOF2'
; MaxProcs: 4
1 0 -1 10.6 2 -1 -1 2 8 -1 1 -1 -1 -1 -1 -1 -1 -1
2 1 -1 0 1 -1 -1 1 5 -1 1 -1 -1 -1 -1 -1 -1 -1
3 2 -1 5 4 -1 -1 4 20 -1 1 -1 -1 -1 -1 -1 -1 -1
EOF2
ends() {
  python3 -c 'import csv, sys
print(" ".join("%s:%g-%g" % (r["job_id"], float(r["starting_time"]), float(r["finish_time"]))
               for r in csv.DictReader(open(sys.argv[1]))))' "$1"
}

"$S" simulate -t "$T/w.swf" -p easy -q --jobs-csv "$T/plain.csv" >/dev/null || fail "simulate without conventions"
[ "$(ends "$T/plain.csv")" = "1:0-8 2:1-1 3:8-13" ] || fail "no conventions: $(ends "$T/plain.csv")"
"$S" simulate -t "$T/w.swf" -p easy -q --round floor --min-time 1 --estimate-at-least-run --jobs-csv "$T/pyss.csv" \
  >"$T/out" || fail "simulate as pyss"
[ "$(ends "$T/pyss.csv")" = "1:0-8 2:1-2 3:8-13" ] || fail "as pyss: $(ends "$T/pyss.csv")"
grep -qF "times     as another simulator's: round floor, at least 1 s, estimate >= run" "$T/out" ||
  fail "simulate does not say which conventions it used: $(head -3 "$T/out")"
# GridSim: every run and estimate + 1 s.
"$S" simulate -t "$T/w.swf" -p easy -q --run-offset 1 --estimate-offset 1 --jobs-csv "$T/gridsim.csv" >/dev/null ||
  fail "simulate as GridSim"
[ "$(ends "$T/gridsim.csv")" = "1:0-9 2:1-2 3:9-15" ] || fail "as GridSim: $(ends "$T/gridsim.csv")"
"$S" audit -t "$T/w.swf" -s "$T/gridsim.csv" -p easy >"$T/out"
[ $? -eq 1 ] && grep -qF "VIOLATION run-time-kept" "$T/out" || fail "GridSim's schedule audited as ours: $(cat "$T/out")"
"$S" audit -t "$T/w.swf" -s "$T/gridsim.csv" -p easy --run-offset 1 --estimate-offset 1 --json >"$T/out" ||
  fail "GridSim's schedule audited with its conventions: $(cat "$T/out")"
grep -qF '"conventions": "run +1 s, estimate +1 s"' "$T/out" || fail "audit --json lacks the conventions"
# The records our rules skip, read as another simulator reads them, and where a job's processors and run come from.
# Job 2 runs 0 s; job 3 names no processors; job 4 no run time; job 5 only requested processors (field 8).
cat >"$T/odd.swf" <<'EOF2'
; MaxProcs: 4
1 0 -1 10 2 -1 -1 2 8 -1 1 -1 -1 -1 -1 -1 -1 -1
2 1 -1 0 1 -1 -1 1 5 -1 1 -1 -1 -1 -1 -1 -1 -1
3 2 -1 5 -1 -1 -1 -1 20 -1 1 -1 -1 -1 -1 -1 -1 -1
4 3 -1 -1 1 -1 -1 1 20 -1 1 -1 -1 -1 -1 -1 -1 -1
5 4 -1 6 -1 -1 -1 2 20 -1 1 -1 -1 -1 -1 -1 -1 -1
EOF2
odd() {  # odd NAME EXPECTED OPTIONS...: the FCFS run's start-end of every job
  local name=$1 want=$2
  shift 2
  "$S" simulate -t "$T/odd.swf" -p fcfs -q "$@" --jobs-csv "$T/odd.csv" >/dev/null || { fail "$name: simulate exit $?"; return; }
  [ "$(ends "$T/odd.csv")" = "$want" ] || fail "$name: $(ends "$T/odd.csv"), expected $want"
}
odd "our rules" "1:0-8 2:1-1 5:4-10"
odd "pyss's 1 s jobs" "1:0-8 2:1-2 3:2-3 4:3-4 5:4-10" --invalid-records unit-job
odd "pyss reading field 5 alone" "1:0-8 2:1-2 3:2-3 4:3-4 5:4-5" --invalid-records unit-job --processor-field allocated-only
odd "GridSim's one processor" "1:0-8 2:1-1 3:2-7 5:7-13" --invalid-records one-processor
odd "Alea's field 5 alone" "1:0-8 2:1-1" --processor-field allocated-only
odd "GridSim's length, the requested time" "1:0-8 2:1-6 5:6-26" --run-is-estimate
odd "Alea's exact estimates, killed at the request" "1:0-8 2:1-1 5:4-10" --estimates runtime --kill-at-request
"$S" simulate -t "$T/odd.swf" -p fcfs -q --invalid-records unit-job --json >"$T/out"
grep -qF '"invalid_records_read": 3' "$T/out" || fail "simulate --json does not count the records read by --invalid-records"
[ "$failures" -eq 0 ] && echo "ok: records the rules skip, read as pyss and GridSim do; Alea's and GridSim's fields"

# The JSON workload form takes them too.
printf '{"kind": "workload", "name": "j", "processors": 2, "jobs": [{"id": 7, "submit": 0, "run": 0, "procs": 1}]}' \
  >"$T/w.json"
"$S" simulate -t "$T/w.json" -p fcfs -q --min-time 1 --jobs-csv "$T/json.csv" >/dev/null || fail "simulate a JSON workload"
[ "$(ends "$T/json.csv")" = "7:0-1" ] || fail "JSON workload, --min-time 1: $(ends "$T/json.csv")"
[ "$failures" -eq 0 ] && echo "ok: schedules made with each simulator's conventions"

# One pass per event (pyss, Alea): on the ties trace the run reproduces, start for start, the schedule of
# tests/data/per_event_conservative.py (an independent per-event simulator after pyss), where once an instant swaps
# jobs 3 and 4; the per-event schedule audits clean when the replay decides the same way.
D=$(dirname "$0")/data
starts() { python3 -c 'import csv,sys; print(" ".join(r["job_id"] + ":" + r["starting_time"] for r in csv.DictReader(open(sys.argv[1]))))' "$1"; }
python3 "$D/per_event_conservative.py" "$D/per-event-ties.swf" 4 >"$T/py-ties.csv" || fail "per_event_conservative.py"
"$S" simulate -t "$D/per-event-ties.swf" -p conservative --passes event --jobs-csv "$T/ev-ties.csv" >"$T/out" ||
  fail "simulate --passes event"
[ "$(starts "$T/ev-ties.csv")" = "$(starts "$T/py-ties.csv")" ] ||
  fail "--passes event: $(starts "$T/ev-ties.csv") against the per-event simulator's $(starts "$T/py-ties.csv")"
grep -qF "passes    one after every arrival and every completion (--passes event)" "$T/out" ||
  fail "simulate does not say it decided per event: $(head -4 "$T/out")"
"$S" simulate -t "$D/per-event-ties.swf" -p conservative --jobs-csv "$T/in-ties.csv" -q >/dev/null
[ "$(starts "$T/in-ties.csv")" != "$(starts "$T/py-ties.csv")" ] || fail "once an instant should differ on the ties trace"
python3 "$D/per_event_conservative.py" "$D/per-event-random.swf" 16 >"$T/py-random.csv"
"$S" audit -t "$D/per-event-random.swf" -s "$T/py-random.csv" -p conservative --passes event --strict --json >"$T/out" ||
  fail "the per-event simulator's schedule, replayed per event: $(head -c 600 "$T/out")"
grep -qF '"pass_convention": "event"' "$T/out" || fail "audit --json lacks the pass convention"
[ "$failures" -eq 0 ] && echo "ok: one pass per event"

expect_exit "--passes sometimes" 2 "--passes" -- "$S" simulate -t "$T/w.swf" -p easy --passes sometimes
expect_exit "--round bogus" 2 "--round" -- "$S" simulate -t "$T/w.swf" -p easy --round bogus
expect_exit "--min-time -1" 2 "--min-time" -- "$S" simulate -t "$T/w.swf" -p easy --min-time -1
expect_exit "--invalid-records bogus" 2 "--invalid-records" -- "$S" simulate -t "$T/w.swf" -p easy --invalid-records bogus
expect_exit "--run-offset nan" 2 "--run-offset" -- "$S" audit -t "$T/w.swf" -s "$T/plain.csv" -p easy --run-offset nan
expect_exit "--estimate-offset with --scenario" 2 "--estimate-offset" -- \
  "$S" simulate --scenario "$T/none.json" --estimate-offset 1
finish conventions
