#!/usr/bin/env bash
# Interrupted and killed runs keep what they found: SIGINT and SIGTERM sent to a running `search`, `suite`
# and `simulate` as a terminal and a batch system send them. Each must stop within a second, print its summary with
# "interrupted", exit 130 / 143, and leave only complete files; a second SIGINT quits at once; SIGKILL leaves no
# half-written corpus file. Source: our own (docs/cli.md, "Interrupts"). Usage: interrupts.sh SCHEDCHECK
set -u
set -m  # job control: background children get the default SIGINT disposition, as in a terminal

SCHEDCHECK=${1:?usage: interrupts.sh SCHEDCHECK}
# The documented bound is 1 s; the default here is more generous because CI machines are slow and shared.
MARGIN_MS=${MARGIN_MS:-2500}
. "$(dirname "$0")/common.sh"

expect() {  # NAME RC_WANTED: exit code and time to exit
  [ "$RC" -eq "$2" ] || fail "$1: exit $RC, expected $2; stderr: $(head -c 400 "$T/$1.err")"
  [ "$ELAPSED_MS" -le "$MARGIN_MS" ] || fail "$1: took $ELAPSED_MS ms after the signal (bound $MARGIN_MS ms)"
}

json_field() {  # FILE EXPRESSION: prints a field of a JSON file with python3
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null
}

