# One timing of whole processes for the benchmark scripts (sourced, not run): bench/simulation.sh and
# bench/experiments.sh. Our own. The script sets RUNS (runs a command) and TMP (a scratch folder it removes).
#
# measure [--max-exit N] [--target SECONDS] LABEL CMD...: CMD once as a warm-up (which also fills the page cache),
# then RUNS times under /usr/bin/time. Prints "| LABEL | median wall s | min | max | peak MiB |", with a target
# also "< SECONDS s | met |" or "missed". With --max-exit, a run that exits above N stops the script with the last
# lines of its stderr: a refusal or a crash is no figure. Without it, every run is timed, whatever its exit.
measure() {
  local max_exit= target=-
  while :; do
    case $1 in
      --max-exit) max_exit=$2; shift 2 ;;
      --target) target=$2; shift 2 ;;
      *) break ;;
    esac
  done
  local label=$1
  shift
  "$@" >/dev/null 2>&1 || true
  : >"$TMP/times"
  for _ in $(seq "$RUNS"); do
    local rc=0
    /usr/bin/time -f "%e %M" -o "$TMP/one" "$@" >/dev/null 2>"$TMP/err" || rc=$?
    if [ -n "$max_exit" ] && [ "$rc" -gt "$max_exit" ]; then
      echo "$label: exit $rc: $(tail -2 "$TMP/err")" >&2
      exit 1
    fi
    cat "$TMP/one" >>"$TMP/times"
  done
  python3 - "$label" "$target" "$TMP/times" <<'EOF'
import statistics, sys
label, target, path = sys.argv[1], sys.argv[2], sys.argv[3]
# /usr/bin/time writes "Command exited with non-zero status N" before the figures of such a run.
rows = [line.split() for line in open(path) if line.strip() and line.split()[0][0].isdigit()]
wall = sorted(float(r[0]) for r in rows)
peak = max(int(r[1]) for r in rows) / 1024
median = statistics.median(wall)
row = f"| {label} | {median:.3f} | {wall[0]:.3f} | {wall[-1]:.3f} | {peak:.1f} |"
if target != "-":
    row += f" < {target} s | {'met' if median < float(target) else 'missed'} |"
print(row)
EOF
}
