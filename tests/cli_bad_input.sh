#!/usr/bin/env bash
# CLI checks of the schedcheck executable: bad input and usage exit 2 with one stderr line naming the file/field, user
# text escaped, nothing on stdout; `check --json` fields; time-limited `solve`; `search --out` probe and write failure;
# control characters in names escaped in the --json of every command that prints it.
# Source: our own (cli/main.cpp exit codes 0/1/2/3/4, docs/cli.md). Usage: cli_bad_input.sh SCHEDCHECK SOURCE_DIR
set -u

SCHEDCHECK=${1:?usage: cli_bad_input.sh SCHEDCHECK SOURCE_DIR}
SOURCE_DIR=${2:?usage: cli_bad_input.sh SCHEDCHECK SOURCE_DIR}
EXAMPLE="$SOURCE_DIR/examples/sla-greedy-vs-optimum.json"
. "$(dirname "$0")/common.sh"

# run NAME EXPECTED_SUBSTRING -- ARGS...: asserts exit 2, empty stdout, exactly one stderr line containing the substring.
expect_bad() {
  local name=$1 want=$2
  shift 3
  "$SCHEDCHECK" "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  local lines
  lines=$(wc -l <"$T/err")
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, expected 2 (stderr: $(cat "$T/err"))"
  [ -s "$T/out" ] && fail "$name: stdout not empty: $(head -c 300 "$T/out")"
  [ "$lines" -eq 1 ] || fail "$name: $lines lines on stderr, expected 1: $(cat "$T/err")"
  grep -qF -- "$want" "$T/err" || fail "$name: stderr does not contain '$want': $(cat "$T/err")"
  echo "ok: $name"
}

# ---------------------------------------------------------------- bad instance files
: >"$T/empty.json"
echo 'this is not json' >"$T/notjson.json"
echo '{"kind": "sla-site", "bids": []}' >"$T/nosite.json"
cat >"$T/negprocs.json" <<'EOF'
{"site": {"processors": 10, "mips": 100, "price": 2},
 "bids": [{"id": "A", "procs": 2, "length": 1000, "budget": 100, "deadline": 100},
          {"id": "B", "procs": -3, "length": 1000, "budget": 100, "deadline": 100}]}
EOF
cat >"$T/bigprocs.json" <<'EOF'
{"site": {"processors": 10, "mips": 100, "price": 2},
 "bids": [{"id": "A", "procs": 11, "length": 1000, "budget": 100, "deadline": 100}]}
EOF
cat >"$T/dupids.json" <<'EOF'
{"site": {"processors": 10, "mips": 100, "price": 2},
 "running": [{"id": "A", "procs": 1, "remaining": 10}],
 "bids": [{"id": "A", "procs": 2, "length": 1000, "budget": 100, "deadline": 100}]}
EOF
cat >"$T/inf.json" <<'EOF'
{"site": {"processors": 10, "mips": 100, "price": 2},
 "bids": [{"id": "A", "procs": 2, "length": 1e400, "budget": 100, "deadline": 100}]}
EOF

for problem in sla-admission sla-admission-timed; do
  expect_bad "$problem empty file" "$T/empty.json" -- check "$problem" --policy greedy-backfilling -i "$T/empty.json"
  expect_bad "$problem not JSON" "$T/notjson.json" -- check "$problem" --policy fcfs -i "$T/notjson.json"
  expect_bad "$problem missing site" "site" -- run "$problem" --policy fcfs -i "$T/nosite.json"
  expect_bad "$problem negative procs" "bids[1].procs" -- check "$problem" --policy fcfs -i "$T/negprocs.json"
  expect_bad "$problem procs above p_m" "bids[0].procs" -- solve "$problem" -i "$T/bigprocs.json"
  expect_bad "$problem duplicate ids" "bids[0].id" -- check "$problem" --policy fcfs -i "$T/dupids.json"
