#!/usr/bin/env bash
# Scale of the cluster policies: conservative against EASY backfilling (count model) on every shared trace and on the
# synthetic grid trace (schedcheck generate-trace: 200,000 serial jobs at 95% offered load on 1,200 processors), and
# the `processors` model against `count` at 5,000 processors (EASY). Our own. Usage:
#   bench/policy_scale.sh SCHEDCHECK [TRACES_DIR]   (default: ../shared/traces)
# GENERATOR=OTHER_SCHEDCHECK makes the synthetic trace with another build (one without generate-trace can be timed).
# One CSV row a case: trace,case,a,b,a_s,b_s,ratio,a_sim_s,b_sim_s,sim_ratio,a_peak_mib,b_peak_mib: whole-process wall
# seconds (reading the trace included), then the simulation's own (simulate --json: wall_seconds), one run each;
# `a` is the slower side in principle. A run over 900 s is killed and shows as "killed"; one that fails, as "exit N".
set -uo pipefail
BIN=${1:?usage: policy_scale.sh SCHEDCHECK [TRACES_DIR]}
TRACES=${2:-$(cd "$(dirname "$0")/../.." && pwd)/shared/traces}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
"${GENERATOR:-$BIN}" generate-trace --seed 1 --jobs 200000 --processors 1200 --load 0.95 --out "$DIR/grid-200k.swf" || exit 1

# run TRACE ARGS...: prints "seconds simulation_seconds peak_mib" of one simulate run (or "killed -", "exit-N -": a trace without a
# machine size in its header exits 2).
run() {
  local trace=$1
  shift
  local start rc wall rss
  start=$(date +%s%N)
  /usr/bin/time -f %M -o "$DIR/rss" timeout -s KILL 900 "$BIN" simulate --trace "$trace" -q --json "$@" \
    >"$DIR/out.json" 2>/dev/null
  rc=$?
  wall=$(( ($(date +%s%N) - start) / 1000000 ))
  rss=$(tail -1 "$DIR/rss" | tr -dc 0-9)
  if [ "$rc" -eq 137 ]; then echo "killed - -"; return; fi
  if [ "$rc" -ne 0 ]; then echo "exit-$rc - -"; return; fi
  sim=$(python3 -c 'import json, sys; print("%.3f" % json.load(open(sys.argv[1]))["wall_seconds"])' "$DIR/out.json")
  echo "$(printf %d.%03d $((wall / 1000)) $((wall % 1000))) $sim $((${rss:-0} / 1024))"
}
ratio() { python3 -c 'import sys; a, b = sys.argv[1:]; print("-" if not a[0].isdigit() or not b[0].isdigit() else f"{float(a) / max(float(b), 1e-3):.2f}")' "$1" "$2"; }

echo "trace,case,a,b,a_s,b_s,ratio,a_sim_s,b_sim_s,sim_ratio,a_peak_mib,b_peak_mib"
for trace in "$TRACES"/*.swf "$TRACES"/*.swf.gz "$DIR/grid-200k.swf"; do
  name=$(basename "$trace")
  read -r cs cw cm < <(run "$trace" --policy conservative)
  read -r es ew em < <(run "$trace" --policy easy)
  echo "$name,policy,conservative,easy,$cs,$es,$(ratio "$cs" "$es"),$cw,$ew,$(ratio "$cw" "$ew"),$cm,$em"
  [ "$trace" = "$DIR/grid-200k.swf" ] && continue
  read -r ps pw pm < <(run "$trace" --policy easy --processors 5000 --model processors)
  read -r ns nw nm < <(run "$trace" --policy easy --processors 5000 --model count)
  echo "$name,model at 5000 processors,processors,count,$ps,$ns,$(ratio "$ps" "$ns"),$pw,$nw,$(ratio "$pw" "$nw"),$pm,$nm"
done
