# Shared preamble of the shell tests (sourced, not run): a temporary directory $T removed on exit, a failure
# counter with `fail`, `now_ms`, and `finish NAME` for the last line and the exit status. Our own.
# Usage: . "$(dirname "$0")/common.sh" after the script's own argument checks.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# expect_exit NAME CODE SUBSTRING -- COMMAND...: the command exits CODE with one stderr line holding SUBSTRING and
# nothing on stdout (the bad-input contract); each difference is a failure naming NAME.
expect_exit() {
  local name=$1 code=$2 want=$3
  shift 4
  "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" -eq "$code" ] || fail "$name: exit $rc, expected $code (stderr: $(cat "$T/err"))"
  [ "$(wc -l <"$T/err")" -eq 1 ] || fail "$name: expected one stderr line: $(cat "$T/err")"
  grep -qF -- "$want" "$T/err" || fail "$name: stderr does not contain '$want': $(cat "$T/err")"
  [ -s "$T/out" ] && fail "$name: stdout not empty: $(head -c 300 "$T/out")"
}

# interrupt NAME DELAY SIGNALS -- ARGS...: starts `schedcheck ARGS` (stdout $T/NAME.out, stderr $T/NAME.err), sends
# each of SIGNALS (comma-separated, e.g. INT or INT,INT; $SIGNAL_GAP seconds apart, default 0.05) after DELAY seconds,
# waits; sets RC and ELAPSED_MS (from the first signal to the exit). The caller sets SCHEDCHECK and `set -m` (job
# control: the child gets the default SIGINT disposition, as in a terminal).
interrupt() {
  local name=$1 delay=$2 signals=$3
  shift 4
  "$SCHEDCHECK" "$@" >"$T/$name.out" 2>"$T/$name.err" &
  local pid=$!
  sleep "$delay"
  if ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid"
    fail "$name: finished before the signal (exit $?): $(head -c 300 "$T/$name.err")"
    RC=-1 ELAPSED_MS=0
    return
  fi
  local start signal
  start=$(now_ms)
  for signal in ${signals//,/ }; do kill -s "$signal" "$pid" 2>/dev/null; sleep "${SIGNAL_GAP:-0.05}"; done
  wait "$pid"
  RC=$?
  ELAPSED_MS=$(($(now_ms) - start))
}

# find_traces SOURCE_DIR: sets TRACES to the shared traces folder ($SCHEDCHECK_TRACES or the folder shared/traces beside
# the source tree, SOURCE_DIR/../shared/traces, the first that exists), or leaves it empty.
find_traces() {
  local candidate given=${SCHEDCHECK_TRACES:-}
  TRACES=
  for candidate in "$given" "$1/../shared/traces"; do
    if [ -n "$candidate" ] && [ -d "$candidate" ]; then TRACES=$candidate; return; fi
  done
}

# finish WHAT: "WHAT: all checks passed" and exit 0, or the failure count and exit 1.
# with_traces SCENARIO TRACES OUT: SCENARIO with every workload's trace taken from the folder TRACES (same file name).
with_traces() {
  python3 - "$1" "$2" "$3" <<'PYEOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
for w in d["workloads"]:
    w["trace"] = os.path.join(sys.argv[2], os.path.basename(w["trace"]))
json.dump(d, open(sys.argv[3], "w"))
PYEOF
}

finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$1: $failures failure(s)"
    exit 1
  fi
  echo "$1: all checks passed"
  exit 0
}
