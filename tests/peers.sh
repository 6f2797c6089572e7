#!/usr/bin/env bash
# The audit commands docs/simulation.md gives for pyss, GridSim, Alea and Batsim, word for word, each on a schedule in
# that simulator's own format (pyss's SWF, a GridSim Gridlet CSV, Alea's tab-separated file, out_jobs.csv): exit 0 or
# 1, never 2, and the rows read as written. The schedules are schedcheck's runs of tests/data/peers.swf under the same
# reading, converted (our own). Usage: peers.sh SCHEDCHECK SOURCE_DIR
set -u
S=${1:?usage: peers.sh SCHEDCHECK SOURCE_DIR}
SRC=${2:?usage: peers.sh SCHEDCHECK SOURCE_DIR}
. "$(dirname "$0")/common.sh"
TRACE=$SRC/tests/data/peers.swf
DOC=$SRC/docs/simulation.md

# peer NAME FORMAT READING -- FORMAT_OPTIONS: for each policy, simulate under READING, write the run in FORMAT (pyss,
# gridsim, alea, batsim), audit it with READING and FORMAT_OPTIONS, the whole of which docs/simulation.md gives.
peer() {
  local name=$1 format=$2 reading=$3
  shift 4
  local options="$reading${*:+ $*}" policy out
  grep -qF -- "\`$options\`" "$DOC" || { fail "$name: docs/simulation.md does not give \`$options\`"; return; }
  for policy in fcfs easy conservative; do
    # shellcheck disable=SC2086
    "$S" simulate --trace "$TRACE" --policy "$policy" $reading -q --jobs-csv "$T/run.csv" >/dev/null ||
      { fail "$name, $policy: simulate exit $?"; continue; }
    out=$T/schedule.csv
    [ "$format" = pyss ] && out=$T/schedule.swf
    python3 - "$format" "$T/run.csv" "$out" <<'EOF' || { fail "$name, $policy: writing the $format file"; continue; }
import csv, sys
fmt, rows = sys.argv[1], list(csv.DictReader(open(sys.argv[2])))
with open(sys.argv[3], "w") as f:
    if fmt == "pyss":  # predictsim's simulator.py: 18 SWF fields, wait and run simulated
        f.write("; Computer: pyss\n")
        for r in rows:
            submit, start, end = (float(r[k]) for k in ("submission_time", "starting_time", "finish_time"))
            p = r["requested_number_of_resources"]
            f.write(f"{r['job_id']} {submit:g} {start - submit:g} {end - start:g} {p} -1 -1 {p} "
                    f"{float(r['requested_time']):g} -1 -1 -1 -1 -1 -1 -1 -1 -1\n")
    elif fmt == "gridsim":  # one line per Gridlet returned to the Workload entity
        f.write("gridlet_id,submission_time,exec_start_time,finish_time\n")
        for r in rows:
            f.write(f"{r['job_id']},{r['submission_time']},{r['starting_time']},{r['finish_time']}\n")
    elif fmt == "alea":  # ResultCollector: tab-separated, times from the first job's submission, to 0.1 s
        origin = min(float(r["submission_time"]) for r in rows)
        f.write("job_ID\tSTATUS\tarrival\twait\tstart_time\truntime\tend_time\tCPUs\tRAM(KB)\tuserID\tuser_name\tqueue"
                "\treal_runtime\twalltime_limit\tbackfilled\n")
        for r in rows:
            submit, start, end = (float(r[k]) - origin for k in ("submission_time", "starting_time", "finish_time"))
            f.write(f"{r['job_id']}\tSuccess\t{round(submit)}\t{start - submit:.1f}\t{start:.1f}\t{end - start:.1f}\t"
                    f"{end:.1f}\t{r['requested_number_of_resources']}\t1\t0\tu0\t0\t{end - start:.1f}\t"
                    f"{float(r['requested_time']):.0f}\t0\n")
    else:  # Batsim's out_jobs.csv: schedcheck's own columns
        f.write(open(sys.argv[2]).read())
EOF
    # shellcheck disable=SC2086
    "$S" audit --trace "$TRACE" --schedule "$out" --policy "$policy" $options --json >"$T/verdict.json" 2>"$T/err"
    local rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then fail "$name, $policy: exit $rc: $(cat "$T/err")"; continue; fi
    python3 - "$T/verdict.json" "$name, $policy" <<'EOF' || fail "$name, $policy: the rows read otherwise than written"
import json, sys
d = json.load(open(sys.argv[1]))
misread = {k: v for k, v in d["violations_by_invariant"].items()
           if v and k in ("jobs-conserved", "run-time-kept", "no-start-before-submit")}
print(f"ok: {sys.argv[2]}: exit {d['exit_code']}, {d['violations_total']} certain, {d['differences_total']} "
      f"differences, {d['not_certain_total']} not certain{', processors reconstructed' if d['processors_reconstructed'] else ''}")
if misread:
    print("misread:", misread, d["violations"][:2])
sys.exit(1 if misread else 0)
EOF
  done
}

