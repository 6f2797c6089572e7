#!/usr/bin/env bash
# Reading a long answer line from a --policy-cmd policy (docs/protocol.md): `check sla-admission` on
# examples/sla-greedy-vs-optimum.json with a Python policy whose answer is `{"accepted": []`, spaces up to SIZE MiB and
# `}` (the reader takes lines up to 256 MiB). Target: time linear in the line's length. Our own. Usage:
#   bench/long_answer.sh SCHEDCHECK [RUNS [SIZES_MIB]]   (defaults: 3 runs, sizes 64,250; bench/paired.sh's table a size)
set -euo pipefail
S=${1:?usage: long_answer.sh SCHEDCHECK [RUNS [SIZES_MIB]]}
RUNS=${2:-3}
SIZES=${3:-64,250}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cat >"$TMP/long.py" <<'PY'
import sys
size = int(sys.argv[1]) << 20
head = '{"accepted": []'
for line in sys.stdin:
    sys.stdout.write(head + " " * (size - len(head) - 2) + "}\n")
    sys.stdout.flush()
PY
for mib in ${SIZES//,/ }; do
  echo "answer of $mib MiB:"
  "$ROOT/bench/paired.sh" --runs "$RUNS" "$S" check sla-admission --policy-cmd "python3 $TMP/long.py $mib" \
    -i "$ROOT/examples/sla-greedy-vs-optimum.json"
done
