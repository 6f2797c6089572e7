#!/usr/bin/env bash
# Instructions executed by two builds on the same arguments (valgrind --tool=callgrind: deterministic, so that a
# loaded machine does not move the comparison, unlike wall time): each count and their ratio NEW/BASE. Our own.
# Usage: bench/instructions.sh BASE NEW ARGS...   (e.g. BASE NEW simulate --trace KTH.swf --policy easy -q)
# Exit 1 when a run fails (its exit status other than 0 or 1: 1 is a verdict).
set -uo pipefail
BASE=${1:?usage: instructions.sh BASE NEW ARGS...}
NEW=${2:?usage: instructions.sh BASE NEW ARGS...}
shift 2
[ $# -gt 0 ] || { echo "usage: instructions.sh BASE NEW ARGS..." >&2; exit 2; }
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
count() {  # BINARY: the instructions of one run
  valgrind --tool=callgrind --callgrind-out-file="$TMP/out" "$1" "${@:2}" >/dev/null 2>"$TMP/err"
  local rc=$?
  if [ "$rc" -gt 1 ]; then echo "instructions.sh: $1 exited $rc: $(tail -2 "$TMP/err")" >&2; return 1; fi
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$TMP/err" | tail -1
}
b=$(count "$BASE" "$@") || exit 1
n=$(count "$NEW" "$@") || exit 1
python3 -c "import sys; b, n = int(sys.argv[1]), int(sys.argv[2]); print(f'base {b:,}  new {n:,}  new/base {n / b:.4f}')" "$b" "$n"