done
expect_bad "missing site names the file" "$T/nosite.json" -- run sla-admission --policy fcfs -i "$T/nosite.json"
expect_bad "negative procs names the file" "$T/negprocs.json" -- run sla-admission --policy fcfs -i "$T/negprocs.json"
expect_bad "non-finite number (1e400)" "$T/inf.json: bids[0].length: expected a finite number (a double), got 1e400" -- check sla-admission --policy fcfs -i "$T/inf.json"
expect_bad "solve --effort -3" "--effort" -- solve sla-admission -i "$T/inf.json" --effort -3
expect_bad "search --effort -3" "--effort" -- search sla-admission --policy fcfs --trials 2 --out "$T/effort-out" --effort -3
expect_bad "suite --effort x" "--effort" -- suite "$T/inf.json" --effort x
expect_bad "nonexistent file" "$T/does-not-exist.json" -- check sla-admission --policy fcfs -i "$T/does-not-exist.json"
mkdir "$T/adir.json" "$T/adir.swf"
expect_bad "instance is a directory" "$T/adir.json: is a directory; expected an instance file" -- check sla-admission --policy fcfs -i "$T/adir.json"
expect_bad "trace is a directory" "$T/adir.swf: is a directory; expected an instance file" -- run cluster-run --policy fcfs -i "$T/adir.swf"
printf '1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n' >"$T/one.swf"
expect_bad "solve a problem without exact methods" "solve cluster-run: this problem has no exact method" -- solve cluster-run -i "$T/one.swf"

# ---------------------------------------------------------------- user text in messages
# A key with a newline and a terminal escape, a 100,000-character key, a raw 0xFF byte, a duplicate key: exactly
# one line, the text escaped (\n, \u001b, \xFF) and cut, nothing raw reaching the terminal, valid UTF-8 throughout.
printf '{"site": {"processors": 10, "mips": 100, "price": 2, "a\\nb\\u001b[2J": 1}, "bids": []}' >"$T/key-escape.json"
expect_bad "key with newline and escape" "$T/key-escape.json: site.\"a\\nb\\u001b[2J\": unknown field (expected one of:" -- check sla-admission --policy fcfs -i "$T/key-escape.json"
grep -q $'\x1b' "$T/err" && fail "key with newline and escape: a raw ESC reached stderr"
python3 -c 'import sys; k = "k" * 100000; open(sys.argv[1], "w").write("{\"site\": {\"" + k + "\": 1}, \"bids\": []}")' "$T/long-key.json"
expect_bad "100,000-character key" "site.\"$(printf 'k%.0s' $(seq 40))...\": unknown field" -- check sla-admission --policy fcfs -i "$T/long-key.json"
[ "$(wc -c <"$T/err")" -lt 400 ] || fail "100,000-character key: $(wc -c <"$T/err") bytes on stderr"
printf '{"site": {"a\xff": 1}, "bids": []}' >"$T/ff.json"
expect_bad "raw 0xFF byte" "$T/ff.json: not valid JSON: parse error at line 1" -- check sla-admission --policy fcfs -i "$T/ff.json"
grep -qF '\xFF' "$T/err" || fail "raw 0xFF byte: not shown as \\xFF: $(cat "$T/err")"
python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$T/err" || fail "raw 0xFF byte: stderr is not valid UTF-8"
printf '{"site": {"processors": 10, "mips": 100, "price": 2}, "bids": [{"id": "A", "procs": 2, "procs": 3}]}' >"$T/dupkey.json"
expect_bad "duplicate key" "$T/dupkey.json: bids[0].procs: duplicate field (an object may give each field once)" -- check sla-admission --policy fcfs -i "$T/dupkey.json"
printf '{"kind": "x\\u001by", "site": {}}' >"$T/kind-escape.json"
expect_bad "suite: unknown kind escaped" 'kind: no registered problem reads "x\u001by"' -- suite "$T/kind-escape.json"

# dbc-broker readings and request limits (paper 001): one line naming the field, exit 2.
DBC_HEAD='{"kind": "dbc-broker", "resources": [{"id": "A", "pes": 1, "mips": 10, "cost": 1}], "jobs": [{"id": "J", "length": 5}], "deadline": 10, "budget": 100'
echo "$DBC_HEAD"', "readings": {"cost_unit": "per-hour"}}' >"$T/dbc-unit.json"
echo "$DBC_HEAD"', "readings": {"loop_order": "jobs"}}' >"$T/dbc-key.json"
echo "$DBC_HEAD"', "readings": {"max_tr": 6}}' >"$T/dbc-maxtr-type.json"
echo "$DBC_HEAD"', "broker": {"max_tr": -6}}' >"$T/dbc-maxtr-neg.json"
expect_bad "dbc unknown cost unit" 'readings.cost_unit: expected "per-mi" or "per-pe-second"' -- check dbc-cost-time --policy dbc-cost-time -i "$T/dbc-unit.json"
expect_bad "dbc unknown reading" "readings.loop_order: unknown field" -- check dbc-cost-time --policy dbc-cost-time -i "$T/dbc-key.json"
expect_bad "dbc reading not a string" "readings.max_tr" -- solve dbc-cost-time -i "$T/dbc-maxtr-type.json"
expect_bad "dbc negative maxTr" "broker.max_tr" -- check dbc-cost-time --policy dbc-cost-time -i "$T/dbc-maxtr-neg.json"

