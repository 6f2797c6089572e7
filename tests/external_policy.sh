#!/usr/bin/env bash
# Policies outside C++ (`--policy-cmd`, docs/protocol.md): the example policies in Python and shell decide exactly
# as the built-in policies they copy (sla-admission fcfs over generated instances; cluster fcfs over traces, byte-
# identical jobs CSVs); search writes corpus files that name the command and reproduce; one process serves a whole
# run; a policy that crashes, answers nonsense, names unknown jobs or hangs gets one stderr line naming the instance
# and exit 2 within the time limit; a policy failure during a search (probe, trial, shrinking) ends it with exit 2 and
# never becomes a counterexample; every corpus file re-checks with its verdict; Ctrl-C stops a run and its policy, and
# SIGTERM to both schedcheck and its policy is a stop, not a policy failure. Our own. Usage: external_policy.sh SCHEDCHECK SOURCE_DIR
set -u
S=${1:?usage: external_policy.sh SCHEDCHECK SOURCE_DIR}
SRC=${2:?usage: external_policy.sh SCHEDCHECK SOURCE_DIR}
. "$(dirname "$0")/common.sh"
PY="python3 $SRC/examples/policies/sla_first_fit.py"
SH="sh $SRC/examples/policies/sla_first_fit.sh"
CPY="python3 $SRC/examples/policies/cluster_fcfs.py"
CSH="sh $SRC/examples/policies/cluster_fcfs.sh"
have_jq=1
command -v jq >/dev/null 2>&1 || { have_jq=0; echo "note: jq missing, shell policies skipped (apt-get install jq)"; }

# 1. sla-admission: heuristic decisions of the external first fit == built-in fcfs, file by file.
mkdir -p "$T/sla"
for seed in $(seq 1 40); do "$S" generate sla-admission --seed "$seed" --size $((3 + seed % 12)) >"$T/sla/i$seed.json"; done
"$S" suite "$T/sla" --problem sla-admission --json >"$T/builtin.json"
decisions() {  # FILE POLICY: "file accepted..." per row of POLICY
  python3 -c "
import json, sys
for r in json.load(open(sys.argv[1])):
    if r['policy'] == sys.argv[2]: print(r['file'].split('/')[-1], ' '.join(r['heuristic']['accepted']), r['heuristic']['objective'])
" "$1" "$2" | sort
}
decisions "$T/builtin.json" fcfs >"$T/fcfs.txt"
[ "$(wc -l <"$T/fcfs.txt")" -eq 40 ] || fail "builtin fcfs: $(wc -l <"$T/fcfs.txt") rows, expected 40"
for cmd in "$PY" "$SH"; do
  [ "$have_jq" -eq 1 ] || [ "$cmd" = "$PY" ] || continue
  "$S" suite "$T/sla" --problem sla-admission --json --policy-cmd "$cmd" >"$T/ext.json" 2>"$T/ext.err" || [ $? -eq 1 ] ||
    fail "suite --policy-cmd $cmd: $(head -c 300 "$T/ext.err")"
  decisions "$T/ext.json" external >"$T/ext.txt"
  if cmp -s "$T/fcfs.txt" "$T/ext.txt"; then echo "ok: $cmd decides as the built-in fcfs on 40 instances"
  else fail "$cmd differs from fcfs: $(diff "$T/fcfs.txt" "$T/ext.txt" | head -5)"; fi
done
# The Python example also serves sla-admission-timed: a start (now) for each bid it accepts, a verdict (exit 1: first
# fit misses the optimum there), not a protocol error (exit 2).
"$S" check sla-admission-timed --policy-cmd "$PY" -i "$SRC/examples/sla-timed-running-jobs.json" >"$T/timed.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -q "capacity  *holds" "$T/timed.txt" && grep -q "accepted Y@0" "$T/timed.txt" ||
  fail "sla-admission-timed with $PY: exit $rc: $(head -c 300 "$T/timed.txt")"
echo "ok: $PY answers sla-admission-timed with starts"


