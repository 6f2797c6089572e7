#!/usr/bin/env bash
# Several clusters from the command line: the per-job CSV's cluster column read back by audit (each cluster against
# its own size and policy) and gantt (one band a cluster), least-loaded spreading an overload (against round-robin),
# and a policy and a model per cluster with --check. Source: our own (docs/simulation.md, "Several
# clusters"). Small inputs only (tests/data/overload-4x8.swf, hand-written CSVs): a few seconds.
# Usage: multi_cluster.sh SCHEDCHECK SOURCE_DIR
set -u
S=${1:?usage: multi_cluster.sh SCHEDCHECK SOURCE_DIR}
SRC=${2:?usage: multi_cluster.sh SCHEDCHECK SOURCE_DIR}
. "$(dirname "$0")/common.sh"
TRACE=$SRC/tests/data/overload-4x8.swf

# run_expect NAME EXIT SUBSTRING -- COMMAND...: exit code and a substring of stdout.
run_expect() {
  local name=$1 want_rc=$2 want=$3
  shift 4
  "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" -eq "$want_rc" ] || { fail "$name: exit $rc, expected $want_rc: $(cat "$T/out" "$T/err" | head -c 600)"; return; }
  grep -qF -- "$want" "$T/out" || { fail "$name: output lacks '$want': $(head -c 600 "$T/out")"; return; }
  echo "ok: $name"
}

# 1. The per-job CSV of a multi-cluster run names each job's cluster; its processors are numbered within it.
"$S" simulate --trace "$TRACE" --clusters 8,8,8,8 --policy easy -q --jobs-csv "$T/easy4.csv" --json >"$T/easy4.json" ||
  fail "simulate --clusters 8,8,8,8: exit $?"
head -1 "$T/easy4.csv" | grep -q ',bounded_slowdown,cluster,arrival_time$' || fail "the per-job CSV has no cluster and arrival columns: $(head -1 "$T/easy4.csv")"
# 600 rows, on clusters 0 to 3 (column 19), every processor (column 15) numbered within its cluster of 8.
awk -F, 'NR > 1 { rows++; seen[$19]++; n = split($15, p, /[- ]/); for (i = 1; i <= n; i++) if (p[i] + 0 > 7) bad = $1 }
         END { if (rows != 600 || length(seen) != 4 || !(0 in seen) || !(3 in seen) || bad != "") exit 1 }' "$T/easy4.csv" &&
  echo "ok: the cluster column" || fail "the cluster column: expected 600 rows on clusters 0-3, processors 0-7"

# 2. audit and gantt read it: the run audits clean against each cluster's size; a chart has one band a cluster.
run_expect "simulate -> audit, four clusters" 0 "every invariant holds" -- \
  "$S" audit --trace "$TRACE" --schedule "$T/easy4.csv" --policy easy --clusters 8,8,8,8
if command -v gnuplot >/dev/null 2>&1; then
  # 35 rows (4 bands of 8, 3 rows between them) of 24 pixels plus the margins: 1030 pixels high.
  run_expect "simulate -> gantt, four clusters" 0 "(SVG, 1200x1030): 32 jobs from t = 2 to 400 s on 32 processors in 4 clusters (one band each)" -- \
    "$S" gantt --jobs-csv "$T/easy4.csv" --out "$T/easy4.svg" --to 400 --clusters 8,8,8,8
  grep -q 'cluster 3 (8 processors)' "$T/easy4.svg" || fail "the chart does not label cluster 3"
  run_expect "gantt without sizes: bands up to the highest processor" 0 "in 4 clusters (one band each)" -- \
    "$S" gantt --jobs-csv "$T/easy4.csv" --out "$T/easy4b.png" --to 400
else
  echo "skipped: the charts (gnuplot is not installed)"
fi
expect_exit "a multi-cluster CSV audited as one cluster" 2 "ran on cluster 1: a schedule of several clusters; give their sizes (--clusters" -- \
  "$S" audit --trace "$TRACE" --schedule "$T/easy4.csv" --policy easy