corpus_complete() {  # NAME DIR [tmp-allowed]: every corpus file parses, at least one, no temporary file left
  local files
  files=$(find "$2" -name '*.json' | wc -l)
  [ "$files" -ge 1 ] || fail "$1: no counterexample file in $2"
  [ -n "${3:-}" ] || [ -z "$(find "$2" -name '*.tmp')" ] || fail "$1: temporary files left in $2: $(find "$2" -name '*.tmp')"
  local f
  for f in "$2"/*.json; do
    [ -e "$f" ] || continue
    python3 -m json.tool "$f" >/dev/null 2>&1 || fail "$1: $f is not complete JSON"
  done
}

# 1. A fast search (thousands of failing instances a second), SIGINT: summary, counterexamples on disk, exit 130.
interrupt fast 3 INT -- search sla-admission --policy greedy-backfilling --trials 100000000 --out "$T/fast" --json -q
expect fast 130
[ "$(json_field "$T/fast.out" 'd["interrupted"]')" = "True" ] || fail "fast: summary without \"interrupted\": true: $(head -c 300 "$T/fast.out")"
# Trials finished before the signal are counted (how many depends on the machine: under the sanitizers on a loaded
# machine a few, else thousands); each written counterexample comes from one of them, or is the one trial the signal
# cut short (written unshrunk, not counted).
checked=$(json_field "$T/fast.out" 'd["checked"]')
written=$(find "$T/fast" -name '*.json' | wc -l)
[ "${checked:-0}" -ge 1 ] || fail "fast: no instance counted before the signal"
[ "$written" -le "$((${checked:-0} + 1))" ] || fail "fast: $written counterexamples written but only ${checked:-no} trials counted"
[ "$(json_field "$T/fast.out" 'len(d["counterexamples"])')" = "$(find "$T/fast" -name '*.json' | wc -l)" ] ||
  fail "fast: the summary lists other files than were written"
corpus_complete fast "$T/fast"
# The files are real counterexamples: each one's own reproduce command fails again (exit 1).
first=$(find "$T/fast" -name '*.json' | sort | head -1)
if [ -n "$first" ]; then
  "$SCHEDCHECK" check sla-admission --policy greedy-backfilling --instance "$first" >/dev/null 2>&1
  rc=$?
  [ "$rc" -eq 1 ] || fail "fast: $first does not fail again when checked (exit $rc)"
fi

# 2. A search whose exact method is Z3 (Z3 installs its own SIGINT handler during a solve): SIGINT still stops it.
interrupt z3int 3 INT -- search sla-admission-timed --policy greedy-backfilling --exact z3 --size 12 --trials 1000000 --out "$T/z3int" -q
expect z3int 130
grep -q "interrupted" "$T/z3int.out" || fail "z3int: no interrupted line in the summary: $(head -c 300 "$T/z3int.out")"
corpus_complete z3int "$T/z3int"

# 3. SIGTERM (a batch system's time limit): exit 143, summary printed.
interrupt z3term 3 TERM -- search sla-admission-timed --policy greedy-backfilling --exact z3 --size 12 --trials 1000000 --out "$T/z3term" --json -q
expect z3term 143
[ "$(json_field "$T/z3term.out" 'd["interrupted"]')" = "True" ] || fail "z3term: summary without \"interrupted\": true"

# 4. A second SIGINT 50 ms after the first is the same request delivered twice (a terminal's group, GNU timeout's
# second SIGTERM): counted once, the summary printed, still 130. One a second later quits at once (tests/robust.sh).
interrupt twice 3 INT,INT -- search sla-admission-timed --policy greedy-backfilling --exact z3 --size 12 --trials 1000000 --out "$T/twice" -q
expect twice 130
grep -q "received again" "$T/twice.err" && fail "twice: the repeated signal was taken as a second one: $(head -c 300 "$T/twice.err")"
grep -q "interrupted" "$T/twice.out" || fail "twice: no summary after a repeated signal: $(head -c 300 "$T/twice.out")"

# 5. suite over many instance files: the rows checked so far, a line on stderr, exit 130.
mkdir -p "$T/suite-in"
# A few quick instances first, then one the default method does not decide within the 10 s limit (generated seed 125,
# 40 bids), so that the signal comes mid-run.
for seed in $(seq 1 5); do "$SCHEDCHECK" generate sla-admission-timed --seed "$seed" --size 12 >"$T/suite-in/a$seed.json"; done
for k in $(seq 1 20); do "$SCHEDCHECK" generate sla-admission-timed --seed 125 --size 40 >"$T/suite-in/b$k.json"; done
interrupt suite 2 INT -- suite "$T/suite-in" --json
expect suite 130
rows=$(json_field "$T/suite.out" 'len(d)')
[ "${rows:-0}" -ge 1 ] || fail "suite: no rows printed before the interrupt: $(head -c 300 "$T/suite.out")"
grep -q "suite interrupted by SIGINT after" "$T/suite.err" || fail "suite: no interrupted line on stderr: $(head -c 300 "$T/suite.err")"

# 6. simulate with exact window checks on a large synthetic trace: summary says interrupted, no partial jobs CSV.
awk 'BEGIN { for (j = 1; j <= 200000; j++) printf "%d %d 0 %d %d -1 -1 %d %d -1 1 1 1 1 1 -1 -1 -1\n", j, j * 7, 50 + (j * 37) % 900, 1 + (j * 13) % 64, 1 + (j * 13) % 64, 100 + (j * 37) % 900 }' >"$T/big.swf"
echo "an older run's file" >"$T/jobs.csv"  # removed: it would be taken for this run's
interrupt sim 3 TERM -- simulate --trace "$T/big.swf" --policy easy --processors 128 --check-windows 8 --jobs-csv "$T/jobs.csv" --json -q
expect sim 143
[ "$(json_field "$T/sim.out" 'd["interrupted"]')" = "True" ] || fail "sim: summary without \"interrupted\": true: $(head -c 300 "$T/sim.out") $(head -c 300 "$T/sim.err")"
[ "$(json_field "$T/sim.out" 'd["exit_code"]')" = 143 ] || fail "sim: the JSON's exit_code $(json_field "$T/sim.out" 'd["exit_code"]'), the process's 143"
[ ! -e "$T/jobs.csv" ] || fail "sim: an interrupted run left a jobs CSV (it would miss jobs, or be an older run's)"
[ -z "$(find "$T" -maxdepth 1 -name '*.tmp')" ] || fail "sim: temporary file left"

# 7. SIGKILL mid-search: whatever was written is complete (atomic rename), nothing half-written under its name.
interrupt kill 3 KILL -- search sla-admission --policy greedy-backfilling --trials 100000000 --out "$T/kill" -q
[ "$RC" -eq 137 ] || fail "kill: exit $RC, expected 137"
corpus_complete kill "$T/kill" tmp-allowed  # a .tmp is the one file being written when the kill came

# A long `generate` (offers admits its jobs one at a time: 100,000 take many minutes) stops at SIGTERM too (it ran on,
# so `timeout` could not end it), and a search stopped while generating still prints its summary.
interrupt generate 1 TERM -- generate offers --seed 1 --size 100000
expect generate 143
interrupt search-generating 2 TERM -- search offers --policy edf --size 100000 --trials 3 --out "$T/gen" -q --json
expect search-generating 143
grep -q '"interrupted": *true' "$T/search-generating.out" || fail "search-generating: no summary on stdout"

finish interrupts
