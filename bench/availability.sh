#!/usr/bin/env bash
# The cost of `schedcheck experiment availability` (paper 002 sec. 5): the --quick form (median of RUNS), one round
# (--seeds 1 --jobs 1: 21 points, 26 four-month runs of five providers with the base runs Fig. 3's deadlines need,
# each checked), and the whole sweep (every figure, the scenario's 5 rounds) with --jobs 2. Wall time of the whole
# command (summary.json's wall_seconds is the sweep's alone). Our own.
# Usage: bench/availability.sh [SCHEDCHECK] [RUNS]   (defaults: build/cli/schedcheck, 3).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$here/build/cli/schedcheck}
RUNS=${2:-3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
seconds() {  # COMMAND...: the wall time of one run, seconds
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
  end=$(date +%s.%N)
  python3 -c "print(round($end - $start, 2))"
}
quick=$(for _ in $(seq "$RUNS"); do seconds "$BIN" experiment availability --quick --out "$T/q" -q; done | sort -g |
  awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
one=$(seconds "$BIN" experiment availability --seeds 1 --jobs 1 --out "$T/one" -q)
all=$(seconds "$BIN" experiment availability --jobs 2 --out "$T/all" -q)
echo "--quick (median of $RUNS): $quick s"
echo "one round, --jobs 1 (26 four-month runs): $one s, $(python3 -c "print(round($one / 26, 2))") s a run"
echo "whole sweep, 5 rounds, --jobs 2: $all s"
