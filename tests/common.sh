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

# finish WHAT: "WHAT: all checks passed" and exit 0, or the failure count and exit 1.
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$1: $failures failure(s)"
    exit 1
  fi
  echo "$1: all checks passed"
  exit 0
}
