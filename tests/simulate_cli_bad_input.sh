#!/usr/bin/env bash
# CLI-level checks of the trace-driven commands (simulate, audit, compare-runs) on bad input: malformed SWF or
# JSON, missing fields, negative or non-finite numbers, impossible sizes, hostile strings (very long, control
# characters, NUL bytes, binary garbage, truncated .gz) must give exactly one stderr line naming the file, field or
# line, nothing on stdout, exit 2, no crash, no hang and no (half-)written output file. --lenient must skip and
# count malformed lines, and valid runs must still succeed.
# Source: our own (cli/main.cpp exit codes 0/1/2/3/4, docs/cli.md, docs/formats.md, `schedcheck simulate --help`).
# Usage: simulate_cli_bad_input.sh SCHEDCHECK SOURCE_DIR
set -u

SCHEDCHECK=${1:?usage: simulate_cli_bad_input.sh SCHEDCHECK SOURCE_DIR}
SOURCE_DIR=${2:?usage: simulate_cli_bad_input.sh SCHEDCHECK SOURCE_DIR}
[ -d "$SOURCE_DIR" ] || { echo "FAIL: SOURCE_DIR $SOURCE_DIR is not a directory"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
TIMEOUT=${SCHEDCHECK_TEST_TIMEOUT:-20}
failures=0
passed=0
problems=()  # the current case's failed assertions

fail() { problems+=("$*"); }

# Ends a case: prints ok or FAIL with every failed assertion.
finish() {
  local name=$1
  if [ "${#problems[@]}" -eq 0 ]; then
    echo "ok: $name"
    passed=$((passed + 1))
  else
    local p
    for p in "${problems[@]}"; do echo "FAIL: $name: $p"; done
    failures=$((failures + 1))
  fi
  problems=()
}

# Shows a file's text on one line, control characters escaped, at most 300 bytes.
show() { head -c 300 "$1" | LC_ALL=C cat -v | tr '\n' '|'; }

# run ARGS...: runs schedcheck under a time limit; sets rc; stdout in $T/out, stderr in $T/err.
run() {
  timeout -k 5 "$TIMEOUT" "$SCHEDCHECK" "$@" >"$T/out" 2>"$T/err"
  rc=$?
  case $rc in
    124 | 137) fail "hung: no answer within ${TIMEOUT} s (exit $rc)" ;;
    1[3-9][0-9] | 2[0-9][0-9]) fail "crashed: exit $rc (signal $((rc - 128)))" ;;
  esac
}

# expect_bad NAME EXPECTED_SUBSTRING -- ARGS...: asserts exit 2, empty stdout, exactly one stderr line containing
# the substring and no control characters in it.
expect_bad() {
  local name=$1 want=$2
  shift 3
  run "$@"
  check_bad "$want"
  finish "$name"
}

# The assertions of expect_bad on the last run (without finishing the case).
check_bad() {
  local want=$1 lines
  lines=$(wc -l <"$T/err")
  [ "$rc" -eq 2 ] || fail "exit $rc, expected 2 (stderr: $(show "$T/err"))"
  [ -s "$T/out" ] && fail "stdout not empty: $(show "$T/out")"
  [ "$lines" -eq 1 ] || fail "$lines lines on stderr, expected 1: $(show "$T/err")"
  grep -qF -- "$want" "$T/err" || fail "stderr does not contain '$want': $(show "$T/err")"
  LC_ALL=C tr -d '\000-\010\013-\037\177' <"$T/err" | cmp -s - "$T/err" ||
    fail "stderr holds control characters: $(show "$T/err")"
}

# expect_ok NAME EXPECTED_STDOUT_SUBSTRING -- ARGS...: asserts exit 0, empty stderr, the substring on stdout.
expect_ok() {
  local name=$1 want=$2
  shift 3
  run "$@"
  check_ok "$want"
  finish "$name"
}

check_ok() {
  local want=$1
  [ "$rc" -eq 0 ] || fail "exit $rc, expected 0 (stderr: $(show "$T/err"))"
  [ -s "$T/err" ] && fail "stderr not empty: $(show "$T/err")"
  grep -qF -- "$want" "$T/out" || fail "stdout does not contain '$want': $(show "$T/out")"
}

# no_file NAME PATH...: after a refused run, asserts that none of the paths (nor PATH.tmp) exists.
no_file() {
  local p
  for p in "$@"; do
    [ -e "$p" ] && fail "left a file behind: $p"
    [ -e "$p.tmp" ] && fail "left a file behind: $p.tmp"
  done
}