# 2. cluster fcfs outside C++ == built-in fcfs: identical per-job CSVs (count model; processors model for Python).
traces=("$SRC/examples/small-cluster.swf")
find_traces "$SRC"
[ -n "$TRACES" ] && [ -f "$TRACES/hpc2n-excerpt.swf" ] && traces+=("$TRACES/hpc2n-excerpt.swf")
for trace in "${traces[@]}"; do
  for model in count processors; do
    "$S" simulate --trace "$trace" --model "$model" --policy fcfs -q --jobs-csv "$T/builtin.csv" >/dev/null 2>&1
    for cmd in "$CPY" "$CSH"; do
      [ "$model" = count ] || [ "$cmd" = "$CPY" ] || continue
      [ "$have_jq" -eq 1 ] || [ "$cmd" = "$CPY" ] || continue
      "$S" simulate --trace "$trace" --model "$model" --policy-cmd "$cmd" -q --jobs-csv "$T/ext.csv" --json >"$T/sim.json" 2>"$T/sim.err"
      rc=$?
      [ "$rc" -eq 0 ] || fail "simulate --policy-cmd $cmd on $(basename "$trace") ($model): exit $rc $(head -c 300 "$T/sim.err")"
      if cmp -s "$T/builtin.csv" "$T/ext.csv"; then echo "ok: $cmd = fcfs on $(basename "$trace") ($model)"
      else fail "$cmd differs from fcfs on $(basename "$trace") ($model)"; fi
      python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['invariants'] is not None" "$T/sim.json" 2>/dev/null ||
        fail "simulate --policy-cmd did not check the invariants"
    done
  done
done
# cluster-run through the registry: same objective as the built-in fcfs.
objective() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['heuristic']['objective'])" "$1"; }
"$S" check cluster-run --policy fcfs -i "$SRC/examples/workload-easy-loses.json" --json >"$T/c1.json"
"$S" check cluster-run --policy-cmd "$CPY" -i "$SRC/examples/workload-easy-loses.json" --json >"$T/c2.json"
[ "$(objective "$T/c1.json")" = "$(objective "$T/c2.json")" ] || fail "cluster-run: external fcfs objective $(objective "$T/c2.json"), built-in $(objective "$T/c1.json")"
# A property the policy does not promise is "not applicable", never "holds": a shortest-job-first policy breaks FCFS
# order (job 8 before job 6), yet fcfs-order is no failure of it; the same in the table, --json and --csv, exit 0.
cat >"$T/sjf.py" <<'PY'
import json, sys
for line in sys.stdin:
    snapshot = json.loads(line)["snapshot"]
    free = snapshot["processors"] - sum(job["procs"] for job in snapshot["running"])
    start = []
    for job in sorted(snapshot["queue"], key=lambda job: job["estimate"]):
        if job["procs"] <= free:
            free -= job["procs"]
            start.append({"id": job["id"]})
    print(json.dumps({"start": start}), flush=True)
PY
W="$SRC/examples/workload-easy-loses.json"
"$S" check cluster-run --policy-cmd "python3 $T/sjf.py" --policy-name sjf -i "$W" --json >"$T/na.json" 2>"$T/na.err"
rc=$?
[ "$rc" -eq 0 ] || fail "cluster-run sjf --json: exit $rc ($(head -c 300 "$T/na.err"))"
python3 - "$T/na.json" <<'PY' || fail "cluster-run sjf --json: promised properties not reported as not applicable"
import json, sys
r = json.load(open(sys.argv[1]))
by = {p["name"]: p for p in r["properties"]}
for name in ("fcfs-order", "easy-maximal", "conservative-guarantee", "easy-no-worse-than-fcfs"):
    p = by[name]
    assert p["status"] == "not applicable" and p["holds"] is None and "sjf" in p["detail"], p
assert by["capacity"]["status"] == "holds" and by["capacity"]["holds"] is True
assert r["exit_code"] == 0
PY
"$S" check cluster-run --policy-cmd "python3 $T/sjf.py" --policy-name sjf -i "$W" >"$T/na.txt" 2>&1 ||
  fail "cluster-run sjf table: exit $?"
grep -Eq '^ +fcfs-order +not applicable +not promised by sjf' "$T/na.txt" &&
  ! grep -Eq 'fcfs-order +holds' "$T/na.txt" ||
  fail "cluster-run sjf table: $(grep fcfs-order "$T/na.txt")"
grep -q 'verdict    PASS (exit 0)' "$T/na.txt" || fail "cluster-run sjf table: $(tail -n 1 "$T/na.txt")"
"$S" check cluster-run --policy-cmd "python3 $T/sjf.py" --policy-name sjf -i "$W" --csv >"$T/na.csv" 2>&1 ||
  fail "cluster-run sjf --csv: exit $?"