# ---------------------------------------------------------------- --json escapes user text
# A name holding DEL, U+009B (CSI), U+202E, U+2066 and U+200E: every command that prints --json writes them as
# \u007f, \u009b, \u202e, ... (as the text outputs escape them), nothing raw, and a JSON reader gets the name back.
H=$'x\x7f\xc2\x9b\xe2\x80\xae\xe2\x81\xa6\xe2\x80\x8ey'
json_escapes() {  # NAME FILE: FILE is JSON holding $H in some string, with none of its controls raw
  python3 - "$2" "$H" <<'EOF' || fail "$1 --json: a control character raw, or the name lost: $(head -c 300 "$2")"
import json, sys
raw, hostile = open(sys.argv[1], "rb").read(), sys.argv[2]
assert not [c for c in "\x7f\u009b\u202e\u2066\u200e" if c.encode() in raw]
assert all(e in raw for e in (b"\\u007f", b"\\u009b", b"\\u202e", b"\\u2066", b"\\u200e"))
def strings(v):
    if isinstance(v, str): yield v
    elif isinstance(v, dict): yield from (s for x in list(v) + list(v.values()) for s in strings(x))
    elif isinstance(v, list): yield from (s for x in v for s in strings(x))
assert any(hostile in s for s in strings(json.loads(raw)))
EOF
  [ $? -eq 0 ] && echo "ok: $1 --json escapes the controls in a name"
}
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["name"] = sys.argv[3]; json.dump(d, open(sys.argv[2], "w"))' \
  "$EXAMPLE" "$T/hostile.json" "$H"
for command in check run; do
  "$SCHEDCHECK" $command sla-admission --policy greedy-backfilling -i "$T/hostile.json" --json >"$T/h.json" 2>"$T/err"
  json_escapes "$command" "$T/h.json"
done
"$SCHEDCHECK" solve sla-admission -i "$T/hostile.json" --json >"$T/h.json" 2>"$T/err"
json_escapes solve "$T/h.json"
"$SCHEDCHECK" suite "$T/hostile.json" --problem sla-admission --json >"$T/h.json" 2>"$T/err"
json_escapes suite "$T/h.json"
"$SCHEDCHECK" search sla-admission --policy greedy-backfilling --trials 20 --size 6 -q --json --out "$T/cx$H" \
  >"$T/h.json" 2>"$T/err"
json_escapes search "$T/h.json"
cp "$SOURCE_DIR/examples/small-cluster.swf" "$T/t$H.swf"
"$SCHEDCHECK" simulate --trace "$T/t$H.swf" --policy easy -q --json --jobs-csv "$T/s$H.csv" >"$T/h.json" 2>"$T/err"
json_escapes simulate "$T/h.json"
"$SCHEDCHECK" audit --trace "$T/t$H.swf" --schedule "$T/s$H.csv" --policy easy --json >"$T/h.json" 2>"$T/err"
json_escapes audit "$T/h.json"
"$SCHEDCHECK" compare-runs "$T/s$H.csv" "$T/s$H.csv" --json >"$T/h.json" 2>"$T/err"
json_escapes compare-runs "$T/h.json"
"$SCHEDCHECK" experiment backfilling --trace "$T/t$H.swf" --seeds 1 --out "$T/e" --json -q >"$T/h.json" 2>"$T/err"
json_escapes experiment "$T/h.json"
json_escapes "experiment's summary.json" "$T/e/summary.json"
# A file name with a byte that is not UTF-8: valid JSON with U+FFFD in its place (the dump threw before: exit 4).
cp "$SOURCE_DIR/examples/small-cluster.swf" "$T/t"$'\xff'".swf"
"$SCHEDCHECK" simulate --trace "$T/t"$'\xff'".swf" --policy easy -q --json >"$T/h.json" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] &&
  python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["trace"].endswith("t\ufffd.swf")' "$T/h.json" ||
  fail "simulate --json, a trace name with 0xFF: exit $rc, $(head -c 300 "$T/err")"

