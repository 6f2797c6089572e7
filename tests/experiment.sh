#!/usr/bin/env bash
# `schedcheck experiment`: the catalogue (--list, text and JSON), the backfilling experiment in its --quick form on
# the shared traces (every file the contract names, summary.json's fields, no violation), the same files byte for
# byte with --jobs 1 and --jobs 2 (runs.csv and the figures' CSVs), a trace of one's own, an interrupted sweep that
# keeps its finished points, and bad input (exit 2, one stderr line, nothing written). Our own
# (docs/experiments.md). Usage: experiment.sh SCHEDCHECK SOURCE_DIR. Skips the shared-trace parts when no traces folder is found.
set -u
S=${1:?usage: experiment.sh SCHEDCHECK SOURCE_DIR}
SOURCE_DIR=${2:?usage: experiment.sh SCHEDCHECK SOURCE_DIR}
. "$(dirname "$0")/common.sh"
find_traces "$SOURCE_DIR"

json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# ---------------------------------------------------------------- the catalogue
"$S" experiment --list >"$T/list.txt" 2>"$T/err" || fail "--list: exit $?"
grep -q "^backfilling " "$T/list.txt" || fail "--list does not name backfilling: $(cat "$T/list.txt")"
grep -q "Mu'alem" "$T/list.txt" || fail "--list does not give the paper"
"$S" experiment --list --json >"$T/list.json" || fail "--list --json: exit $?"
[ "$(json "$T/list.json" "[e['name'] for e in d]")" = "['backfilling', 'federation', 'metascheduler', 'dbc', 'availability', 'auction']" ] || fail "--list --json: $(cat "$T/list.json")"

# ---------------------------------------------------------------- bad input: exit 2, one line, nothing written
expect_exit "unknown experiment" 2 "unknown experiment 'nope'" -- "$S" experiment nope --out "$T/x"
expect_exit "no name" 2 "--list" -- "$S" experiment --out "$T/x"
expect_exit "no --out" 2 "--out" -- "$S" experiment backfilling --quick
expect_exit "missing trace" 2 "$T/none.swf" -- "$S" experiment backfilling --trace "$T/none.swf" --out "$T/x1"
printf '1 0 -1 10 2\n' >"$T/bad.swf"
expect_exit "malformed trace" 2 "bad.swf" -- "$S" experiment backfilling --trace "$T/bad.swf" --out "$T/x2"
printf '; MaxProcs: 4\n1 0 -1 10 2 -1 -1 2 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n' >"$T/ok.swf"
: >"$T/file"
expect_exit "--out is a file" 2 "--out" -- "$S" experiment backfilling --trace "$T/ok.swf" --out "$T/file"
expect_exit "--jobs 2000" 2 "--jobs" -- "$S" experiment backfilling --trace "$T/ok.swf" --out "$T/x3" --jobs 2000
mkdir -p "$T/emptydir"
expect_exit "empty --traces folder" 2 "no .swf" -- "$S" experiment backfilling --traces "$T/emptydir" --out "$T/x4"
for d in x1 x2 x3 x4; do [ -e "$T/$d" ] && fail "a refused run created $T/$d"; done

# ---------------------------------------------------------------- a trace of one's own (no shared traces needed)
"$S" experiment backfilling --trace "$SOURCE_DIR/examples/small-cluster.swf" --seeds 2 --out "$T/own" --json -q \
  >"$T/own.json" 2>"$T/err" || fail "own trace: exit $? ($(cat "$T/err"))"
[ "$(json "$T/own.json" "(d['points'], d['finished'], d['violations'], d['exit_code'], d['interrupted'])")" = \
  "(32, 32, 0, 0, False)" ] || fail "own trace: summary $(head -c 400 "$T/own.json")"
cmp -s "$T/own.json" <(cat "$T/own/summary.json") || fail "own trace: --json differs from summary.json"
for f in runs.csv slowdown-requested-count.csv slowdown-exact-count.csv slowdown-requested-processors.csv \
  window-gaps.csv runs-table.csv summary.json; do
  [ -s "$T/own/$f" ] || fail "own trace: $f missing or empty"
done
# Every run of runs-table.csv reproduces as the simulate command it names (the same mean bounded slowdown and the
# same windows: the seed is the sampling phase); the two seeds sample different windows.
python3 - "$T/own/runs-table.csv" "$S" <<'EOF' || fail "own trace: a run does not reproduce with its command"
import csv, json, shlex, subprocess, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 32, len(rows)
pairs = [(a, b) for a, b in zip(rows[0::2], rows[1::2])]
assert all(a["seed"] == "1" and b["seed"] == "2" for a, b in pairs)
assert any(a["window_gap_mean"] != b["window_gap_mean"] for a, b in pairs), "the seeds sampled the same windows"
for row in rows[:4] + rows[-4:]:
    words = shlex.split(row["reproduce"])
    assert words[0] == "schedcheck", words
    out = json.loads(subprocess.run([sys.argv[2]] + words[1:] + ["--json", "-q"], capture_output=True, text=True).stdout)
    mine = float(row["mean_bounded_slowdown"])
    assert abs(out["bounded_slowdown"]["mean"] - mine) <= 1e-9 * max(1, mine), (row, out["bounded_slowdown"])
    assert out["invariants"]["violations_total"] == 0
    assert out["windows"]["windows"] == int(float(row["windows"])), (row["windows"], out["windows"]["windows"])
    assert abs(out["windows"]["gap"]["mean"] - float(row["window_gap_mean"] or 0)) <= 1e-12, (row, out["windows"]["gap"])