peer "pyss (predictsim)" pyss \
  "--round floor --min-time 1 --estimate-at-least-run --estimates field9 --processor-field requested --invalid-records unit-job --passes event" --
peer "GridSim, default reader" gridsim \
  "--processor-field requested --run-is-estimate --run-offset 1 --estimate-offset 1 --min-time 2 --invalid-records one-processor --model processors" -- \
  --id-column gridlet_id --arrival-column submission_time --start-column exec_start_time --finish-column finish_time
peer "GridSim, setField(18, 1, 2, 4, 5)" gridsim \
  "--estimates runtime --run-offset 1 --estimate-offset 1 --min-time 2 --processor-field allocated-only --invalid-records one-processor --model processors" -- \
  --id-column gridlet_id --arrival-column submission_time --start-column exec_start_time --finish-column finish_time
peer "Alea, estimate=false" alea \
  "--estimates runtime --kill-at-request --round nearest --min-time 1 --processor-field allocated-only --model processors --passes event" -- \
  --time-origin first-submit --delimiter tab --id-column job_ID --start-column start_time --finish-column end_time
peer "Batsim" batsim "--round floor --run-offset 1 --estimate-offset 5 --processor-field allocated-only" --
# Alea with estimate=true: --estimate-at-least-run in place of --estimates runtime --kill-at-request (the docs say so).
grep -qF -- "(with \`estimate=true\`: \`--estimate-at-least-run\` for \`--estimates runtime --kill-at-request\`)" "$DOC" ||
  fail "docs/simulation.md does not give Alea's estimate=true variant"
options="--estimate-at-least-run --round nearest --min-time 1 --processor-field allocated-only --model processors --passes event"
"$S" simulate --trace "$TRACE" --policy easy $options -q --jobs-csv "$T/run.csv" >/dev/null || fail "Alea, estimate=true: simulate"
# shellcheck disable=SC2086
"$S" audit --trace "$TRACE" --schedule "$T/run.csv" --policy easy $options >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && echo "ok: Alea, estimate=true, easy: exit 0" || fail "Alea, estimate=true: exit $rc: $(cat "$T/err" "$T/out" | tail -3)"

# A schedule written as SWF with a wait of -1 (a trace, not a simulated schedule) is refused, one line.
printf '1 100 -1 300 4 -1 -1 4 400 -1 1 -1 -1 -1 -1 -1 -1 -1\n' >"$T/trace-as-schedule.swf"
expect_exit "an SWF schedule without a wait" 2 "field 3 (wait time): expected the simulated wait (>= 0) of a schedule written as SWF, got -1" -- \
  "$S" audit --trace "$TRACE" --schedule "$T/trace-as-schedule.swf" --policy easy
expect_exit "--delimiter semicolon" 2 "--delimiter" -- "$S" audit --trace "$TRACE" --schedule "$T/run.csv" --policy easy --delimiter semicolon
expect_exit "--time-origin soon" 2 "--time-origin" -- "$S" audit --trace "$TRACE" --schedule "$T/run.csv" --policy easy --time-origin soon
finish peers