# ---------------------------------------------------------------- bad usage
expect_bad "unknown problem" "no-such-problem" -- check no-such-problem --policy fcfs -i "$EXAMPLE"
expect_bad "unknown policy" "no-such-policy" -- check sla-admission --policy no-such-policy -i "$EXAMPLE"
expect_bad "unknown exact method" "simplex" -- solve sla-admission --exact simplex -i "$EXAMPLE"
expect_bad "bad --tolerance" "tolerance" -- check sla-admission --policy fcfs -i "$EXAMPLE" --tolerance 2
expect_bad "non-numeric --tolerance" "tolerance" -- check sla-admission --policy fcfs -i "$EXAMPLE" --tolerance abc

# ---------------------------------------------------------------- check on the worked example: exit 1, JSON fields
"$SCHEDCHECK" check sla-admission --policy greedy-backfilling -i "$EXAMPLE" --json >"$T/check.json" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] || fail "check example: exit $rc, expected 1 (greedy 1300 < optimum 1700)"
[ -s "$T/err" ] && fail "check example: stderr not empty: $(cat "$T/err")"
python3 - "$T/check.json" <<'EOF' || fail "check example: JSON fields (see above)"
import json, sys
d = json.load(open(sys.argv[1]))
errors = []
def need(cond, what):
    if not cond: errors.append(what)
need(d.get("problem") == "sla-admission", "problem")
need(d.get("policy") == "greedy-backfilling", "policy")
h, o = d.get("heuristic") or {}, d.get("optimum") or {}
need(h.get("objective") == 1300, "heuristic.objective == 1300")
need(h.get("accepted") == ["A", "D"], "heuristic.accepted == [A, D]")
need(o.get("status") == "optimal", "optimum.status == optimal")
need(o.get("objective") == 1700, "optimum.objective == 1700")
need(o.get("accepted") == ["B", "C"], "optimum.accepted == [B, C]")
need(isinstance(d.get("gap"), float) and abs(d["gap"] - 400 / 1700) < 1e-12, "gap == (1700-1300)/1700")
props = d.get("properties")
need(isinstance(props, list) and len(props) > 0, "properties is a non-empty list")
for p in props or []:
    need(isinstance(p.get("name"), str), "properties[].name")
    need("holds" in p and p["holds"] in (True, False, None), "properties[].holds")
    need(isinstance(p.get("detail"), str), "properties[].detail")
by_name = {p.get("name"): p for p in props or []}
need(by_name.get("optimal-within", {}).get("holds") is False, "optimal-within holds == false")
need(by_name.get("capacity", {}).get("holds") is True, "capacity holds == true")
for e in errors: print("  json field check failed:", e)
sys.exit(1 if errors else 0)
EOF
echo "ok: check example --json"

# ---------------------------------------------------------------- solve with a 1 ms time limit on 40 bids
"$SCHEDCHECK" generate sla-admission --seed 3 --size 40 >"$T/g40.json" || fail "generate failed"
for attempt in 1 2 3; do
  "$SCHEDCHECK" solve sla-admission -i "$T/g40.json" --exact z3 --timeout-ms 1 --json >"$T/solve.json" 2>"$T/err"
  rc=$?
  case $rc in
    0 | 3) ;;
    *) fail "solve --timeout-ms 1: exit $rc, expected 0 or 3 (stderr: $(cat "$T/err"))" ;;
  esac
  status=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["optimum"]["status"])' "$T/solve.json" 2>/dev/null)
  [ -n "$status" ] || fail "solve --timeout-ms 1: output is not the expected JSON: $(head -c 300 "$T/solve.json")"
  if [ "$rc" -eq 3 ] && [ "$status" = optimal ]; then fail "solve --timeout-ms 1: exit 3 but status optimal"; fi
  if [ "$rc" -eq 0 ] && [ "$status" != optimal ]; then fail "solve --timeout-ms 1: exit 0 but status $status"; fi
done
echo "ok: solve --timeout-ms 1 (last status: ${status:-none})"

# ---------------------------------------------------------------- search --out under a regular file
: >"$T/plainfile"
"$SCHEDCHECK" search sla-admission --policy greedy-backfilling --trials 20 --size 6 --out "$T/plainfile/corpus" -q \
  >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "search --out under a file: exit $rc, expected 2 (stderr: $(cat "$T/err"))"
