#!/usr/bin/env bash
# Unattended runs under a batch system: input refused early and in one line (JSON nested too deep, an unknown exact
# method of a scenario, a --corpus in the way, duplicate sweep names, values shown exactly), names escaped on stdout
# and in CSVs, a file name gnuplot must take byte for byte, --jobs under --memory-mb, an --out folder that is this
# run's alone, and the experiment's interrupts (GNU timeout's two SIGTERMs, a stop while writing). Our own
# (docs/cli.md, docs/experiments.md). Usage: robust.sh SCHEDCHECK SOURCE_DIR. The trace parts need the shared traces.
set -u
S=${1:?usage: robust.sh SCHEDCHECK SOURCE_DIR}
SOURCE_DIR=${2:?usage: robust.sh SCHEDCHECK SOURCE_DIR}
. "$(dirname "$0")/common.sh"
find_traces "$SOURCE_DIR"
SC=$SOURCE_DIR/examples/scenarios
SMALL=$SOURCE_DIR/examples/small-cluster.swf

json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
# scenario SOURCE OUT PYTHON: a copy of SOURCE with its traces taken from the shared traces folder found (else their
# paths made absolute), changed by PYTHON (on `d`).
scenario() {
  python3 - "$1" "$2" "$3" "$TRACES" <<'PYEOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
for w in d.get("workloads", []):
    shared = os.path.join(sys.argv[4], os.path.basename(w["trace"])) if sys.argv[4] else ""
    w["trace"] = shared if shared and os.path.exists(shared) else \
        os.path.normpath(os.path.join(os.path.dirname(sys.argv[1]), w["trace"]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PYEOF
}

# ---------------------------------------------------------------- JSON nested too deep: one line, exit 2
python3 - "$SC/kth-two-clusters.json" "$T/deep-objects.json" "$SC/federation.json" "$T/deep-arrays.json" <<'EOF'
import sys
text = open(sys.argv[1]).read()
deep = '{"a": ' * 100000 + '1' + '}' * 100000
open(sys.argv[2], "w").write(text.replace('"name": "c0",', '"name": "c0", "parameters": ' + deep + ',', 1))
text = open(sys.argv[3]).read()
open(sys.argv[4], "w").write(text.replace('"sweep": {', '"sweep": {"deep": ' + '[' * 1000000 + ']' * 1000000 + ', ', 1))
EOF
expect_exit "objects 100,000 deep" 2 "nested deeper than 256 levels" -- "$S" simulate --scenario "$T/deep-objects.json"
expect_exit "arrays 1,000,000 deep" 2 "sweep.deep" -- "$S" experiment federation --scenario "$T/deep-arrays.json" --out "$T/deep"
[ -e "$T/deep" ] && fail "deep JSON: a refused run created --out"

# ---------------------------------------------------------------- names checked when the scenario is read
scenario "$SC/federation.json" "$T/exact.json" 'd["sweep"]["checks"]["exact"] = "nope"'
expect_exit "unknown exact method" 2 "exact.json: sweep.checks.exact: expected an exact method of sla-admission" -- \
  "$S" experiment federation --scenario "$T/exact.json" --out "$T/exact-out"
[ -e "$T/exact-out" ] && fail "unknown exact method: --out created"
: >"$T/a-file"
expect_exit "--corpus is a file" 2 "--corpus" -- \
  "$S" experiment backfilling --trace "$SMALL" --seeds 1 --out "$T/corpus-out" --corpus "$T/a-file"
[ -e "$T/corpus-out" ] && fail "--corpus refused: --out created"
scenario "$SC/backfilling.json" "$T/dup.json" 'd["workloads"] = d["workloads"][:1]; d["sweep"]["estimates"] = ["requested", "requested"]'
expect_exit "duplicate estimates" 2 "sweep.estimates[1]: expected estimate source, each once" -- \
  "$S" experiment backfilling --scenario "$T/dup.json" --out "$T/dup-out"
scenario "$SC/backfilling.json" "$T/dup2.json" 'd["workloads"] = d["workloads"][:1]; d["sweep"]["models"] = ["count", "processors", "count"]'
expect_exit "duplicate models" 2 "sweep.models[2]" -- "$S" experiment backfilling --scenario "$T/dup2.json" --out "$T/dup-out"

# ---------------------------------------------------------------- values shown exactly
expect_exit "status period 5e-324" 2 "got 5e-324" -- \
  "$S" simulate --trace "$SMALL" --policy easy --clusters 4,4 --broker least-loaded --status-period 5e-324 -q
awk 'BEGIN { print "; MaxProcs: 4"; for (j = 1; j <= 20; j++) printf "%d %d 0 %d 1 -1 -1 1 %d -1 1 1 1 1 1 -1 -1 -1\n", j, 1123130 + 3 * j, 7 + j, 30 }' >"$T/late.swf"
"$S" simulate --trace "$T/late.swf" --policy easy -q >"$T/late.txt" 2>"$T/err" || fail "late trace: exit $? ($(cat "$T/err"))"
grep -q "e+0" "$T/late.txt" && fail "simulate's text summary rounds times: $(grep "e+0" "$T/late.txt")"
grep -q "1123133" "$T/late.txt" || fail "simulate's text summary does not give the first submission exactly: $(cat "$T/late.txt")"

# ---------------------------------------------------------------- control and bidirectional characters escaped
esc=$(printf '\033')
scenario "$SC/kth-two-clusters.json" "$T/names.json" \
  'd["workloads"][0]["trace"] = sys.argv[1].replace("kth-two-clusters.json", "../small-cluster.swf"); d["clusters"][0]["name"] = "c\u001b[31m\u202eX"; d["clusters"][0]["processors"] = 4; d["clusters"][1]["processors"] = 4'
"$S" simulate --scenario "$T/names.json" -q >"$T/names.txt" 2>"$T/err" || fail "names: exit $? ($(cat "$T/err"))"
grep -q "$esc" "$T/names.txt" && fail "names: a raw ESC on stdout"
grep -qF 'c\u001b[31m\u202eX' "$T/names.txt" || fail "names: the cluster's name is not shown escaped: $(grep cluster "$T/names.txt")"
cp "$SMALL" "$T/tr${esc}ace.swf"
"$S" experiment backfilling --trace "$T/tr${esc}ace.swf" --seeds 1 --out "$T/names-out" -q >"$T/names2.txt" 2>"$T/err" ||
  fail "trace name: exit $? ($(cat "$T/err"))"
grep -ql "$esc" "$T/names2.txt" "$T/names-out"/*.csv && fail "trace name: a raw ESC in $(grep -l "$esc" "$T/names2.txt" "$T/names-out"/*.csv)"

# ---------------------------------------------------------------- a file name gnuplot takes byte for byte
"$S" simulate --trace "$SMALL" --policy easy --jobs-csv "$T/run.csv" -q >/dev/null 2>&1 || fail "jobs CSV for gantt"
mkdir -p "$T/g"
"$S" gantt --jobs-csv "$T/run.csv" --out "$T/g/a
b\"c\\d.png" >/dev/null 2>"$T/err" || fail "gantt, a newline in --out: exit $? ($(cat "$T/err"))"
[ "$(ls -b "$T/g" | wc -l)" = 1 ] && [ -s "$T/g/a
b\"c\\d.png" ] || fail "gantt, a newline in --out: $(ls -b "$T/g")"

# ---------------------------------------------------------------- --jobs under --memory-mb: the workers that fit
# (Not in a sanitizer build, SCHEDCHECK_SANITIZED=1: AddressSanitizer's shadow memory cannot live under RLIMIT_DATA.)
if [ "${SCHEDCHECK_SANITIZED:-0}" != 1 ]; then
"$S" experiment backfilling --trace "$SMALL" --seeds 1 --jobs 8 --memory-mb 50 --out "$T/mem" -q >/dev/null 2>"$T/mem.err" ||
  fail "--jobs 8 --memory-mb 50: exit $? ($(cat "$T/mem.err"))"
grep -q "worker.* ran the points" "$T/mem.err" || fail "--jobs 8 --memory-mb 50: no line saying how many workers ran"
[ "$(json "$T/mem/summary.json" "d['options']['workers'] < 8 and d['finished'] == d['points']")" = True ] ||
  fail "--jobs 8 --memory-mb 50: summary $(json "$T/mem/summary.json" "(d['options'], d['finished'])")"
fi

# ---------------------------------------------------------------- --out is this run's: earlier results removed
"$S" experiment backfilling --trace "$SMALL" --seeds 1 --out "$T/own" -q >/dev/null 2>"$T/err" || fail "own: exit $?"
: >"$T/own/stale.png"; : >"$T/own/worst-admission-9.json"; : >"$T/own/slowdown.png.tmp"
"$S" experiment backfilling --trace "$SMALL" --seeds 1 --out "$T/own" -q >/dev/null 2>"$T/err" || fail "own again: exit $?"
grep -q "removed [0-9]* files of an earlier run" "$T/err" || fail "own again: stderr does not say what it removed: $(cat "$T/err")"
for f in stale.png worst-admission-9.json slowdown.png.tmp; do [ -e "$T/own/$f" ] && fail "own again: $f of an earlier run left"; done
listed=$(json "$T/own/summary.json" "' '.join(sorted(d['files']))")
# Beside them, points/: the sweep's finished points (what --resume and merge read).
[ -f "$T/own/points/sweep.json" ] || fail "own again: no points/sweep.json"
[ "$listed" = "$(cd "$T/own" && ls | grep -vx points | sort | tr '\n' ' ' | sed 's/ $//')" ] ||
  fail "own again: summary.json lists [$listed], the folder holds [$(ls "$T/own" | tr '\n' ' ')]"
echo mine >"$T/own/notes.txt"
expect_exit "a file not of a run" 2 "notes.txt" -- "$S" experiment backfilling --trace "$SMALL" --seeds 1 --out "$T/own" -q
"$S" experiment backfilling --trace "$SMALL" --seeds 1 --out "$T/own" --force -q >/dev/null 2>&1 || fail "--force: exit $?"
[ "$(cat "$T/own/notes.txt")" = mine ] || fail "--force: notes.txt not kept"

[ -n "$TRACES" ] || { echo "robust: no shared traces: the interrupt cases skipped"; finish robust; }

# ---------------------------------------------------------------- every snapshot the engine takes reads back
# Table 2 three times (24 clusters, the --quick sweep): each checked decision's snapshot goes through its reader (an
# InternalError otherwise, exit 4), and the corpus files of the worst are written.
scenario "$SC/federation.json" "$T/fed24.json" \
  'd["clusters"] = [dict(c, name=c["name"] + "-" + str(k)) for k in range(3) for c in d["clusters"]]'
"$S" experiment federation --scenario "$T/fed24.json" --quick --out "$T/fed24" -q >/dev/null 2>"$T/fed24.err"
rc=$?
[ "$rc" -le 1 ] || fail "24 clusters: exit $rc ($(tail -2 "$T/fed24.err"))"
[ -s "$T/fed24/summary.json" ] || fail "24 clusters: no summary.json ($(tail -2 "$T/fed24.err"))"

# ---------------------------------------------------------------- GNU timeout's SIGTERM to the child, then to its group
scenario "$SC/metascheduler.json" "$T/ms.json" ''
for k in 1 2 3; do
  timeout 1.5 "$S" experiment metascheduler --quick --scenario "$T/ms.json" --out "$T/to$k" -q >/dev/null 2>"$T/to$k.err"
  rc=$?
  # GNU timeout exits 124 when the time ran out (the child's own status, 143, only with --preserve-status).
  [ "$rc" = 124 ] || fail "timeout $k: exit $rc, expected 124 ($(tail -2 "$T/to$k.err"))"
  [ -s "$T/to$k/summary.json" ] || fail "timeout $k: no summary.json ($(tail -2 "$T/to$k.err"))"
  grep -q "received again" "$T/to$k.err" && fail "timeout $k: the group's copy of the signal taken as a second one"
done

# ---------------------------------------------------------------- a stop while the results are written
set -m
"$S" experiment backfilling --trace "$SMALL" --seeds 2 --out "$T/late-int" >/dev/null 2>"$T/late-int.err" &
pid=$!
set +m
for _ in $(seq 2000); do grep -q "32/32 points" "$T/late-int.err" 2>/dev/null && break; sleep 0.01; done
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
if [ "$rc" = 130 ]; then
  [ "$(json "$T/late-int/summary.json" "d['interrupted'], d['exit_code']")" = "(True, 130)" ] ||
    fail "stop after the last point: summary.json says $(json "$T/late-int/summary.json" "d['interrupted'], d['exit_code']")"
  [ -e "$T/late-int/worst-window.json" ] || json "$T/late-int/summary.json" "d['skipped']" | grep -q "worst-window.json" ||
    fail "stop after the last point: worst-window.json neither written nor said skipped"
fi
# A second SIGINT more than a second later, while the plots are drawn: summary.json still written, no temporary.
SCHEDCHECK=$S
set -m
SIGNAL_GAP=1.1 interrupt twice 2 INT,INT -- experiment metascheduler --quick --scenario "$T/ms.json" --out "$T/twice"
[ "$RC" = 130 ] || fail "twice: exit $RC, expected 130 ($(tail -2 "$T/twice.err"))"
[ -s "$T/twice/summary.json" ] || fail "twice: no summary.json ($(tail -3 "$T/twice.err"))"
[ -z "$(find "$T/twice" -name '*.tmp')" ] || fail "twice: temporaries left: $(find "$T/twice" -name '*.tmp')"
# One SIGINT: stopped within a second, the plots it had no time for named as skipped, every listed file there.
interrupt once 2 INT -- experiment metascheduler --quick --scenario "$T/ms.json" --out "$T/once"
set +m
[ "$RC" = 130 ] || fail "once: exit $RC, expected 130"
[ "$ELAPSED_MS" -le "${MARGIN_MS:-1300}" ] || fail "once: $ELAPSED_MS ms from SIGINT to exit (promised: 1 s)"
[ "$(json "$T/once/summary.json" "d['interrupted']")" = True ] || fail "once: summary.json does not say interrupted"
for f in $(json "$T/once/summary.json" "' '.join(d['files'])"); do [ -e "$T/once/$f" ] || fail "once: $f listed, not there"; done
for f in $(json "$T/once/summary.json" "' '.join(s.split(':')[0].split()[0] for s in d['skipped'])"); do
  [ -e "$T/once/$f" ] && fail "once: $f said skipped but there"
  grep -qF "skipped $f" "$T/once.err" || fail "once: $f skipped without a line on stderr"
done
grep -q "No valid points" "$T/once.err" && fail "once: a plot of no data drawn and failed: $(grep "No valid" "$T/once.err")"

finish robust