expect_exit "a cluster index beyond --clusters" 2 "column cluster: expected a cluster index from 0 to 1 (--clusters gives 2), got 2" -- \
  "$S" audit --trace "$TRACE" --schedule "$T/easy4.csv" --policy easy --clusters 8,8
expect_exit "gantt: a cluster index beyond --clusters" 2 "expected a cluster index from 0 to 1 (--clusters gives 2)" -- \
  "$S" gantt --jobs-csv "$T/easy4.csv" --out "$T/x.png" --to 400 --clusters 8,8
expect_exit "gantt --processors on a multi-cluster CSV" 2 "names the cluster of each job (a run of several clusters); give the clusters' sizes with --clusters" -- \
  "$S" gantt --jobs-csv "$T/easy4.csv" --out "$T/x.png" --to 400 --processors 8
expect_exit "--policy: one name per cluster or one for all" 2 "--policy: 2 names for 4 clusters" -- \
  "$S" audit --trace "$TRACE" --schedule "$T/easy4.csv" --policy easy,fcfs --clusters 8,8,8,8

# Our own runs behind a broker with a latency audit clean, differences included: each job's row says when it reached
# its cluster (arrival_time), and the audit reads it as submitted then.
for run in "easy,conservative,fcfs,easy --latency 5" "easy --broker round-robin --latency 37" \
           "conservative,easy --model processors,count --latency 3 --status-period 60" \
           "fcfs,easy,conservative,easy --latency 11 --passes event"; do
  clusters=8,8,8,8
  case "$run" in conservative,easy*) clusters=16,16 ;; esac
  # shellcheck disable=SC2086
  "$S" simulate --trace "$TRACE" --clusters "$clusters" --policy $run --check -q --jobs-csv "$T/latency.csv" >"$T/out" ||
    { fail "simulate --policy $run: exit $?: $(head -c 400 "$T/out")"; continue; }
  policies=${run%% *}
  models=count
  case "$run" in *--model*) models=processors,count ;; esac
  passes=instant
  case "$run" in *"--passes event"*) passes=event ;; esac
  run_expect "our own run with --policy $run audits clean" 0 "every invariant holds" -- \
    "$S" audit --trace "$TRACE" --schedule "$T/latency.csv" --clusters "$clusters" --policy "$policies" --model "$models" \
    --passes "$passes" --strict
done
# A schedule of that broker without the arrival column: its jobs seem to wait the latency at their cluster (certain
# violations) unless the audit is told the broker's latency.
"$S" simulate --trace "$TRACE" --clusters 8,8,8,8 --policy easy,conservative,fcfs,easy --latency 5 -q --jobs-csv "$T/latency.csv" >/dev/null
cut -d, -f1-19 "$T/latency.csv" >"$T/no-arrival.csv"
run_expect "a latency the schedule does not show" 1 "verdict   21 certain violations" -- \
  "$S" audit --trace "$TRACE" --schedule "$T/no-arrival.csv" --clusters 8,8,8,8 --policy easy,conservative,fcfs,easy
run_expect "... given with --latency" 0 "every invariant holds" -- \
  "$S" audit --trace "$TRACE" --schedule "$T/no-arrival.csv" --clusters 8,8,8,8 --policy easy,conservative,fcfs,easy \
  --latency 5 --strict
# Hand-made: jobs reach their cluster 5 s after their submission; job 3 starts before it arrived.
printf '%s\n1,0,5,15,0,0,5\n2,0,5,15,0,1,5\n3,0,4,14,1,1,5\n' "job_id,submission_time,starting_time,finish_time,allocated_resources,cluster,arrival_time" \
  >"$T/arrived.csv"
cat >"$T/three.json" <<'EOF'
{"kind": "workload", "name": "three", "processors": 2, "jobs": [
 {"id": 1, "submit": 0, "run": 10, "estimate": 10, "procs": 1}, {"id": 2, "submit": 0, "run": 10, "estimate": 10, "procs": 1},
 {"id": 3, "submit": 0, "run": 10, "estimate": 10, "procs": 1}]}