[ -s "$T/out" ] && fail "search --out under a file: stdout not empty"
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "search --out under a file: expected one stderr line: $(cat "$T/err")"
grep -qF "$T/plainfile/corpus" "$T/err" || fail "search --out under a file: stderr does not name the path"
[ -s "$T/plainfile" ] && fail "search --out under a file: the regular file was written to"
echo "ok: search --out under a regular file"

# ---------------------------------------------------------------- search --out: a write failure midway
# The corpus files of a seeded search are known in advance: a first run names them; in a second directory each
# NAME.tmp is a link to /dev/full, so the directory passes the probe and the first corpus write fails (disk full).
# The summary must still be printed (stdout), then one line on stderr and exit 2 (not 4).
SEARCH=(search sla-admission --policy greedy-backfilling --trials 20 --size 6 -q)
"$SCHEDCHECK" "${SEARCH[@]}" --out "$T/corpus1" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] || fail "search into a fresh directory: exit $rc, expected 1 (stderr: $(cat "$T/err"))"
found=$(ls "$T/corpus1" | wc -l)
[ "$found" -ge 1 ] || fail "search into a fresh directory: no corpus file written"
[ -z "$(ls -A "$T/corpus1" | grep -v '\.json$')" ] || fail "search into a fresh directory: a probe or temporary file was left: $(ls -A "$T/corpus1")"
if [ -w /dev/full ]; then
  mkdir "$T/corpus2"
  for f in "$T/corpus1"/*; do ln -s /dev/full "$T/corpus2/$(basename "$f").tmp"; done
  "$SCHEDCHECK" "${SEARCH[@]}" --out "$T/corpus2" --json >"$T/out" 2>"$T/err"
  rc=$?
  [ "$rc" -eq 2 ] || fail "search --out, write fails midway: exit $rc, expected 2 (stderr: $(cat "$T/err"))"
  [ "$(wc -l <"$T/err")" -eq 1 ] || fail "search --out, write fails midway: expected one stderr line: $(cat "$T/err")"
  grep -qF "$T/corpus2/" "$T/err" && grep -qF ": write failed (disk full?)" "$T/err" ||
    fail "search --out, write fails midway: stderr: $(cat "$T/err")"
  python3 - "$T/out" <<'EOF' || fail "search --out, write fails midway: the summary (see above)"
import json, sys
d = json.load(open(sys.argv[1]))
ok = d["checked"] == 20 and d["failing"] >= 1 and d["counterexamples"] == [] and "write failed" in (d["write_error"] or "")
print("" if ok else "  summary: " + json.dumps(d)[:400])
sys.exit(0 if ok else 1)
EOF
  echo "ok: search --out, write fails midway"
else
  echo "skip: search --out, write fails midway (no /dev/full)"
fi

# ---------------------------------------------------------------- search --out: an unwritable directory
# Root writes anywhere, so this runs as nobody (setpriv) in a read-only directory: refused by the probe before any
# search (a search of 10^8 trials would run for hours), exit 2, one line, even though nothing would be written yet.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && command -v timeout >/dev/null &&
  setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$SCHEDCHECK"; then
  U=$(mktemp -d)
  chmod 755 "$U"
  mkdir "$U/ro" && chmod 555 "$U/ro"
  timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups "$SCHEDCHECK" search sla-admission --policy greedy-backfilling \
    --trials 100000000 --size 6 -q --out "$U/ro" >"$T/out" 2>"$T/err"
  rc=$?
  [ "$rc" -eq 2 ] || fail "search --out unwritable: exit $rc, expected 2 at once (stderr: $(cat "$T/err"))"
  [ -s "$T/out" ] && fail "search --out unwritable: stdout not empty"
  [ "$(wc -l <"$T/err")" -eq 1 ] || fail "search --out unwritable: expected one stderr line: $(cat "$T/err")"
  grep -qF "$U/ro: --out: cannot write in the directory (Permission denied)" "$T/err" ||
    fail "search --out unwritable: stderr: $(cat "$T/err")"
  rm -rf "$U"
  echo "ok: search --out unwritable (as nobody)"
else
  echo "skip: search --out unwritable (needs root and setpriv to run as nobody, and nobody able to run $SCHEDCHECK)"
fi

finish cli_bad_input
