#!/usr/bin/env bash
# Policy parameters from the command line and scenario files: --policy-param NAME=VALUE (repeatable), --pivots N its
# synonym, a scenario's "params" and its older "pivots" key, the precedence of a scenario over the flags, and bad
# values (an unknown name, a wrong type, out of range): exit 2 with one stderr line naming the flag or field.
# Source: our own (reference/cluster_policies.hpp, docs/simulation.md "Policy parameters").
# Usage: policy_params.sh SCHEDCHECK SOURCE_DIR
set -u
S=${1:?usage: policy_params.sh SCHEDCHECK SOURCE_DIR}
SOURCE_DIR=${2:?usage: policy_params.sh SCHEDCHECK SOURCE_DIR}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
TRACE=$SOURCE_DIR/examples/small-cluster.swf
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# bad NAME WANT ARGS...: exit 2, nothing on stdout, one stderr line containing WANT.
bad() {
  local name=$1 want=$2
  shift 2
  "$S" "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, expected 2 ($(head -c 300 "$T/err"))"
  [ -s "$T/out" ] && fail "$name: stdout not empty"
  [ "$(wc -l <"$T/err")" -eq 1 ] || fail "$name: $(wc -l <"$T/err") stderr lines, expected 1: $(head -c 300 "$T/err")"
  grep -qF -- "$want" "$T/err" || fail "$name: stderr lacks '$want': $(head -c 300 "$T/err")"
}

# The synonym: --pivots 3 and --policy-param pivots=3 run the same, and say so the same way.
"$S" simulate --trace "$TRACE" --policy easy --pivots 3 --check -q --json --jobs-csv "$T/a.csv" >"$T/a.json" ||
  fail "--pivots 3: exit $?"
"$S" simulate --trace "$TRACE" --policy easy --policy-param pivots=3 --check -q --json --jobs-csv "$T/b.csv" >"$T/b.json" ||
  fail "--policy-param pivots=3: exit $?"
cmp -s "$T/a.csv" "$T/b.csv" || fail "--pivots 3 and --policy-param pivots=3 give different per-job CSVs"
python3 - "$T/a.json" "$T/b.json" <<'EOF' || fail "--pivots 3 and --policy-param pivots=3 give different summaries"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b):
    for k in ("wall_seconds", "jobs_per_second", "jobs_csv"):
        d.pop(k, None)
assert a == b, [k for k in a if a.get(k) != b.get(k)]
assert a["pivots"] == 3 and a["clusters"][0]["pivots"] == 3, a["pivots"]
EOF
"$S" simulate --trace "$TRACE" --policy easy --policy-param pivots=inf -q --csv >"$T/inf.csv" || fail "pivots=inf: exit $?"
grep -q ",easy,inf,count," "$T/inf.csv" || fail "pivots=inf: the CSV's pivots column: $(tail -1 "$T/inf.csv")"
"$S" simulate --trace "$TRACE" --policy easy --policy-param pivots=2 -q --clusters 4,4 >"$T/two.txt" ||
  fail "pivots=2 on two clusters: exit $?"
grep -qF "easy (2 pivots)" "$T/two.txt" || fail "pivots=2: the label: $(grep cluster "$T/two.txt" | head -1)"
# The last of two assignments of one name holds.
"$S" simulate --trace "$TRACE" --policy easy --policy-param pivots=2 --policy-param pivots=4 -q --json >"$T/last.json" ||
  fail "two assignments: exit $?"
grep -q '"pivots": 4' "$T/last.json" || fail "two assignments: the last does not hold"
# --pivots with a policy that takes none is ignored, as before; --policy-param naming one is refused.
"$S" simulate --trace "$TRACE" --policy fcfs --pivots 3 -q >/dev/null || fail "fcfs --pivots 3: exit $?"

bad "unknown parameter" "--policy-param: expected a parameter of easy (one of pivots), got \"depth\"" \
  simulate --trace "$TRACE" --policy easy --policy-param depth=2
bad "parameter of another policy" "--policy-param: expected a parameter of fcfs" \
  simulate --trace "$TRACE" --policy fcfs --policy-param pivots=2
bad "not NAME=VALUE" "--policy-param: expected NAME=VALUE" simulate --trace "$TRACE" --policy easy --policy-param pivots
bad "wrong type" "--policy-param: pivots: expected a whole number from 1 to 1000000000 or \`inf\`, got \"two\"" \
  simulate --trace "$TRACE" --policy easy --policy-param pivots=two
bad "out of range" "--policy-param: pivots: expected a whole number from 1 to 1000000000" \
  simulate --trace "$TRACE" --policy easy --policy-param pivots=0
bad "synonym out of range" "--pivots: expected a whole number from 1" simulate --trace "$TRACE" --policy easy --pivots 0

