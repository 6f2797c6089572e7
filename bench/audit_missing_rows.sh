#!/usr/bin/env bash
# `audit` of a schedule with rows missing: wall time, peak memory and violations counted, for our own EASY schedule of
# a trace whole, with its first job's row removed, and as its header only. Our own (a missing row must not make the
# audit count every later start against the missing job). Usage: bench/audit_missing_rows.sh SCHEDCHECK [TRACE]
# (default: KTH-SP2 in the shared traces). Prints one CSV row per case: case,rows,exit,wall_s,peak_mib,violations.
set -uo pipefail
BIN=${1:?usage: audit_missing_rows.sh SCHEDCHECK [TRACE]}
TRACE=${2:-$(cd "$(dirname "$0")/../.." && pwd)/shared/traces/KTH-SP2-1996-2.1-cln.swf}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
"$BIN" simulate --trace "$TRACE" --policy easy -q --jobs-csv "$DIR/full.csv" >/dev/null || exit 1
sed '2d' "$DIR/full.csv" >"$DIR/one-missing.csv"
head -n 1 "$DIR/full.csv" >"$DIR/header-only.csv"
echo "case,rows,exit,wall_s,peak_mib,violations"
for case in full one-missing header-only; do
  start=$(date +%s%N)
  /usr/bin/time -f %M -o "$DIR/rss" timeout -s KILL 900 "$BIN" audit --trace "$TRACE" --schedule "$DIR/$case.csv" \
    --policy easy --json >"$DIR/out.json" 2>/dev/null
  rc=$?
  wall=$(( ($(date +%s%N) - start) / 1000000 ))
  violations=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["violations_total"])' "$DIR/out.json" \
    2>/dev/null)
  rss=$(tail -1 "$DIR/rss" | tr -dc 0-9)
  echo "$case,$(($(wc -l <"$DIR/$case.csv") - 1)),$rc,$(printf %d.%03d $((wall / 1000)) $((wall % 1000))),$((${rss:-0} / 1024)),${violations:--}"
done
