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
grep -q "gap 17.6%" "$T/out" || fail "tutorial step 1 changed: $(head -3 "$T/out")"
[ "$(find "$T/corpus" -name '*.json' | wc -l)" -eq 3 ] || fail "expected 3 corpus files: $(ls "$T/corpus")"
for corpus in "$T/corpus" "$SRC/examples/python/corpus"; do
  MY_CORPUS="$corpus" /usr/bin/python3 -m pytest -q -p no:cacheprovider "$SRC/examples/python/test_my_scheduler.py" >"$T/pytest" 2>&1 ||
    fail "pytest on $corpus: $(tail -15 "$T/pytest")"
  grep -q "4 passed" "$T/pytest" || fail "pytest on $corpus: $(tail -3 "$T/pytest")"
done
finish python_examples