EOF
run_expect "a start before the job reached its cluster" 1 "VIOLATION no-start-before-submit at t=4 (job 3): cluster 1: job 3 starts at 4, before it reached its cluster at 5" -- \
  "$S" audit --trace "$T/three.json" --schedule "$T/arrived.csv" --policy fcfs --clusters 2,2

# Hand-made: two clusters of 2. Jobs 1 and 2 on processor 0 at once: fine on two clusters, a violation on one.
cat >"$T/w.json" <<'EOF'
{"kind": "workload", "name": "w", "processors": 2, "jobs": [
 {"id": 1, "submit": 0, "run": 10, "estimate": 10, "procs": 1}, {"id": 2, "submit": 0, "run": 10, "estimate": 10, "procs": 1},
 {"id": 3, "submit": 0, "run": 10, "estimate": 10, "procs": 2}]}
EOF
H=job_id,submission_time,starting_time,finish_time,allocated_resources,cluster
printf '%s\n1,0,0,10,0,0\n2,0,0,10,0,1\n3,0,10,20,0-1,0\n' "$H" >"$T/apart.csv"
run_expect "processor 0 of two clusters at once" 0 "every invariant holds" -- \
  "$S" audit --trace "$T/w.json" --schedule "$T/apart.csv" --policy fcfs --clusters 2,2
printf '%s\n1,0,0,10,0,1\n2,0,0,10,0,1\n3,0,10,20,0-1,0\n' "$H" >"$T/clash.csv"
run_expect "processor 0 of cluster 1 held twice" 1 "cluster 1: processor 0 is held by job 1 over [0, 10) and by job 2 from 0" -- \
  "$S" audit --trace "$T/w.json" --schedule "$T/clash.csv" --policy fcfs --clusters 2,2
printf '%s\n1,0,0,10,,1\n2,0,0,10,,1\n3,0,0,10,,0\n' "$H" >"$T/narrow.csv"
run_expect "each cluster against its own size" 1 "cluster 1: at t = 0, 2 processors are in use on a machine of 1" -- \
  "$S" audit --trace "$T/w.json" --schedule "$T/narrow.csv" --policy fcfs --clusters 2,1

printf '%s\n1,0,0,10,0\n2,0,0,10,1\n' "job_id,submission_time,starting_time,finish_time,allocated_resources" >"$T/one.csv"
expect_exit "--clusters on a CSV without a cluster column" 2 'no column "cluster" in the header: --clusters audits each' -- \
  "$S" audit --trace "$T/w.json" --schedule "$T/one.csv" --policy fcfs --clusters 2,2

# 3. least-loaded under overload and 4. a policy and a model per cluster: run, checked against each cluster's own
# policy, shown, audited.
"$S" simulate --trace "$TRACE" --clusters 8,8,8,8 --policy easy --broker round-robin -q --json >"$T/rr.json" ||
  fail "round-robin run: exit $?"
run_expect "a policy per cluster, checked" 0 "checks    8 invariants" -- \
  "$S" simulate --trace "$TRACE" --clusters 8,8,8,8 --policy easy,conservative,fcfs,easy --model count,processors,count,count \
  --check -q --jobs-csv "$T/mixed.csv"
grep -qF "policy easy (1 pivot),conservative,fcfs,easy (1 pivot), model count,processors,count,count" "$T/out" || fail "the summary lacks the policies: $(head -3 "$T/out")"
grep -qF "cluster c1 (8 processors, conservative, model processors)" "$T/out" || fail "no per-cluster policy line: $(head -8 "$T/out")"
"$S" simulate --trace "$TRACE" --clusters 8,8,8,8 --policy easy,conservative,fcfs,easy --check -q --json >"$T/mixed.json"
# One Python for every JSON check (its start-up is a good part of this test's time).
python3 - "$T/easy4.json" "$T/rr.json" "$T/mixed.json" <<'EOF' || fail "the JSON summaries (above)"
import json, sys
ll, rr, mixed = (json.load(open(p)) for p in sys.argv[1:4])
starts = [c["starts"] for c in ll["clusters"]]
queues = [c["max_queue"] for c in ll["clusters"]]
checks = {  # 3. least-loaded gives every cluster a share and waits no more than round-robin; 4. policies in --json
    "least-loaded is the broker": ll["broker"]["policy"] == "least-loaded",
    f"least-loaded leaves no cluster almost idle: {starts}": min(starts) >= 100,
    f"least-loaded leaves no cluster the whole queue: {queues}": max(queues) <= 2 * min(queues) + 10,
    f"least-loaded waits about as round-robin: {ll['wait']['mean']:.0f} s against {rr['wait']['mean']:.0f} s":
        ll["wait"]["mean"] <= 1.2 * rr["wait"]["mean"],
    "clusters[].policy": [c["policy"] for c in mixed["clusters"]] == ["easy", "conservative", "fcfs", "easy"],
    "policy": mixed["policy"] == "easy,conservative,fcfs,easy",
    "each policy's invariants checked":
        {"fcfs-order", "easy-maximal", "conservative-guarantee"} <= set(mixed["invariants"]["checked"]),
    "no violation": mixed["invariants"]["violations_total"] == 0,
}
failed = [name for name, holds in checks.items() if not holds]
for name in failed:
    print("FAIL:", name)
