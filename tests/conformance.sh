#!/usr/bin/env bash
# `schedcheck conformance`: schedcheck's own simulate passes every case; the Python EASY example passes the cases of
# its readings, and fails with its planted bug named by the first violation; `export` then `check` give `run`'s
# verdicts; a command that fails, hangs or writes nothing or garbage is an error of the case (exit 2), never a
# violation. Our own. Usage: conformance.sh SCHEDCHECK SOURCE_DIR
set -u
S=${1:?usage: conformance.sh SCHEDCHECK SOURCE_DIR}
SRC=${2:?usage: conformance.sh SCHEDCHECK SOURCE_DIR}
. "$(dirname "$0")/common.sh"
SIM="$S simulate --trace {trace} --policy {policy} --pivots {pivots} {options} --jobs-csv {out} -q"
PY="python3 $SRC/examples/conformance/easy_scheduler.py --trace {trace} --policy {policy} --pivots {pivots} --out {out} {options}"
NATIVE=(--policy fcfs --policy easy --skip pyss --skip gridsim --skip batsim --skip pass-per-event --skip two-pivots)

n=$("$S" conformance list --json | python3 -c "import json,sys; print(len(json.load(sys.stdin)))")
[ "$n" -ge 20 ] || fail "list: $n cases, expected 20 or more"

# schedcheck's own simulate: every case passed.
"$S" conformance run --cmd "$SIM" --json >"$T/self.json" 2>"$T/self.err"
rc=$?
[ "$rc" -eq 0 ] || fail "simulate as the command: exit $rc: $(head -c 600 "$T/self.err")"
python3 - "$T/self.json" "$n" <<'PY' || fail "simulate as the command: not every case passed"
import json, sys
r = json.load(open(sys.argv[1]))
bad = [(c["name"], c["status"], c["detail"]) for c in r["cases"] if c["status"] != "passed"]
assert len(r["cases"]) == int(sys.argv[2]) and not bad, bad
PY

# The Python example on the cases of its readings: passed; with --bug: FAILED, the pivot delayed.
"$S" conformance run --cmd "$PY" "${NATIVE[@]}" --out "$T/py" >"$T/py.txt" 2>"$T/py.err"
rc=$?
[ "$rc" -eq 0 ] || fail "python example: exit $rc: $(head -c 1500 "$T/py.txt") $(head -c 300 "$T/py.err")"
grep -q " 0 FAILED, 0 could not be judged" "$T/py.txt" || fail "python example: $(tail -3 "$T/py.txt")"
"$S" conformance run --cmd "$PY --bug" "${NATIVE[@]}" >"$T/bug.txt" 2>"$T/bug.err"
rc=$?
[ "$rc" -eq 1 ] || fail "python example --bug: exit $rc, expected 1: $(tail -3 "$T/bug.txt") $(cat "$T/bug.err")"
grep -A1 "easy-extra-processors .*FAILED" "$T/bug.txt" | grep -q "easy-pivot-not-delayed" ||
  fail "python example --bug: easy-extra-processors not failed on easy-pivot-not-delayed: $(head -c 1500 "$T/bug.txt")"
grep -A1 "fcfs-head-blocks .*passed" "$T/bug.txt" >/dev/null || fail "python example --bug: an FCFS case did not pass"

# export, the outputs written beside, check: run's verdicts.
"$S" conformance export "$T/suite" >/dev/null || fail "export: exit $?"
for f in README.md cases.json easy-extra-processors/trace.swf easy-extra-processors/expected.csv \
  easy-extra-processors/case.json easy-extra-processors/README.md; do
  [ -s "$T/suite/$f" ] || fail "export: no $f"
done
cp "$T/suite/easy-extra-processors/expected.csv" "$T/suite/easy-extra-processors/output.csv"
# easy-backfill-before-the-pivot with job 5 started at 3 instead of 15: across job 2's reservation [10,15).
printf 'job_id,starting_time,finish_time\n1,0,10\n2,10,15\n3,2,7\n5,3,23\n' >"$T/suite/easy-backfill-before-the-pivot/output.csv"
"$S" conformance check "$T/suite" --case easy-extra-processors --case easy-backfill-before-the-pivot >"$T/check.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "check: exit $rc, expected 1: $(cat "$T/check.txt")"
grep -q "easy-extra-processors .*passed" "$T/check.txt" || fail "check: the certified schedule did not pass: $(cat "$T/check.txt")"
grep -A1 "easy-backfill-before-the-pivot .*FAILED" "$T/check.txt" | grep -q "job 2" ||
  fail "check: the moved job 5 did not fail job 2's reservation: $(cat "$T/check.txt")"

# Errors of the command or of its output: exit 2, one stderr line naming the case; never FAILED.
one_case=(--case fcfs-head-blocks)
expect_case_error() {  # NAME SUBSTRING -- RUN ARGS...
  local name=$1 want=$2
  shift 3
  "$S" conformance run "$@" >"$T/e.out" 2>"$T/e.err"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, expected 2: $(cat "$T/e.out" "$T/e.err" | head -c 600)"
  [ "$(wc -l <"$T/e.err")" -eq 1 ] || fail "$name: expected one stderr line: $(cat "$T/e.err")"
  grep -q "conformance case fcfs-head-blocks: .*$want" "$T/e.err" || fail "$name: stderr lacks '$want': $(cat "$T/e.err")"
  grep -q " 0 FAILED" "$T/e.out" || fail "$name: reported as a failure: $(cat "$T/e.out")"
}
expect_case_error "a command that fails" "exit 3; its stderr ends: broken" -- --cmd "echo broken >&2; exit 3" "${one_case[@]}"
expect_case_error "a command that hangs" "timed out after 0.5 s" -- --cmd "sleep 30" --timeout-ms 500 "${one_case[@]}"
expect_case_error "a command that writes nothing" "no schedule in" -- --cmd "true" "${one_case[@]}"
expect_case_error "a command that writes garbage" "output.csv" -- --cmd "printf 'a,b\n1,2\n' > {out}" "${one_case[@]}"
expect_case_error "a header only" "no job rows" -- \
  --cmd "printf 'job_id,starting_time,finish_time\n' > {out}" "${one_case[@]}"
expect_exit "an unknown placeholder" 2 "unknown placeholder {ouput}" -- "$S" conformance run --cmd "x {ouput}"
expect_exit "an empty command" 2 "expected a command" -- "$S" conformance run --cmd " "
expect_exit "an unknown case" 2 "no case named" -- "$S" conformance list --case nope
expect_exit "export into an existing folder" 2 "the folder exists" -- "$S" conformance export "$T/suite"
expect_exit "check of a folder without cases" 2 "no folder of a case" -- "$S" conformance check "$T"
finish conformance