EOF

# ---------------------------------------------------------------- a scenario file of one's own: its sweep block
cat >"$T/mine.json" <<EOF
{"kind": "scenario", "name": "mine", "workloads": [{"trace": "$SOURCE_DIR/examples/small-cluster.swf", "name": "small"}],
 "sweep": {"policies": [{"name": "easy", "pivots": 2}, {"name": "conservative"}], "models": ["count"],
           "windows": {"jobs": 4, "per_run": 5}}}
EOF
"$S" experiment backfilling --scenario "$T/mine.json" --out "$T/mine" --json -q >"$T/mine.out" 2>"$T/err" ||
  fail "scenario: exit $? ($(cat "$T/err"))"
[ "$(json "$T/mine.out" "d['points'], d['finished'], d['violations']")" = "(4, 4, 0)" ] ||
  fail "scenario: $(head -c 300 "$T/mine.out")"
grep -q "^small,easy-2,2,requested,count,1,jobs," "$T/mine/runs.csv" || fail "scenario: runs.csv has no easy-2 row"
grep -q -- "--pivots 2 --estimates runtime --model count --check --check-windows 4:" "$T/mine/runs-table.csv" ||
  fail "scenario: the reproduce command does not carry the sweep's pivots and window size"
sed 's/"models"/"modes"/' "$T/mine.json" >"$T/typo.json"
expect_exit "scenario typo" 2 "modes" -- "$S" experiment backfilling --scenario "$T/typo.json" --out "$T/x5"
expect_exit "scenario and --trace" 2 "one way" -- "$S" experiment backfilling --scenario "$T/mine.json" \
  --trace "$SOURCE_DIR/examples/small-cluster.swf" --out "$T/x6"

# ---------------------------------------------------------------- simulate --scenario: the same run as its options
cat >"$T/two.json" <<EOF
{"kind": "scenario", "workloads": [{"trace": "$SOURCE_DIR/examples/small-cluster.swf", "estimates": "runtime"}],
 "policy": {"name": "easy", "pivots": 2}, "model": "processors",
 "clusters": [{"name": "c0", "processors": 4}, {"name": "c1", "processors": 8}],
 "router": {"policy": "round-robin", "latency": 3, "status_period": 60}}
EOF
"$S" simulate --scenario "$T/two.json" --check -q --json --jobs-csv "$T/a.csv" >"$T/a.json" ||
  fail "simulate --scenario: exit $?"
"$S" simulate --trace "$SOURCE_DIR/examples/small-cluster.swf" --estimates runtime --policy easy --pivots 2 \
  --model processors --clusters 4,8 --broker round-robin --latency 3 --status-period 60 --check -q --json \
  --jobs-csv "$T/b.csv" >"$T/b.json" || fail "simulate with the same options: exit $?"
cmp -s "$T/a.csv" "$T/b.csv" || fail "simulate --scenario and its options give different per-job CSVs"
python3 - "$T/a.json" "$T/b.json" <<'EOF' || fail "simulate --scenario and its options give different summaries"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b):
    for k in ("wall_seconds", "jobs_per_second", "jobs_csv", "processors_from", "scenario"):
        d.pop(k, None)
assert a == b, [k for k in a if a.get(k) != b.get(k)]
EOF
expect_exit "--scenario and --trace" 2 "excludes" -- "$S" simulate --scenario "$T/two.json" --trace "$T/ok.swf"
expect_exit "--scenario gives the policy" 2 "one place" -- "$S" simulate --scenario "$T/two.json" --policy fcfs
expect_exit "--scenario gives the pivots" 2 "one place" -- "$S" simulate --scenario "$T/two.json" --pivots 3
sed 's/"easy", "pivots": 2/"fcfs", "pivots": 2/' "$T/two.json" >"$T/fcfs-pivots.json"
expect_exit "scenario: pivots of fcfs" 2 "policy.pivots" -- "$S" simulate --scenario "$T/fcfs-pivots.json"
sed 's/"round-robin"/"random"/' "$T/two.json" >"$T/bad-router.json"
expect_exit "scenario: unknown router" 2 "router.policy" -- "$S" simulate --scenario "$T/bad-router.json"
sed 's/"processors": 4}/"processors": 0}/' "$T/two.json" >"$T/bad-size.json"
expect_exit "scenario: a cluster of 0" 2 "clusters[0].processors" -- "$S" simulate --scenario "$T/bad-size.json"

if [ -z "$TRACES" ] || [ ! -d "$TRACES" ]; then
  echo "no shared traces folder: the --quick run over it skipped"
  finish experiment
fi