# ---------------------------------------------------------------- inputs
LINE='1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1'
HEADER='; MaxProcs: 8'
swf() {  # swf NAME LINE...: a trace with the MaxProcs header, one valid record, then the given lines
  local name=$1
  shift
  { echo "$HEADER"; echo "$LINE"; printf '%s\n' "$@"; } >"$T/$name"
}
swf ok.swf '2 5 -1 20 4 -1 -1 4 30 -1 1 1 1 -1 1 -1 -1 -1'
: >"$T/empty.swf"
swf f17.swf '2 1 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1'
swf f19.swf '2 1 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1 7'
swf word.swf '2 1 -1 ten 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1'
swf inf.swf '2 1 -1 inf 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1'
swf nan.swf '2 1 -1 10 2 -1 -1 2 nan -1 1 1 1 -1 1 -1 -1 -1'
swf big.swf '2 1 -1 1e400 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1'
swf negsubmit.swf '2 -5 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1'
swf unknownsubmit.swf '2 -1 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1'
swf minus2.swf '2 1 -1 -2 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1'
swf fracprocs.swf '2 1 -1 10 2.5 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1'
swf hugevalue.swf '2 1 -1 10 2 -1 -1 2 99999999999999999999 -1 1 1 1 -1 1 -1 -1 -1'
{ echo "$HEADER"; echo "$LINE"; head -c 100000 /dev/zero | tr '\0' '7'; } >"$T/longline.swf"
{ echo "$HEADER"; echo "$LINE"; head -c 100000 /dev/zero | tr '\0' ' '; printf '1\n'; } >"$T/longspaces.swf"
# Binary garbage: deterministic bytes 0..255 repeated (newlines, NULs and high bytes included).
python3 -c 'import sys; sys.stdout.buffer.write(bytes((i * 37 + 11) % 256 for i in range(8192)))' >"$T/garbage.swf"
{ echo "$HEADER"; python3 -c 'import sys; sys.stdout.buffer.write(bytes((i * 37 + 11) % 256 for i in range(8192)))'; } \
  >"$T/garbage-after-header.swf"
{ echo "$HEADER"; printf '1 0 -1 10 2\0 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n'; } >"$T/nul.swf"
{ echo "$HEADER"; printf '\0\0\0\0\0\0\0\0\n'; } >"$T/nulline.swf"
{ echo "$HEADER"; printf '1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\033[2J\n'; } >"$T/escape.swf"
echo "$LINE" >"$T/noheader.swf"
# A valid .swf.gz of 2000 records, then truncated and corrupted copies of it.
{
  echo "$HEADER"
  for i in $(seq 1 2000); do echo "$i $i -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1"; done
} >"$T/many.swf"
gzip -c "$T/many.swf" >"$T/many.swf.gz"
gz_size=$(wc -c <"$T/many.swf.gz")
head -c $((gz_size / 2)) "$T/many.swf.gz" >"$T/truncated.swf.gz"
head -c 20 "$T/many.swf.gz" >"$T/truncated20.swf.gz"
head -c $((gz_size - 4)) "$T/many.swf.gz" >"$T/notrailer.swf.gz"
# A gzip stream cut right after a sync flush: its text ends at a line boundary, so only the gzip layer can tell.
python3 - "$T/many.swf" "$T/cutatline.swf.gz" <<'EOF'
import sys, zlib
text = open(sys.argv[1], "rb").read()
c = zlib.compressobj(9, zlib.DEFLATED, 31)
open(sys.argv[2], "wb").write(c.compress(text[: text.index(b"\n1000 ") + 1]) + c.flush(zlib.Z_SYNC_FLUSH))
EOF
python3 - "$T/many.swf.gz" "$T/corrupt.swf.gz" <<'EOF'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
for k in range(len(data) // 3, len(data) // 3 + 64):  # scramble 64 bytes of the deflate stream
    data[k] ^= 0x5A
open(sys.argv[2], "wb").write(data)
EOF

TINY='{"kind": "workload", "name": "tiny", "processors": 4, "jobs": [{"id": 1, "submit": 0, "run": 10, "estimate": 10, "procs": 2}, {"id": 2, "submit": 1, "run": 5, "estimate": 8, "procs": 4}]}'
echo "$TINY" >"$T/tiny.json"
json() { echo "$2" >"$T/$1"; }  # json NAME TEXT
: >"$T/empty.json"
json notjson.json 'this is not json'
json truncated.json '{"kind": "workload", "name": "tiny", "processors": 4, "jobs": [{"id": 1, "sub'
json nojobs.json '{"kind": "workload", "name": "t", "processors": 4}'
json noprocessors.json '{"kind": "workload", "name": "t", "jobs": [{"id": 1, "submit": 0, "run": 10, "estimate": 10, "procs": 2}]}'
json norun.json '{"kind": "workload", "processors": 4, "jobs": [{"id": 1, "submit": 0, "estimate": 10, "procs": 2}]}'
json noid.json '{"kind": "workload", "processors": 4, "jobs": [{"submit": 0, "run": 10, "estimate": 10, "procs": 2}]}'
json negrun.json '{"kind": "workload", "processors": 4, "jobs": [{"id": 1, "submit": 0, "run": 10, "estimate": 10, "procs": 2}, {"id": 2, "submit": 1, "run": -5, "estimate": 8, "procs": 1}]}'
json negsubmit.json '{"kind": "workload", "processors": 4, "jobs": [{"id": 1, "submit": -3, "run": 10, "estimate": 10, "procs": 2}]}'
json infrun.json '{"kind": "workload", "processors": 4, "jobs": [{"id": 1, "submit": 0, "run": 1e400, "estimate": 10, "procs": 2}]}'
json wideprocs.json '{"kind": "workload", "processors": 4, "jobs": [{"id": 1, "submit": 0, "run": 10, "estimate": 10, "procs": 2}, {"id": 2, "submit": 1, "run": 5, "estimate": 8, "procs": 5}]}'
json fracprocs.json '{"kind": "workload", "processors": 4, "jobs": [{"id": 1, "submit": 0, "run": 10, "estimate": 10, "procs": 2.5}]}'
json zeroprocessors.json '{"kind": "workload", "processors": 0, "jobs": []}'
json dupids.json '{"kind": "workload", "processors": 4, "jobs": [{"id": 7, "submit": 0, "run": 10, "estimate": 10, "procs": 2}, {"id": 7, "submit": 1, "run": 5, "estimate": 8, "procs": 4}]}'
json typo.json '{"kind": "workload", "processors": 4, "jobs": [{"id": 1, "submit": 0, "run": 10, "estimate": 10, "proc": 2}]}'
json wrongkind.json '{"kind": "sla-site", "processors": 4, "jobs": []}'
json stringrun.json '{"kind": "workload", "processors": 4, "jobs": [{"id": 1, "submit": 0, "run": "10", "estimate": 10, "procs": 2}]}'
printf '{"kind": "workload", "name": "t\\u0000\\u001b[2J\\nx", "processors": 4, "jobs": [{"id": 1, "submit": 0, "run": 1, "estimate": 1, "proc": 1}]}\n' \
  >"$T/hostilename.json"
# A workload where jobs queue (2+ waiting at a pass), so --check-windows cuts windows.
json queue.json '{"kind": "workload", "name": "queue", "processors": 4, "jobs": [{"id": 1, "submit": 0, "run": 10, "estimate": 10, "procs": 4}, {"id": 2, "submit": 1, "run": 5, "estimate": 8, "procs": 2}, {"id": 3, "submit": 2, "run": 3, "estimate": 4, "procs": 3}, {"id": 4, "submit": 3, "run": 2, "estimate": 2, "procs": 1}]}'

LONG=$(head -c 100000 /dev/zero | tr '\0' 'x')

# ---------------------------------------------------------------- simulate: bad traces
expect_bad "simulate: missing trace file" "$T/does-not-exist.swf" -- simulate -t "$T/does-not-exist.swf" -p fcfs
expect_bad "simulate: missing .swf.gz file" "$T/does-not-exist.swf.gz" -- simulate -t "$T/does-not-exist.swf.gz" -p fcfs
expect_bad "simulate: trace is a directory" "$T" -- simulate -t "$T" -p fcfs --processors 8
expect_bad "simulate: empty file (no machine size)" "$T/empty.swf" -- simulate -t "$T/empty.swf" -p fcfs
expect_bad "simulate: 17 fields" "$T/f17.swf: line 3" -- simulate -t "$T/f17.swf" -p easy
expect_bad "simulate: 19 fields" "$T/f19.swf: line 3" -- simulate -t "$T/f19.swf" -p easy
expect_bad "simulate: a non-number field" "field 4" -- simulate -t "$T/word.swf" -p fcfs
expect_bad "simulate: inf" "field 4" -- simulate -t "$T/inf.swf" -p fcfs
expect_bad "simulate: nan" "field 9" -- simulate -t "$T/nan.swf" -p fcfs
expect_bad "simulate: 1e400" "field 4" -- simulate -t "$T/big.swf" -p fcfs
expect_bad "simulate: negative submit time" "field 2" -- simulate -t "$T/negsubmit.swf" -p fcfs
expect_bad "simulate: submit time -1" "field 2" -- simulate -t "$T/unknownsubmit.swf" -p fcfs
expect_bad "simulate: -2 in a field" "field 4" -- simulate -t "$T/minus2.swf" -p conservative
expect_bad "simulate: fractional processor count" "field 5" -- simulate -t "$T/fracprocs.swf" -p easy
expect_bad "simulate: value above 1e15" "field 9" -- simulate -t "$T/hugevalue.swf" -p easy
expect_bad "simulate: 100 kB line without newline" "$T/longline.swf: line 3" -- simulate -t "$T/longline.swf" -p fcfs
expect_bad "simulate: 100 kB line of spaces" "$T/longspaces.swf: line 3" -- simulate -t "$T/longspaces.swf" -p fcfs
expect_bad "simulate: binary garbage" "$T/garbage.swf" -- simulate -t "$T/garbage.swf" -p fcfs
expect_bad "simulate: binary garbage after a header" "$T/garbage-after-header.swf" -- \
  simulate -t "$T/garbage-after-header.swf" -p fcfs
expect_bad "simulate: binary garbage with --processors" "$T/garbage.swf" -- \
  simulate -t "$T/garbage.swf" -p fcfs --processors 8
expect_bad "simulate: NUL byte in a field" "$T/nul.swf: line 2" -- simulate -t "$T/nul.swf" -p fcfs
expect_bad "simulate: a line of NUL bytes" "$T/nulline.swf: line 2" -- simulate -t "$T/nulline.swf" -p fcfs
expect_bad "simulate: escape sequence in a field" "$T/escape.swf: line 2" -- simulate -t "$T/escape.swf" -p fcfs
expect_bad "simulate: truncated .swf.gz (half)" "$T/truncated.swf.gz" -- simulate -t "$T/truncated.swf.gz" -p fcfs
expect_bad "simulate: truncated .swf.gz (20 bytes)" "$T/truncated20.swf.gz" -- \
  simulate -t "$T/truncated20.swf.gz" -p fcfs
expect_bad "simulate: .swf.gz without its trailer" "$T/notrailer.swf.gz" -- simulate -t "$T/notrailer.swf.gz" -p fcfs
expect_bad "simulate: truncated .swf.gz at a line boundary" "$T/cutatline.swf.gz" -- \
  simulate -t "$T/cutatline.swf.gz" -p fcfs
expect_bad "simulate: corrupt .swf.gz" "$T/corrupt.swf.gz" -- simulate -t "$T/corrupt.swf.gz" -p fcfs
expect_bad "simulate: no MaxProcs/MaxNodes and no --processors" "--processors" -- simulate -t "$T/noheader.swf" -p fcfs
expect_bad "simulate: trace path with a newline" "cannot open" -- simulate -t "$T/no"$'\n'"such.swf" -p fcfs
expect_bad "simulate: 100 kB trace path" "cannot open" -- simulate -t "$T/$LONG.swf" -p fcfs

# ---------------------------------------------------------------- simulate: bad options
expect_bad "simulate: --processors 0" "--processors" -- simulate -t "$T/ok.swf" -p fcfs --processors 0
expect_bad "simulate: --processors -1" "--processors" -- simulate -t "$T/ok.swf" -p fcfs --processors -1
expect_bad "simulate: --processors huge" "--processors" -- simulate -t "$T/ok.swf" -p fcfs --processors 99999999999999999999
expect_bad "simulate: --processors 10000001" "--processors" -- simulate -t "$T/ok.swf" -p fcfs --processors 10000001
expect_bad "simulate: --processors abc" "--processors" -- simulate -t "$T/ok.swf" -p fcfs --processors abc
expect_bad "simulate: --processors below the instance's" "--processors" -- simulate -t "$T/tiny.json" -p fcfs --processors 2
expect_bad "simulate: --pivots 0" "--pivots" -- simulate -t "$T/ok.swf" -p easy --pivots 0
expect_bad "simulate: --pivots abc" "--pivots" -- simulate -t "$T/ok.swf" -p easy --pivots abc
expect_bad "simulate: --pivots -1" "--pivots" -- simulate -t "$T/ok.swf" -p easy --pivots -1
expect_bad "simulate: --pivots 100 kB" "--pivots" -- simulate -t "$T/ok.swf" -p easy --pivots "$LONG"
expect_bad "simulate: --pivots with a newline" "--pivots" -- simulate -t "$T/ok.swf" -p easy --pivots $'1\n2'
expect_bad "simulate: --policy unknown" "--policy" -- simulate -t "$T/ok.swf" -p no-such-policy
expect_bad "simulate: --policy missing" "--policy" -- simulate -t "$T/ok.swf"
expect_bad "simulate: --trace missing" "--trace" -- simulate -p fcfs
expect_bad "simulate: --check-windows 1" "--check-windows" -- simulate -t "$T/ok.swf" -p easy --check-windows 1
expect_bad "simulate: --check-windows 8:0" "--check-windows" -- simulate -t "$T/ok.swf" -p easy --check-windows 8:0
expect_bad "simulate: --check-windows x" "--check-windows" -- simulate -t "$T/ok.swf" -p easy --check-windows x
expect_bad "simulate: --check-windows 8:" "--check-windows" -- simulate -t "$T/ok.swf" -p easy --check-windows 8:
expect_bad "simulate: --check-windows with a newline" "--check-windows" -- \
  simulate -t "$T/ok.swf" -p easy --check-windows $'4\n:1'
expect_bad "simulate: --window-exact unknown" "no-such-method" -- \
  simulate -t "$T/queue.json" -p easy --check-windows 2 --window-exact no-such-method
expect_bad "simulate: --estimates bogus" "--estimates" -- simulate -t "$T/ok.swf" -p fcfs --estimates bogus
expect_bad "simulate: --model bogus" "--model" -- simulate -t "$T/ok.swf" -p fcfs --model bogus
expect_bad "simulate: --processor-field bogus" "--processor-field" -- simulate -t "$T/ok.swf" -p fcfs --processor-field bogus
expect_bad "simulate: --warmup -1" "--warmup" -- simulate -t "$T/ok.swf" -p fcfs --warmup -1
expect_bad "simulate: --warmup nan" "--warmup" -- simulate -t "$T/ok.swf" -p fcfs --warmup nan
expect_bad "simulate: --json with --csv" "--csv" -- simulate -t "$T/ok.swf" -p fcfs --json --csv
expect_bad "simulate: unknown option" "--no-such-option" -- simulate -t "$T/ok.swf" -p fcfs --no-such-option

# ---------------------------------------------------------------- simulate: JSON workloads
expect_bad "simulate json: empty file" "$T/empty.json" -- simulate -t "$T/empty.json" -p fcfs
expect_bad "simulate json: not JSON" "$T/notjson.json" -- simulate -t "$T/notjson.json" -p fcfs
expect_bad "simulate json: truncated JSON" "$T/truncated.json" -- simulate -t "$T/truncated.json" -p fcfs
expect_bad "simulate json: missing jobs" "jobs" -- simulate -t "$T/nojobs.json" -p fcfs
expect_bad "simulate json: missing processors" "processors" -- simulate -t "$T/noprocessors.json" -p fcfs
expect_bad "simulate json: missing run" "jobs[0].run" -- simulate -t "$T/norun.json" -p fcfs
expect_bad "simulate json: missing id" "jobs[0].id" -- simulate -t "$T/noid.json" -p fcfs
expect_bad "simulate json: negative run" "jobs[1].run" -- simulate -t "$T/negrun.json" -p easy
expect_bad "simulate json: negative submit" "jobs[0].submit" -- simulate -t "$T/negsubmit.json" -p easy
expect_bad "simulate json: run 1e400" "$T/infrun.json" -- simulate -t "$T/infrun.json" -p easy
expect_bad "simulate json: procs > processors" "jobs[1].procs" -- simulate -t "$T/wideprocs.json" -p conservative
expect_bad "simulate json: fractional procs" "jobs[0].procs" -- simulate -t "$T/fracprocs.json" -p fcfs
expect_bad "simulate json: processors 0" "processors" -- simulate -t "$T/zeroprocessors.json" -p fcfs
expect_bad "simulate json: duplicate ids" "twice" -- simulate -t "$T/dupids.json" -p fcfs
expect_bad "simulate json: unknown field (typo)" "proc" -- simulate -t "$T/typo.json" -p fcfs
expect_bad "simulate json: wrong kind" "kind" -- simulate -t "$T/wrongkind.json" -p fcfs
expect_bad "simulate json: run as a string" "jobs[0].run" -- simulate -t "$T/stringrun.json" -p fcfs
expect_bad "simulate json: control characters in the name" "$T/hostilename.json" -- simulate -t "$T/hostilename.json" -p fcfs

# ---------------------------------------------------------------- simulate: output files
run simulate -t "$T/tiny.json" -p fcfs --jobs-csv "$T/no-such-dir/jobs.csv"
check_bad "$T/no-such-dir/jobs.csv"
no_file "$T/no-such-dir/jobs.csv" "$T/no-such-dir"
finish "simulate: --jobs-csv into a missing directory"

mkdir "$T/outdir"
run simulate -t "$T/tiny.json" -p fcfs --jobs-csv "$T/outdir"
check_bad "$T/outdir"
no_file "$T/outdir/jobs.csv"
[ -e "$T/outdir.tmp" ] && fail "left a file behind: $T/outdir.tmp"
[ -n "$(ls -A "$T/outdir")" ] && fail "wrote into the directory: $(ls -A "$T/outdir")"
finish "simulate: --jobs-csv naming a directory"
rm -rf "$T/outdir.tmp"

: >"$T/plainfile"
run simulate -t "$T/tiny.json" -p fcfs --jobs-csv "$T/plainfile/jobs.csv"
check_bad "$T/plainfile/jobs.csv"
[ -s "$T/plainfile" ] && fail "the regular file was written to"
finish "simulate: --jobs-csv under a regular file"

run simulate -t "$T/f17.swf" -p fcfs --jobs-csv "$T/bad-trace-jobs.csv"
check_bad "$T/f17.swf"
no_file "$T/bad-trace-jobs.csv"
finish "simulate: bad trace with --jobs-csv writes no CSV"

run simulate -t "$T/tiny.json" -p fcfs --pivots 0 --jobs-csv "$T/bad-option-jobs.csv"
check_bad "--pivots"
no_file "$T/bad-option-jobs.csv"
finish "simulate: bad --pivots with --jobs-csv writes no CSV"

echo "keep me" >"$T/windows-file"
run simulate -t "$T/queue.json" -p easy --check-windows 2 --windows-out "$T/windows-file" -q
check_bad "$T/windows-file"
[ "$(cat "$T/windows-file")" = "keep me" ] || fail "the regular file was changed"
finish "simulate: --windows-out naming a regular file"

run simulate -t "$T/queue.json" -p easy --check-windows 2 --windows-out "$T/windows-file/sub" -q
check_bad "$T/windows-file/sub"
[ "$(cat "$T/windows-file")" = "keep me" ] || fail "the regular file was changed"
finish "simulate: --windows-out under a regular file"

run simulate -t "$T/queue.json" -p easy --check-windows 2 --windows-out "$T/windows-file" -q --jobs-csv "$T/win-jobs.csv"
check_bad "$T/windows-file"
no_file "$T/win-jobs.csv"
finish "simulate: refused --windows-out writes no --jobs-csv either"

# ---------------------------------------------------------------- simulate --lenient
# 2 valid records and 5 malformed lines (17 fields, a word, inf, NUL byte, a 100 kB line without newline at the end).
{
  echo "$HEADER"
  echo "$LINE"
  echo '2 1 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1'
  echo '3 2 -1 ten 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1'
  echo '4 3 -1 inf 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1'
  printf '5 4 -1 10 2\0 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n'
  echo '6 5 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1'
  head -c 100000 /dev/zero | tr '\0' '9'
} >"$T/mixed.swf"
for policy in fcfs easy conservative; do
  run simulate -t "$T/mixed.swf" -p "$policy" --lenient --json -q
  [ "$rc" -eq 0 ] || fail "exit $rc, expected 0 (stderr: $(show "$T/err"))"
  [ -s "$T/err" ] && fail "stderr not empty: $(show "$T/err")"
  python3 - "$T/out" <<'EOF' || fail "summary JSON: $(show "$T/out")"
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("  not JSON:", e); sys.exit(1)
errors = []
if d.get("skipped", {}).get("malformed") != 5: errors.append(f"skipped.malformed = {d.get('skipped', {}).get('malformed')}, expected 5")
if d.get("simulated") != 2: errors.append(f"simulated = {d.get('simulated')}, expected 2")
if d.get("records") != 7: errors.append(f"records = {d.get('records')}, expected 7")
for e in errors: print("  json field check failed:", e)
sys.exit(1 if errors else 0)
EOF
  finish "simulate --lenient ($policy): 5 malformed lines skipped and counted"
done
expect_bad "simulate: the same trace without --lenient" "$T/mixed.swf: line 3" -- simulate -t "$T/mixed.swf" -p fcfs

run simulate -t "$T/mixed.swf" -p easy --lenient -q
[ "$rc" -eq 0 ] || fail "exit $rc, expected 0 (stderr: $(show "$T/err"))"
grep -qF "5 malformed" "$T/out" || fail "text summary does not say '5 malformed': $(show "$T/out")"
LC_ALL=C tr -d '\000-\010\013-\037\177' <"$T/out" | cmp -s - "$T/out" || fail "stdout holds control characters"
finish "simulate --lenient text summary counts 5 malformed"

{ echo "$HEADER"; python3 -c 'import sys; sys.stdout.buffer.write(bytes((i * 37 + 11) % 256 for i in range(8192)))'; echo; echo "$LINE"; } \
  >"$T/garbage-lenient.swf"
run simulate -t "$T/garbage-lenient.swf" -p fcfs --lenient --json -q
[ "$rc" -eq 0 ] || fail "exit $rc, expected 0 (stderr: $(show "$T/err"))"
python3 - "$T/out" <<'EOF' || fail "summary JSON: $(show "$T/out")"
import json, sys
d = json.load(open(sys.argv[1]))
m = d["skipped"]["malformed"]
ok = d["simulated"] == 1 and m >= 1 and d["records"] == m + 1
if not ok: print("  simulated", d["simulated"], "malformed", m, "records", d["records"])
sys.exit(0 if ok else 1)
EOF
finish "simulate --lenient: binary garbage skipped, the valid record simulated"

expect_bad "simulate --lenient: truncated .swf.gz still refused" "$T/truncated.swf.gz" -- \
  simulate -t "$T/truncated.swf.gz" -p fcfs --lenient
expect_bad "simulate --lenient: no machine size still refused" "--processors" -- \
  simulate -t "$T/noheader.swf" -p fcfs --lenient

# ---------------------------------------------------------------- simulate: valid runs still succeed
for policy in fcfs easy conservative; do
  expect_ok "simulate tiny.json with $policy" "2 finished" -- \
    simulate -t "$T/tiny.json" -p "$policy" --check -q --jobs-csv "$T/jobs-$policy.csv"
  [ -s "$T/jobs-$policy.csv" ] || fail "--jobs-csv $T/jobs-$policy.csv not written"
  [ "$(wc -l <"$T/jobs-$policy.csv")" -eq 3 ] || fail "--jobs-csv: expected a header and 2 rows: $(show "$T/jobs-$policy.csv")"
  [ -e "$T/jobs-$policy.csv.tmp" ] && fail "left $T/jobs-$policy.csv.tmp behind"
  finish "simulate tiny.json with $policy: jobs CSV"
done
expect_ok "simulate ok.swf (easy, pivots inf)" "2 finished" -- simulate -t "$T/ok.swf" -p easy --pivots inf -q
expect_ok "simulate many.swf.gz (valid gzip)" "2000 finished" -- simulate -t "$T/many.swf.gz" -p easy -q
expect_ok "simulate noheader.swf --processors 8" "1 finished" -- simulate -t "$T/noheader.swf" -p fcfs --processors 8 -q
expect_ok "simulate --check-windows 2 --windows-out" "windows" -- \
  simulate -t "$T/queue.json" -p easy --check-windows 2 --windows-out "$T/windows-dir" -q

# ---------------------------------------------------------------- audit
S_OK="$T/jobs-easy.csv"
row1='1,tiny,,0,2,10,1,COMPLETED_SUCCESSFULLY,0,10,10,0,10,1,0-1,-1,,1'
row2='2,tiny,,1,4,8,1,COMPLETED_SUCCESSFULLY,10,5,15,9,14,2.8,0-3,-1,,1.4'
csv() { local name=$1; shift; printf '%s\n' "$@" >"$T/$name"; }  # csv NAME LINE...
: >"$T/empty.csv"
csv noheader.csv "$row1" "$row2"
csv minimal.csv 'job_id,submission_time,starting_time,finish_time' '1,0,0,10' '2,1,10,15'
csv noid.csv 'id,submission_time,starting_time,finish_time' '1,0,0,10' '2,1,10,15'
csv nostart.csv 'job_id,submission_time,start,finish_time' '1,0,0,10' '2,1,10,15'
csv nofinish.csv 'job_id,submission_time,starting_time,end' '1,0,0,10' '2,1,10,15'
csv wordstart.csv 'job_id,submission_time,starting_time,finish_time' '1,0,zero,10' '2,1,10,15'
csv infstart.csv 'job_id,submission_time,starting_time,finish_time' '1,0,inf,10' '2,1,10,15'
csv nanfinish.csv 'job_id,submission_time,starting_time,finish_time' '1,0,0,nan' '2,1,10,15'
csv emptystart.csv 'job_id,submission_time,starting_time,finish_time' '1,0,,10' '2,1,10,15'
csv negstart.csv 'job_id,submission_time,starting_time,finish_time' '1,0,0,10' '2,1,-3,15'
csv negfinish.csv 'job_id,submission_time,starting_time,finish_time' '1,0,0,-10' '2,1,10,15'
csv backwards.csv 'job_id,submission_time,starting_time,finish_time' '1,0,0,10' '2,1,15,10'
csv twice.csv 'job_id,submission_time,starting_time,finish_time' '1,0,0,10' '2,1,10,15' '1,0,0,10'
csv quote.csv 'job_id,submission_time,starting_time,finish_time' '1,0,0,10' '"2,1,10,15'
csv quotehdr.csv '"job_id,submission_time,starting_time,finish_time' '1,0,0,10'
csv width.csv 'job_id,submission_time,starting_time,finish_time' '1,0,0,10' '2,1,10'
csv emptyid.csv 'job_id,submission_time,starting_time,finish_time' '1,0,0,10' ',1,10,15'
{ echo 'job_id,submission_time,starting_time,finish_time'; printf '1,0,0\0,10\n'; echo '2,1,10,15'; } >"$T/nul.csv"
python3 -c 'import sys; sys.stdout.buffer.write(bytes((i * 37 + 11) % 256 for i in range(8192)))' >"$T/garbage.csv"
{ echo 'job_id,submission_time,starting_time,finish_time'; echo '1,0,0,10'; head -c 2000000 /dev/zero | tr '\0' '1'; echo; } \
  >"$T/longline.csv"

expect_bad "audit: missing schedule" "$T/does-not-exist.csv" -- audit -t "$T/tiny.json" -s "$T/does-not-exist.csv" -p easy
expect_bad "audit: empty schedule" "$T/empty.csv" -- audit -t "$T/tiny.json" -s "$T/empty.csv" -p easy
expect_bad "audit: CSV with no header" "$T/noheader.csv: line 1" -- audit -t "$T/tiny.json" -s "$T/noheader.csv" -p easy
expect_bad "audit: header without job_id" "job_id" -- audit -t "$T/tiny.json" -s "$T/noid.csv" -p easy
expect_bad "audit: header without starting_time" "starting_time" -- audit -t "$T/tiny.json" -s "$T/nostart.csv" -p easy
expect_bad "audit: header without finish_time" "finish_time" -- audit -t "$T/tiny.json" -s "$T/nofinish.csv" -p easy
expect_bad "audit: a non-number start" "$T/wordstart.csv: line 2" -- audit -t "$T/tiny.json" -s "$T/wordstart.csv" -p easy
expect_bad "audit: start inf" "starting_time" -- audit -t "$T/tiny.json" -s "$T/infstart.csv" -p easy
expect_bad "audit: finish nan" "finish_time" -- audit -t "$T/tiny.json" -s "$T/nanfinish.csv" -p easy
expect_bad "audit: empty start" "starting_time" -- audit -t "$T/tiny.json" -s "$T/emptystart.csv" -p easy
expect_bad "audit: a negative start" "$T/negstart.csv: line 3" -- audit -t "$T/tiny.json" -s "$T/negstart.csv" -p easy
expect_bad "audit: a negative finish" "finish_time" -- audit -t "$T/tiny.json" -s "$T/negfinish.csv" -p easy
expect_bad "audit: finish before start" "$T/backwards.csv: line 3" -- audit -t "$T/tiny.json" -s "$T/backwards.csv" -p easy
expect_bad "audit: a job listed twice" "twice" -- audit -t "$T/tiny.json" -s "$T/twice.csv" -p easy
expect_bad "audit: an unterminated quote" "unterminated quote" -- audit -t "$T/tiny.json" -s "$T/quote.csv" -p easy
expect_bad "audit: an unterminated quote in the header" "unterminated quote" -- audit -t "$T/tiny.json" -s "$T/quotehdr.csv" -p easy
expect_bad "audit: a row with too few fields" "$T/width.csv: line 3" -- audit -t "$T/tiny.json" -s "$T/width.csv" -p easy
expect_bad "audit: an empty job id" "job_id" -- audit -t "$T/tiny.json" -s "$T/emptyid.csv" -p easy
expect_bad "audit: NUL byte in a field" "$T/nul.csv: line 2" -- audit -t "$T/tiny.json" -s "$T/nul.csv" -p easy
expect_bad "audit: binary garbage" "$T/garbage.csv" -- audit -t "$T/tiny.json" -s "$T/garbage.csv" -p easy
expect_bad "audit: a 2 MB line" "$T/longline.csv: line 3" -- audit -t "$T/tiny.json" -s "$T/longline.csv" -p easy
expect_bad "audit: --id-column naming a missing column" "no-such-column" -- \
  audit -t "$T/tiny.json" -s "$S_OK" -p easy --id-column no-such-column
expect_bad "audit: --start-column with a newline" "no column" -- \
  audit -t "$T/tiny.json" -s "$S_OK" -p easy --start-column $'start\ning'
# --model processors: a schedule that names processors on some rows and not on others (one that names none gets them
# by the lowest-free rule: test peers).
csv mixed-sets.csv 'job_id,submission_time,starting_time,finish_time,allocated_resources' '1,0,0,10,0-1' '2,1,10,15,'
expect_bad "audit: --model processors with a row without allocated_resources" "column allocated_resources: expected the" -- \
  audit -t "$T/tiny.json" -s "$T/mixed-sets.csv" -p easy --model processors
# --model processors: every row's processors must parse and be as many as the job asks (the replay starts it there).
sed 's/,0-1,/,0-9,/' "$S_OK" >"$T/badset.csv"
sed 's/,0-1,/,0,/' "$S_OK" >"$T/shortset.csv"
expect_bad "audit: --model processors, processors outside the machine" "0-9" -- \
  audit -t "$T/tiny.json" -s "$T/badset.csv" -p easy --model processors
expect_bad "audit: --model processors, too few processors" "expected the 2 processors" -- \
  audit -t "$T/tiny.json" -s "$T/shortset.csv" -p easy --model processors
expect_bad "audit: missing trace" "$T/does-not-exist.swf" -- audit -t "$T/does-not-exist.swf" -s "$S_OK" -p easy
expect_bad "audit: malformed trace" "$T/f19.swf: line 3" -- audit -t "$T/f19.swf" -s "$S_OK" -p easy
expect_bad "audit: --policy unknown" "--policy" -- audit -t "$T/tiny.json" -s "$S_OK" -p no-such-policy
expect_bad "audit: --pivots abc" "--pivots" -- audit -t "$T/tiny.json" -s "$S_OK" -p easy --pivots abc
expect_bad "audit: --schedule missing" "--schedule" -- audit -t "$T/tiny.json" -p easy

# Valid: each policy's own jobs CSV audited against the same policy.
for policy in fcfs easy conservative; do
  expect_ok "audit own --jobs-csv ($policy)" "every invariant holds" -- \
    audit -t "$T/tiny.json" -s "$T/jobs-$policy.csv" -p "$policy"
  expect_ok "audit own --jobs-csv ($policy, --model processors)" "every invariant holds" -- \
    audit -t "$T/tiny.json" -s "$T/jobs-$policy.csv" -p "$policy" --model processors
done
expect_ok "audit minimal CSV (fcfs)" "every invariant holds" -- audit -t "$T/tiny.json" -s "$T/minimal.csv" -p fcfs

# ---------------------------------------------------------------- compare-runs
csv nosubmit.csv 'job_id,starting_time,finish_time' '1,0,10' '2,10,15'
expect_bad "compare-runs: missing base file" "$T/does-not-exist.csv" -- compare-runs "$T/does-not-exist.csv" "$S_OK"
expect_bad "compare-runs: missing new file" "$T/does-not-exist.csv" -- compare-runs "$S_OK" "$T/does-not-exist.csv"
expect_bad "compare-runs: a CSV without submission_time" "submission_time" -- compare-runs "$T/nosubmit.csv" "$S_OK"
expect_bad "compare-runs: new CSV without submission_time" "submission_time" -- compare-runs "$S_OK" "$T/nosubmit.csv"
expect_bad "compare-runs: one file only" "new" -- compare-runs "$S_OK"
expect_bad "compare-runs: binary garbage" "$T/garbage.csv" -- compare-runs "$T/garbage.csv" "$S_OK"
expect_bad "compare-runs: unterminated quote" "unterminated quote" -- compare-runs "$S_OK" "$T/quote.csv"
expect_bad "compare-runs: finish before start" "$T/backwards.csv: line 3" -- compare-runs "$T/backwards.csv" "$S_OK"
expect_ok "compare-runs: two valid CSVs" "2 jobs in both" -- compare-runs "$T/jobs-fcfs.csv" "$T/jobs-easy.csv"
expect_ok "compare-runs: two valid CSVs (--json)" '"matched": 2' -- compare-runs "$T/jobs-fcfs.csv" "$T/minimal.csv" --json

echo "$passed case(s) passed, $failures failed"
if [ "$failures" -ne 0 ]; then
  exit 1
fi
echo "all simulate/audit/compare-runs CLI checks passed"