python3 - "$T/na.csv" <<'PY' || fail "cluster-run sjf --csv: $(cat "$T/na.csv")"
import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
assert "fcfs-order" in row["properties_not_applicable"].split(";"), row
assert "fcfs-order" not in row["properties_hold"].split(";") and row["exit_code"] == "0", row
PY
"$S" suite "$W" --policy-cmd "python3 $T/sjf.py" --policy-name sjf >"$T/na.rows" 2>&1 || fail "suite sjf: exit $?"
grep -q '4/4 hold; 8 not applicable' "$T/na.rows" || fail "suite sjf: $(tail -n 1 "$T/na.rows")"

# 3. One process for a whole search; counterexamples name the command and reproduce.
cat >"$T/counting.py" <<PY
import json, sys
open("$T/starts", "a").write("started\n")
exec(open("$SRC/examples/policies/sla_first_fit.py").read().split("for line in sys.stdin")[0])
for line in sys.stdin:
    print(json.dumps(decide(json.loads(line)["instance"])), flush=True)
PY
"$S" search sla-admission --policy-cmd "python3 $T/counting.py" --trials 300 --seed 4 --out "$T/cx" -q --json >"$T/search.json"
rc=$?
[ "$rc" -eq 1 ] || fail "search --policy-cmd: exit $rc, expected 1 (first fit misses the optimum)"
[ "$(wc -l <"$T/starts")" -eq 1 ] || fail "the policy was started $(wc -l <"$T/starts") times for one search"
first=$(find "$T/cx" -name '*.json' | sort | head -1)
if [ -n "$first" ]; then
  grep -q "\"policy_cmd\": \"python3 $T/counting.py\"" "$first" || fail "corpus file without its policy_cmd"
  reproduce=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['schedcheck']['reproduce'])" "$first")
  (eval "${reproduce/schedcheck /\"$S\" }" >/dev/null 2>&1)
  rc=$?
  [ "$rc" -eq 1 ] || fail "the corpus file's reproduce command exits $rc, expected 1: $reproduce"
else
  fail "search --policy-cmd wrote no counterexample"
fi

# Exhaustive search with a policy process: every instance of a small scope, a counterexample written.
"$S" search offer-composition --exhaustive --scope providers=2,offers=1,max=2 --max-counterexamples 1 -q --json \
  --policy-cmd "while read l; do echo '{\"assigned\": []}'; done" --out "$T/exh" >"$T/exh.json" 2>"$T/exh.err"
[ $? -eq 1 ] && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['checked'] == 168 and d['failing'] == 168 and len(d['counterexamples']) == 1" "$T/exh.json" ||
  fail "exhaustive search with --policy-cmd: $(head -c 300 "$T/exh.json") $(head -c 300 "$T/exh.err")"

# 4. Bad policies: one stderr line naming the instance, exit 2, nothing on stdout, within the time limit.
I="$SRC/examples/sla-greedy-vs-optimum.json"
bad() {  # NAME WANT -- COMMAND: check with a bad --policy-cmd
  local name=$1 want=$2
  shift 3
  local start elapsed
  start=$(now_ms)
  "$S" check sla-admission --policy-timeout-ms 500 --policy-cmd "$*" -i "$I" >"$T/out" 2>"$T/err"
  local rc=$?
  elapsed=$(($(now_ms) - start))
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, expected 2: $(head -c 300 "$T/err")"
  [ -s "$T/out" ] && fail "$name: stdout not empty"
  # One line of ours (a policy's own stderr, e.g. the shell's "not found", is the policy's and passes through).
  [ "$(grep -c '^schedcheck: ' "$T/err")" -eq 1 ] && [ "$(tail -n 1 "$T/err" | cut -c1-12)" = "schedcheck: " ] ||
    fail "$name: not one schedcheck line last on stderr: $(head -c 400 "$T/err")"
  grep -qF -- "$want" "$T/err" || fail "$name: stderr lacks '$want': $(cat "$T/err")"
  grep -qF "greedy-backfilling misses the optimum" "$T/err" || fail "$name: the instance is not named: $(cat "$T/err")"
  [ "$elapsed" -le 3500 ] || fail "$name: took $elapsed ms"
  echo "ok: $name"
}
bad crash "exited with status 3" -- "exit 3"
bad not-json "the answer \"hello\": not valid JSON" -- "while read l; do echo hello; done"
bad unknown-id "expected the id of a bid of the instance" -- "while read l; do echo '{\"accepted\": [\"Z\"]}'; done"
bad missing-field "accepted: missing required field" -- "while read l; do echo '{}'; done"
bad extra-field "unknown field" -- "while read l; do echo '{\"accepted\": [], \"x\": 1}'; done"
bad twice "each bid at most once" -- "while read l; do echo '{\"accepted\": [\"A\", \"A\"]}'; done"
bad hang "no decision within --policy-timeout-ms 500 ms" -- "sleep 30"
bad not-found "command not found" -- "no-such-policy-command-xyz"
bad killed "killed by signal 9" -- "kill -9 \$\$"
"$S" check sla-admission --policy greedy-backfilling --policy-cmd "true" -i "$I" >/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "--policy with --policy-cmd accepted"
"$S" check sla-admission -i "$I" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "policy-cmd" "$T/err" || fail "check without a policy: $(cat "$T/err")"
"$S" simulate --trace "$SRC/examples/small-cluster.swf" --policy-cmd "while read l; do echo '{\"start\": [{\"id\": 999}]}'; done" -q >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "expected the id of a job waiting in the queue" "$T/err" || fail "simulate with an unknown job id: $(cat "$T/err")"