if not failed:
    print(f"ok: least-loaded starts {starts}, max queues {queues}, mean wait {ll['wait']['mean']:.0f} s "
          f"(round-robin {rr['wait']['mean']:.0f} s); the per-cluster policies in --json")
sys.exit(1 if failed else 0)
EOF
run_expect "audit each cluster against its own policy" 0 "every invariant holds" -- \
  "$S" audit --trace "$TRACE" --schedule "$T/mixed.csv" --policy easy,conservative,fcfs,easy --model count,processors,count,count --clusters 8,8,8,8
run_expect "... and the EASY clusters are not FCFS" 1 "fcfs-order" -- \
  "$S" audit --trace "$TRACE" --schedule "$T/mixed.csv" --policy fcfs --clusters 8,8,8,8
# A scenario whose clusters name their own policy and model (the top-level policy fills the rest).
cat >"$T/own.json" <<EOF2
{"kind": "scenario", "name": "own", "workloads": [{"trace": "$TRACE"}], "policy": {"name": "easy"},
 "clusters": [{"processors": 8, "policy": {"name": "conservative"}, "model": "processors"}, {"processors": 8},
              {"processors": 8, "policy": {"name": "easy", "pivots": 1}}, {"processors": 8, "policy": {"name": "fcfs"}}],
 "router": {"policy": "round-robin"}}
EOF2
"$S" simulate --scenario "$T/own.json" --check --json -q --jobs-csv "$T/own.csv" >"$T/own-run.json" ||
  fail "a scenario with per-cluster policies: $(head -c 400 "$T/own-run.json")"
python3 - "$T/own-run.json" <<'EOF2' && echo "ok: a scenario's clusters run their own policies and models" || fail "per-cluster scenario: $(head -c 600 "$T/own-run.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert [(c["policy"], c["pivots"], c["model"]) for c in d["clusters"]] == [
    ("conservative", None, "processors"), ("easy", 1, "count"), ("easy", 1, "count"), ("fcfs", None, "count")], d["clusters"]
assert {"fcfs-order", "conservative-guarantee"} <= set(d["invariants"]["checked"]) and d["invariants"]["violations_total"] == 0
EOF2
run_expect "... audited with the same policies" 0 "every invariant holds" -- \
  "$S" audit --trace "$TRACE" --schedule "$T/own.csv" --policy conservative,easy,easy,fcfs --model processors,count,count,count --clusters 8,8,8,8 --strict
sed 's/"model": "processors"}/"model": "sometimes"}/' "$T/own.json" >"$T/bad-own.json"
expect_exit "a scenario cluster's unknown model" 2 "clusters[0].model" -- "$S" simulate --scenario "$T/bad-own.json" -q

expect_exit "a policy list without --clusters" 2 "--policy: 2 names for 1 cluster" -- \
  "$S" simulate --trace "$TRACE" --policy easy,fcfs -q
expect_exit "an unknown policy in the list" 2 "--policy" -- \
  "$S" simulate --trace "$TRACE" --clusters 8,8 --policy easy,fast -q

finish multi_cluster
