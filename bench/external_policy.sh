#!/usr/bin/env bash
# What a policy outside C++ costs per decision (docs/protocol.md): `search sla-admission` at n = 10 with a trivial policy
# (accept nothing) four ways: registered in process through the C++ API (the baseline), as a --policy-cmd process in
# C++ (bench/trivial_policy.cpp) and in Python, and as a callable of the Python module. Each line: checks/s and
# microseconds per check; a path's overhead per decision is its time per check minus the baseline's (same decisions,
# same instances, same exact solves). Our own. Usage: external_policy.sh BUILD_DIR [TRIALS]
set -euo pipefail
B=${1:?usage: external_policy.sh BUILD_DIR [TRIALS]}
cmake --build "$B" --target schedcheck_bench_in_process schedcheck_bench_trivial_policy >&2  # not in the default build
N=${2:-20000}
S="$B/cli/schedcheck"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf 'import sys\nfor line in sys.stdin:\n    sys.stdout.write("{\\"accepted\\": []}\\n")\n    sys.stdout.flush()\n' >"$T/trivial.py"
rate() { python3 -c "import json,sys; d=json.load(sys.stdin); print('%.0f checks/s, %.2f us/check' % (d['checks_per_second'], 1e6 / d['checks_per_second']))"; }
common=(--trials "$N" --size 10 --seed 1 --max-counterexamples 0 --out "$T/cx" -q --json)
echo "in process (C++ API):          $("$B/bench/schedcheck_bench_in_process" "$N" | rate)"
echo "--policy-cmd C++ trivial:      $("$S" search sla-admission --policy-cmd "$B/bench/schedcheck_bench_trivial_policy" "${common[@]}" | rate)"
echo "--policy-cmd Python trivial:   $("$S" search sla-admission --policy-cmd "python3 $T/trivial.py" "${common[@]}" | rate)"
if [ -d "$B/python" ]; then
  echo "Python module, trivial lambda: $(PYTHONPATH="$B/python" /usr/bin/python3 -c "
import json, schedcheck
s = schedcheck.search('sla-admission', lambda instance: {'accepted': []}, trials=$N, size=10, seed=1, max_counterexamples=0)
print(json.dumps(s))" | rate)"
fi
