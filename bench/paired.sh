#!/usr/bin/env bash
# Two commands timed as whole processes in turn (A B A B ...), so that the machine's drift reaches both alike: WARMUP
# runs of each (not counted), then RUNS pairs; min / median / max wall s, median CPU s (user + system), peak memory and
# exit codes of each, and the median (min-max) of the pairs' wall ratios A/B; without `--vs`, A alone. Our own. Usage:
#   bench/paired.sh [--runs N] [--warmup N] A_COMMAND... [--vs B_COMMAND...]   (defaults: 5 runs, 1 warm-up)
set -euo pipefail
RUNS=5
WARMUP=1
while :; do
  case ${1:-} in
    --runs) RUNS=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    *) break ;;
  esac
done
A=()
B=()
while [ $# -gt 0 ] && [ "$1" != --vs ]; do A+=("$1"); shift; done
[ $# -gt 0 ] && shift && B=("$@")
[ ${#A[@]} -gt 0 ] || { echo "usage: paired.sh [--runs N] [--warmup N] A_COMMAND... [--vs B_COMMAND...]" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# once SIDE CMD...: one run, its "wall_seconds peak_kib user_seconds system_seconds exit" appended to $TMP/SIDE.
once() {
  local side=$1 start rc=0
  shift
  start=$(date +%s%N)
  /usr/bin/time -f "%M %U %S" -o "$TMP/rss" "$@" >/dev/null 2>&1 || rc=$?
  local ns=$(($(date +%s%N) - start))
  local kib user sys
  read -r kib user sys < <(tail -1 "$TMP/rss")
  echo "$((ns / 1000000000)).$(printf %09d $((ns % 1000000000))) $kib $user $sys $rc" >>"$TMP/$side"
}

for _ in $(seq "$WARMUP"); do
  "${A[@]}" >/dev/null 2>&1 || true
  [ ${#B[@]} -eq 0 ] || "${B[@]}" >/dev/null 2>&1 || true
done
: >"$TMP/a"
: >"$TMP/b"
for _ in $(seq "$RUNS"); do
  once a "${A[@]}"
  [ ${#B[@]} -eq 0 ] || once b "${B[@]}"
done

echo "A: ${A[*]}"
[ ${#B[@]} -eq 0 ] || echo "B: ${B[*]}"
python3 - "$TMP/a" "$TMP/b" <<'EOF'
import statistics, sys
def runs(path):
    return [(float(w), int(k), float(u) + float(s), int(rc))
            for w, k, u, s, rc in (line.split() for line in open(path) if line.strip())]
print("| side | runs | median wall s | min | max | median CPU s | peak MiB | exit |")
print("|---|---:|---:|---:|---:|---:|---:|---|")
sides = [(name, runs(path)) for name, path in zip("AB", sys.argv[1:]) if open(path).read().strip()]
for name, rows in sides:
    wall = sorted(r[0] for r in rows)
    exits = ",".join(str(rc) for rc in sorted({r[3] for r in rows}))
    print(f"| {name} | {len(rows)} | {statistics.median(wall):.3f} | {wall[0]:.3f} | {wall[-1]:.3f} | "
          f"{statistics.median(r[2] for r in rows):.2f} | {max(r[1] for r in rows) / 1024:.1f} | {exits} |")
if len(sides) == 2:
    ratios = sorted(a[0] / max(b[0], 1e-9) for a, b in zip(sides[0][1], sides[1][1]))
    print(f"A/B, median of {len(ratios)} pairs: {statistics.median(ratios):.3f} ({ratios[0]:.3f}-{ratios[-1]:.3f})")
EOF
