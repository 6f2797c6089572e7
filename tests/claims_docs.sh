#!/usr/bin/env bash
# docs/policies.md's claims tables and the verdicts its prose gives, against the committed claims CSVs
# (docs/claims/, scripts/claims-docs --check): the docs as committed pass; a copy whose prose says "agrees" of a claim
# the CSV says disagrees, one whose table was edited by hand, and one that names an unknown claim are each refused
# with the line to blame. Our own. Usage: claims_docs.sh SCHEDCHECK SOURCE_DIR
set -u
S=${1:?usage: claims_docs.sh SCHEDCHECK SOURCE_DIR}
SOURCE_DIR=${2:?usage: claims_docs.sh SCHEDCHECK SOURCE_DIR}
. "$(dirname "$0")/common.sh"
export SCHEDCHECK=$S

SCHEDCHECK=$S "$SOURCE_DIR/scripts/claims-docs" --check >"$T/out" 2>&1 || fail "the committed docs: $(cat "$T/out")"
grep -q "every claims block and every verdict in the prose is the CSVs'" "$T/out" || fail "no verdict line: $(cat "$T/out")"

copy() {  # a copy of the script and the docs, to break
  rm -rf "$T/r" && mkdir -p "$T/r/scripts" && cp "$SOURCE_DIR/scripts/claims-docs" "$T/r/scripts/" &&
    cp -r "$SOURCE_DIR/docs" "$T/r/docs"
}
copy
python3 - "$T/r/docs/policies.md" <<'PY'
import re, sys
p = sys.argv[1]; s = open(p).read()
said = re.compile(r"(`fig7a-messages-flat`\s+)\*\*disagrees\*\*")
assert said.search(s), "the prose no longer gives fig7a-messages-flat's default verdict"
open(p, "w").write(said.sub(r"\1**agrees**", s, count=1))
PY
expect_exit "prose says agrees where the CSV says disagrees" 1 "says fig7a-messages-flat agrees under default; the CSV says disagrees" -- \
  "$T/r/scripts/claims-docs" --check
copy
python3 - "$T/r/docs/policies.md" <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
old = "| `fig7a-messages-flat` | disagrees |"
assert old in s, "no claims-readings row for fig7a-messages-flat"
open(p, "w").write(s.replace(old, "| `fig7a-messages-flat` | agrees |", 1))
PY
expect_exit "a claims table edited by hand" 1 "the block of docs/claims/federation.csv is not what" -- "$T/r/scripts/claims-docs" --check
copy
printf '\nThe earnings `fig4z-made-up` **agrees** with the paper.\n' >>"$T/r/docs/policies.md"
expect_exit "an unknown claim" 1 "claim fig4z-made-up under default is in no claims CSV of its section" -- "$T/r/scripts/claims-docs" --check
# Written back: the table is what `schedcheck claims` prints again.
"$T/r/scripts/claims-docs" >/dev/null 2>"$T/err"
grep -q "fig4z-made-up" "$T/err" || fail "claims-docs (write): the unknown claim not reported: $(cat "$T/err")"
finish claims_docs
