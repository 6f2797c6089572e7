#!/usr/bin/env bash
# `schedcheck generate-workload lublin` through the command line: valid SWF that simulate reads, the same seed the
# same bytes (stdout and --out alike), --days bounds, every bad input exit 2 with one stderr line and no file written.
# Our own. Usage: generate_workload.sh PATH/TO/schedcheck
set -u

SCHEDCHECK=${1:?usage: generate_workload.sh SCHEDCHECK}
. "$(dirname "$0")/common.sh"

gen() { "$SCHEDCHECK" generate-workload lublin "$@"; }

# Valid SWF: 18 fields a record, the header's MaxProcs, and simulate reads every job and keeps every invariant.
for type in all batch interactive both; do
  gen --processors 128 --jobs 1500 --seed 5 --type "$type" --out "$T/$type.swf" || fail "$type: exit $?"
  [ "$(grep -vc '^;' "$T/$type.swf")" -eq 1500 ] || fail "$type: expected 1500 records"
  awk '!/^;/ && NF != 18 { bad = 1 } END { exit bad }' "$T/$type.swf" || fail "$type: a record without 18 fields"
  grep -q '^; MaxProcs: 128$' "$T/$type.swf" || fail "$type: no MaxProcs header"
  grep -q -- "--seed 5 --type $type\$" "$T/$type.swf" || fail "$type: the header does not name the settings"
  "$SCHEDCHECK" simulate --trace "$T/$type.swf" --policy easy --check --json >"$T/sim.json" 2>"$T/sim.err" ||
    fail "$type: simulate exit $?: $(head -c 300 "$T/sim.err")"
  python3 - "$T/sim.json" <<'PYEOF' || fail "$type: simulate did not read and finish every job"
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["records"] == 1500 and d["finished"] == 1500 and d["invariants"]["violations_total"] == 0 else 1)
PYEOF
done

# The same seed gives the same bytes, on stdout as in --out; another seed other bytes.
gen --processors 128 --jobs 1500 --seed 5 --type all >"$T/stdout.swf" || fail "stdout: exit $?"
cmp -s "$T/stdout.swf" "$T/all.swf" || fail "the same seed gave other bytes on stdout than in --out"
gen --processors 128 --jobs 1500 --seed 5 --type all --out "$T/again.swf" && cmp -s "$T/again.swf" "$T/all.swf" ||
  fail "the same seed gave other bytes"
gen --processors 128 --jobs 1500 --seed 6 --out "$T/other.swf" && ! cmp -s "$T/other.swf" "$T/all.swf" ||
  fail "another seed gave the same bytes"
# --type all is the default.
gen --processors 128 --jobs 1500 --seed 5 | cmp -s - "$T/all.swf" || fail "--type all is not the default"

# --days: every job submitted within the days, the jobs --jobs gives for as many.
gen --processors 64 --days 3 --seed 2 --out "$T/days.swf" || fail "--days: exit $?"
awk '!/^;/ && $2 >= 3 * 86400 { bad = 1 } END { exit bad }' "$T/days.swf" || fail "--days 3: a job submitted after 3 days"
count=$(grep -vc '^;' "$T/days.swf")
[ "$count" -gt 0 ] || fail "--days 3: no job"
gen --processors 64 --jobs "$count" --seed 2 --out "$T/jobs.swf" || fail "--jobs $count: exit $?"
cmp -s <(grep -v '^;' "$T/days.swf") <(grep -v '^;' "$T/jobs.swf") || fail "--days 3 and --jobs $count differ"

# Bad input: exit 2, one stderr line, nothing on stdout, no file written.
bad() {  # NAME SUBSTRING ARGS...
  local name=$1 want=$2
  shift 2
  expect_exit "$name" 2 "$want" -- "$SCHEDCHECK" generate-workload "$@" --out "$T/bad.swf"
  [ -e "$T/bad.swf" ] && fail "$name: wrote $T/bad.swf" && rm -f "$T/bad.swf"
  ls "$T"/bad.swf* >/dev/null 2>&1 && fail "$name: left $(ls "$T"/bad.swf*)"
}
bad processors-0 "--processors" lublin --processors 0 --jobs 10 --seed 1
bad processors-negative "--processors" lublin --processors -4 --jobs 10 --seed 1
bad processors-text "--processors" lublin --processors many --jobs 10 --seed 1
bad jobs-0 "--jobs" lublin --processors 64 --jobs 0 --seed 1
bad jobs-and-days "--jobs excludes --days" lublin --processors 64 --jobs 10 --days 2 --seed 1
bad neither "expected --jobs M or --days D" lublin --processors 64 --seed 1
bad days-0 '--days: expected a finite number in (0, 3650], got "0"' lublin --processors 64 --days 0 --seed 1
bad days-negative "--days" lublin --processors 64 --days -2 --seed 1
bad days-nan '--days: expected a finite number in (0, 3650], got "nan"' lublin --processors 64 --days nan --seed 1
bad days-inf "--days" lublin --processors 64 --days inf --seed 1
bad type "--type: Batch not in {all,batch,interactive,both}" lublin --processors 64 --jobs 10 --seed 1 --type Batch
bad model "model: feitelson96 not in {lublin}" feitelson96 --processors 64 --jobs 10 --seed 1
bad no-seed "--seed is required" lublin --processors 64 --jobs 10
# An --out that cannot be written: the same contract, and no temporary file left.
expect_exit unwritable 2 "cannot write" -- "$SCHEDCHECK" generate-workload lublin --processors 64 --jobs 10 --seed 1 \
  --out "$T/missing/dir/x.swf"
# Bad input leaves an existing file as it was.
cp "$T/all.swf" "$T/keep.swf"
expect_exit keeps-file 2 "--jobs" -- "$SCHEDCHECK" generate-workload lublin --processors 64 --jobs 0 --seed 1 \
  --out "$T/keep.swf"
cmp -s "$T/keep.swf" "$T/all.swf" || fail "bad input changed an existing --out file"

finish generate_workload