# Scenario files: "params" and the older key read the same; the scenario's policy and its values win over nothing,
# and flags that would change them are refused; without a policy in the scenario the flags give it.
scenario() {  # scenario FILE POLICY-JSON
  cat >"$1" <<EOF
{"kind": "scenario", "name": "p", "workloads": [{"trace": "$TRACE"}]$2}
EOF
}
scenario "$T/old.json" ', "policy": {"name": "easy", "pivots": 2}'
scenario "$T/new.json" ', "policy": {"name": "easy", "params": {"pivots": 2}}'
scenario "$T/none.json" ''
"$S" simulate --scenario "$T/old.json" -q --jobs-csv "$T/old.csv" >"$T/old.txt" || fail "scenario pivots: exit $?"
"$S" simulate --scenario "$T/new.json" -q --jobs-csv "$T/new.csv" >"$T/new.txt" || fail "scenario params: exit $?"
"$S" simulate --scenario "$T/none.json" --policy easy --policy-param pivots=2 -q --jobs-csv "$T/flags.csv" >"$T/flags.txt" ||
  fail "scenario + flags: exit $?"
cmp -s "$T/old.csv" "$T/new.csv" || fail "scenario: \"pivots\" and \"params\" run differently"
cmp -s "$T/old.csv" "$T/flags.csv" || fail "scenario: its policy and the same from flags run differently"
grep -qF "policy easy (2 pivots)" "$T/new.txt" || fail "scenario params: the label: $(head -1 "$T/new.txt")"
grep -qF "policy easy (2 pivots)" "$T/flags.txt" || fail "scenario + flags: the label: $(head -1 "$T/flags.txt")"
bad "scenario gives the policy's values" "--policy-param: the scenario $T/new.json gives the policy and its parameters" \
  simulate --scenario "$T/new.json" --policy-param pivots=3
scenario "$T/bad-value.json" ', "policy": {"name": "easy", "params": {"pivots": 0}}'
bad "scenario: out of range" "$T/bad-value.json: policy.params.pivots: expected a whole number from 1" \
  simulate --scenario "$T/bad-value.json"
scenario "$T/bad-type.json" ', "policy": {"name": "easy", "params": {"pivots": 2.5}}'
bad "scenario: wrong type" "$T/bad-type.json: policy.params.pivots: expected a whole number" simulate --scenario "$T/bad-type.json"
scenario "$T/bad-name.json" ', "policy": {"name": "easy", "params": {"depth": 2}}'
bad "scenario: unknown name" "$T/bad-name.json: policy.params.depth: expected a parameter of easy (one of pivots)" \
  simulate --scenario "$T/bad-name.json"

# audit reads the parameters as simulate does: a schedule of easy with 4 pivots audits clean against the same, with
# either flag, and its label and JSON say so; an unknown name or a bad value is refused as simulate refuses it.
"$S" simulate --trace "$TRACE" --policy easy --policy-param pivots=4 -q --jobs-csv "$T/p4.csv" >/dev/null ||
  fail "simulate pivots=4: exit $?"
"$S" audit --trace "$TRACE" --schedule "$T/p4.csv" --policy easy --policy-param pivots=4 --strict >"$T/audit4.txt" 2>&1 ||
  fail "audit --policy-param pivots=4 of its own schedule: exit $? ($(head -c 300 "$T/audit4.txt"))"
grep -qF "against easy (4 pivots)" "$T/audit4.txt" || fail "audit label: $(head -1 "$T/audit4.txt")"
"$S" audit --trace "$TRACE" --schedule "$T/p4.csv" --policy easy --pivots 4 --strict --json >"$T/audit4.json" ||
  fail "audit --pivots 4: exit $?"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['pivots'] == 4 and d['exit_code'] == 0, d" \
  "$T/audit4.json" || fail "audit --json pivots: $(head -c 300 "$T/audit4.json")"
bad "audit: unknown name" "--policy-param: expected a parameter of easy (one of pivots), got \"depth\"" \
  audit --trace "$TRACE" --schedule "$T/p4.csv" --policy easy --policy-param depth=3
bad "audit: out of range" "--policy-param: pivots: expected a whole number from 1" \
  audit --trace "$TRACE" --schedule "$T/p4.csv" --policy easy --policy-param pivots=0

# --help lists each policy's parameters.
"$S" simulate --help >"$T/help.txt" 2>&1
grep -qF "easy: pivots (a whole number from 1 to 1000000000 or \`inf\`; default 1)" "$T/help.txt" ||
  fail "simulate --help does not list easy's pivots"

[ "$failures" -eq 0 ] && echo "policy_params: all passed"
exit $((failures > 0))