# 4b. A policy failure is never an instance property. A policy slow once (4 s against a 2 s limit; the
# crashing ones run under the default 10 s: the first request's time includes Python's start-up, which a loaded machine
# stretched past 1 s) on
# the probe (request 1), the first generated trial (2) and a shrink candidate (5; seed 4: trial 0 fails and shrinks),
# and one that crashes during shrinking: the search ends with one line and exit 2, writes no corpus file and reports
# no failure (before, the late answer was read as the next request's and 25 false failures were written).
cat >"$T/once.py" <<PY
import json, os, sys, time
exec(open("$SRC/examples/policies/sla_first_fit.py").read().split("for line in sys.stdin")[0])
at, how, n = int(sys.argv[1]), sys.argv[2], 0
for line in sys.stdin:
    n += 1
    if n == at and how == "slow": time.sleep(4)
    if n == at and how == "crash": os._exit(3)
    print(json.dumps(decide(json.loads(line)["instance"])), flush=True)
PY
for case in "1 slow" "2 slow" "5 slow" "5 crash" "40 crash"; do
  set -- $case
  want="no decision within --policy-timeout-ms 2000 ms" limit=2000
  [ "$2" = crash ] && want="exited with status 3" limit=10000  # a crash needs no short limit
  rm -rf "$T/once"
  "$S" search sla-admission --policy-cmd "python3 $T/once.py $1 $2" --policy-timeout-ms $limit --trials 100 --seed 4 \
    --size 8 --out "$T/once" -q --json >"$T/once.out" 2>"$T/once.err"
  rc=$?
  [ "$rc" -eq 2 ] || fail "policy $2 at request $1: exit $rc, expected 2 ($(head -c 300 "$T/once.err"))"
  [ "$(wc -l <"$T/once.err")" -eq 1 ] && grep -qF "$want" "$T/once.err" ||
    fail "policy $2 at request $1: stderr $(head -c 300 "$T/once.err")"
  [ -s "$T/once.out" ] && fail "policy $2 at request $1: a summary on stdout: $(head -c 200 "$T/once.out")"
  [ -n "$(ls "$T/once" 2>/dev/null)" ] && fail "policy $2 at request $1: corpus files written: $(ls "$T/once")"
done
# A policy that writes two lines for one request: the second would be read as the next request's answer (before,
# the search blamed the next instance's decision and simulate ran on with a pass's answer given to the next pass).
# The run ends with one line naming the extra output, at the request after it, and writes nothing.
cat >"$T/twice.py" <<PY
import json, sys
exec(open("$SRC/examples/policies/sla_first_fit.py").read().split("for line in sys.stdin")[0])
at, n = int(sys.argv[1]), 0
for line in sys.stdin:
    n += 1
    d = json.dumps(decide(json.loads(line)["instance"])) + "\n"
    sys.stdout.write(d + d if n == at else d)  # both lines in one write: there when the next request is due
    sys.stdout.flush()
