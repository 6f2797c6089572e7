#!/usr/bin/env bash
# The Python tutorial (docs/python.md) as a user runs it: examples/python/check_my_scheduler.py finds and shrinks
# counterexamples into a fresh corpus, then the pytest regression suite beside it replays them (and the committed
# examples/python/corpus). Our own. Usage: python_examples.sh PYTHON_MODULE_DIR SOURCE_DIR
set -u
MODULE=${1:?usage: python_examples.sh PYTHON_MODULE_DIR SOURCE_DIR}
SRC=${2:?usage: python_examples.sh PYTHON_MODULE_DIR SOURCE_DIR}
. "$(dirname "$0")/common.sh"
export PYTHONPATH="$MODULE:$SRC/examples/python"
/usr/bin/python3 "$SRC/examples/python/check_my_scheduler.py" "$T/corpus" >"$T/out" 2>&1 || fail "check_my_scheduler.py: $(tail -5 "$T/out")"
grep -q "by_density 1300, optimum 1700 (optimal), gap 23.5%" "$T/out" || fail "tutorial step 1 changed: $(head -3 "$T/out")"
[ "$(find "$T/corpus" -name '*.json' | wc -l)" -eq 3 ] || fail "expected 3 corpus files: $(ls "$T/corpus")"
for corpus in "$T/corpus" "$SRC/examples/python/corpus"; do
  MY_CORPUS="$corpus" /usr/bin/python3 -m pytest -q -p no:cacheprovider "$SRC/examples/python/test_my_scheduler.py" >"$T/pytest" 2>&1 ||
    fail "pytest on $corpus: $(tail -15 "$T/pytest")"
  grep -q "4 passed" "$T/pytest" || fail "pytest on $corpus: $(tail -3 "$T/pytest")"
done
# Step 4 (simulate, audit) on KTH-SP2, when the shared traces are there.
KTH=""
find_traces "$SRC"
[ -n "$TRACES" ] && [ -e "$TRACES/KTH-SP2-1996-2.1-cln.swf" ] && KTH=$TRACES/KTH-SP2-1996-2.1-cln.swf
if [ -n "$KTH" ]; then
  /usr/bin/python3 "$SRC/examples/python/analyse_easy.py" "$KTH" >"$T/easy" 2>&1 || fail "analyse_easy.py: $(tail -5 "$T/easy")"
  grep -qF "{'fcfs': 6829.28, 'easy': 92.97, 'conservative': 89.11}" "$T/easy" || fail "step 4 changed: $(head -2 "$T/easy")"
  grep -qF "violations: 0" "$T/easy" || fail "step 4: invariants violated: $(cat "$T/easy")"
  grep -qF "wide: 1820 31660 narrow: 26655 5199" "$T/easy" || fail "step 4 changed: $(sed -n 3p "$T/easy")"
  grep -qF "conservative-guarantee: 354 certain; 6621 differences" "$T/easy" || fail "step 4 changed: $(sed -n 4p "$T/easy")"
else
  echo "no shared traces: step 4 skipped"
fi
finish python_examples