# ---------------------------------------------------------------- --quick over the shared traces, --jobs 1 and 2
for jobs in 1 2; do
  # The folder, and its excerpt without a header named with its machine size (as examples/scenarios/backfilling.json).
  "$S" experiment backfilling --quick --traces "$TRACES" --trace "$TRACES/sdsc-blue-excerpt.swf:1152" --out "$T/q$jobs" \
    --jobs "$jobs" >"$T/q$jobs.txt" 2>"$T/q$jobs.err"
  rc=$?
  [ "$rc" -eq 0 ] || fail "--quick --jobs $jobs: exit $rc ($(tail -3 "$T/q$jobs.err"))"
done
grep -q "verdict    no violation" "$T/q1.txt" || fail "--quick: no verdict line: $(tail -5 "$T/q1.txt")"
grep -q "experiment backfilling: .* points" "$T/q1.err" || fail "--quick: no progress line on stderr"
summary=$T/q1/summary.json
[ "$(json "$summary" "d['interrupted'], d['points'] == d['finished'], d['violations'], d['exit_code']")" = \
  "(False, True, 0, 0)" ] || fail "--quick: summary $(head -c 600 "$summary")"
[ "$(json "$summary" "d['invariants']['decisions'] > 100000, sorted(d['invariants']['checked'])[0]")" = \
  "(True, 'capacity')" ] || fail "--quick: invariants $(json "$summary" "d['invariants']")"
[ "$(json "$summary" "d['decision_checks']['problem'], d['decision_checks']['checked'] > 1000, d['decision_checks']['invalid']")" = \
  "('queue-window', True, 0)" ] || fail "--quick: decision checks $(json "$summary" "d['decision_checks']")"
for key in experiment paper command options wall_seconds figures files notes; do
  [ "$(json "$summary" "'$key' in d")" = True ] || fail "summary.json has no $key"
done
for f in $(json "$summary" "' '.join(d['files'])"); do [ -s "$T/q1/$f" ] || fail "--quick: $f listed but missing"; done
for stem in slowdown-requested-count slowdown-exact-count slowdown-requested-processors window-gaps; do
  [ -s "$T/q1/$stem.png" ] || fail "--quick: $stem.png missing"
done
for f in runs.csv slowdown-requested-count.csv slowdown-exact-count.csv window-gaps.csv runs-table.csv; do
  cmp -s "$T/q1/$f" "$T/q2/$f" || fail "--jobs 1 and --jobs 2 wrote different $f"
done
# The worst window: its two charts, and its corpus file (written when a registered policy took the decision) re-checks
# with the verdict it records.
for f in worst-window-policy.png worst-window-optimum.png; do [ -s "$T/q1/$f" ] || fail "--quick: $f missing"; done
if [ -e "$T/q1/worst-window.json" ]; then
  policy=$(json "$T/q1/worst-window.json" "d['schedcheck']['policy']")
  recorded=$(json "$T/q1/worst-window.json" "d['schedcheck']['verdict']['exit_code']")
  "$S" check queue-window --policy "$policy" -i "$T/q1/worst-window.json" >/dev/null 2>&1
  [ "$?" = "$recorded" ] || fail "worst-window.json re-checks to another exit code than its recorded $recorded"
fi

# ---------------------------------------------------------------- an interrupted sweep keeps its finished points
set -m  # job control: the background child gets the default SIGINT disposition, as in a terminal
"$S" experiment backfilling --traces "$TRACES" --out "$T/int" --jobs 1 >"$T/int.txt" 2>"$T/int.err" &
pid=$!
set +m
for _ in $(seq 150); do  # until a few points are done
  sleep 0.2
  [ "$(grep -c "points," "$T/int.err" 2>/dev/null)" -ge 3 ] && break
done
start=$(now_ms)
kill -INT "$pid"
wait "$pid"
rc=$?
elapsed=$(($(now_ms) - start))
[ "$elapsed" -le 2500 ] || fail "interrupted: took $elapsed ms to stop after SIGINT (bound 2500 ms)"
if [ -e "$T/int/summary.json" ] && [ "$(json "$T/int/summary.json" "d['interrupted']")" = True ]; then
  [ "$rc" -eq 130 ] || fail "interrupted: exit $rc, expected 130"
  [ "$(json "$T/int/summary.json" "d['exit_code']")" = 130 ] ||
    fail "interrupted: summary.json's exit_code $(json "$T/int/summary.json" "d['exit_code']"), the process's 130"
  [ "$(json "$T/int/summary.json" "0 < d['finished'] < d['points']")" = True ] ||
    fail "interrupted: $(json "$T/int/summary.json" "(d['finished'], d['points'])")"
  grep -q "points finished" "$T/int.err" || fail "interrupted: stderr does not say how many points finished"
  rows=$(($(wc -l <"$T/int/runs-table.csv") - 1))
  [ "$rows" = "$(json "$T/int/summary.json" "d['finished']")" ] || fail "interrupted: runs-table.csv has $rows runs"
else
  fail "interrupted: no summary.json saying interrupted (exit $rc; $(tail -2 "$T/int.err"))"
fi

finish experiment
