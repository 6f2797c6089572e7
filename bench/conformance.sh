#!/usr/bin/env bash
# The cost of `schedcheck conformance run` (docs/conformance.md): the whole suite with schedcheck's own simulate and
# with the Python example scheduler as the command, and `conformance export`; whole processes timed by
# bench/measure.sh (median of RUNS after a warm-up). Most of the time is the commands' own start-up. Our own.
# Usage: bench/conformance.sh [SCHEDCHECK] [RUNS]   (defaults: build/cli/schedcheck, 5).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$here/build/cli/schedcheck}
RUNS=${2:-5}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/measure.sh"
cases=$("$BIN" conformance list --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
echo "| what | median wall s | min | max | peak MiB | target | |"
echo "|---|---|---|---|---|---|---|"
measure --max-exit 0 --target 60 "conformance run, $cases cases, schedcheck simulate as the command" \
  "$BIN" conformance run -q --cmd "$BIN simulate --trace {trace} --policy {policy} --pivots {pivots} {options} --jobs-csv {out} -q"
measure --max-exit 0 --target 60 "conformance run of the native cases, examples/conformance/easy_scheduler.py" \
  "$BIN" conformance run -q --policy fcfs --policy easy --skip pyss --skip gridsim --skip batsim \
  --skip pass-per-event --skip two-pivots \
  --cmd "python3 $here/examples/conformance/easy_scheduler.py --trace {trace} --policy {policy} --pivots {pivots} --out {out} {options}"
measure --max-exit 0 "conformance export, $cases cases" sh -c "rm -rf '$TMP/x' && '$BIN' conformance export '$TMP/x'"