PY
rm -rf "$T/twice"
"$S" search sla-admission --policy-cmd "python3 $T/twice.py 3" --trials 100 --seed 4 --size 8 --out "$T/twice" -q \
  --json >"$T/twice.out" 2>"$T/twice.err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$T/twice.err")" -eq 1 ] &&
  grep -qF 'after its answer to the previous request: one answer line a request' "$T/twice.err" ||
  fail "two lines for one request: exit $rc, stderr $(head -c 300 "$T/twice.err")"
[ -n "$(ls "$T/twice" 2>/dev/null)" ] && fail "two lines for one request: corpus files written: $(ls "$T/twice")"
sed -e 's/sla_first_fit.py/cluster_fcfs.py/' -e 's/\["instance"\]/["snapshot"]/' "$T/twice.py" >"$T/twice_cluster.py"
"$S" simulate --trace "$SRC/examples/small-cluster.swf" --policy-cmd "python3 $T/twice_cluster.py 5" --check -q \
  >"$T/twice.out" 2>"$T/twice.err"
rc=$?
[ "$rc" -eq 2 ] && grep -qF 'on the scheduling pass at t=31: it wrote "{\"start\": []}\n" after its answer' "$T/twice.err" ||
  fail "simulate, two lines for one pass: exit $rc, stderr $(head -c 300 "$T/twice.err")"
# Every corpus file a search writes re-checks with its recorded verdict: outside (the search of part 3) and built-in.
# (the built-in search writes into a folder whose name needs quoting: the reproduce line quotes it)
"$S" search sla-admission --policy greedy-backfilling --trials 200 --seed 4 --out "$T/cx b'q" -q >/dev/null 2>&1
for f in "$T"/cx/*.json "$T/cx b'q"/*.json; do
  [ -e "$f" ] || { fail "no corpus file in $(dirname "$f")"; continue; }
  reproduce=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['schedcheck']['reproduce'])" "$f")
  want=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['schedcheck']['verdict']['exit_code'])" "$f")
  (eval "${reproduce/schedcheck /\"$S\" }" >/dev/null 2>&1)
  rc=$?
  [ "$rc" = "$want" ] || fail "$f re-checks with exit $rc, recorded $want: $reproduce"
done

# 5. Ctrl-C during a search with a policy process: exit 130 within the bound, the policy process gone.
set -m
"$S" search sla-admission --policy-cmd "python3 $T/counting.py" --trials 100000000 --out "$T/cx2" -q >"$T/int.out" 2>"$T/int.err" &
pid=$!
sleep 2
start=$(now_ms)
kill -INT "$pid"
wait "$pid"
rc=$?
elapsed=$(($(now_ms) - start))
set +m
[ "$rc" -eq 130 ] || fail "SIGINT: exit $rc, expected 130: $(head -c 300 "$T/int.err")"
[ "$elapsed" -le 2500 ] || fail "SIGINT: took $elapsed ms"
sleep 0.2
pgrep -f "$T/counting.py" >/dev/null && fail "the policy process outlived schedcheck"

# 6. SIGTERM to schedcheck and its policy child at once (a batch system signals the whole job): the child's death is
# the stop, not a policy failure: exit 143 with the summary, three times; the first as soon as the policy process
# exists, while the probe's policy is still starting or being asked (that stop escaped without a summary before).
set -m
for i in 1 2 3; do
  "$S" search sla-admission --policy-cmd "python3 $T/counting.py" --trials 100000000 --out "$T/term$i" -q --json \
    >"$T/term.out" 2>"$T/term.err" &
  pid=$!
  if [ "$i" -eq 1 ]; then
    # As soon as the policy process exists (schedcheck has installed its signal handling by then: a fixed 0.2 s
    # came before that in a sanitizer build, whose start-up is slower, and the default action killed it silently).
    for _ in $(seq 100); do pgrep -f "^(/bin/sh -c )?python3 $T/counting.py" >/dev/null && break; sleep 0.05; done
  else
    sleep 1
  fi
  kill -TERM "$pid" $(pgrep -f "^(/bin/sh -c )?python3 $T/counting.py")
  wait "$pid"
  rc=$?
  [ "$rc" -eq 143 ] && [ -s "$T/term.out" ] || fail "SIGTERM to both, run $i: exit $rc, stdout $(wc -c <"$T/term.out") bytes: $(head -c 300 "$T/term.err")"
done
set +m
finish external_policy
