#!/usr/bin/env bash
# Seed corpora of the fuzz targets, written under OUT/TARGET/ in each target's input format (docs/fuzzing.md):
# instance-PROBLEM: examples/*.json, the problem's corpus files and generated instances (several seeds and sizes);
# swf: examples and corpus traces and the head of each shared trace (first byte: read options); jobs-csv: per-job
# CSVs of simulated runs (first byte: submit column required); corpus: every corpus file (first byte: .json or .swf).
# Our own. Usage: fuzz/seeds.sh OUT SCHEDCHECK [SOURCE_DIR]
set -euo pipefail
out=${1:?usage: seeds.sh OUT SCHEDCHECK [SOURCE_DIR]}
schedcheck=${2:?usage: seeds.sh OUT SCHEDCHECK [SOURCE_DIR]}
src=${3:-$(cd "$(dirname "$0")/.." && pwd)}
traces=${SCHEDCHECK_TRACES:-$src/../shared/traces}

# prefixed BYTE FILE DEST: DEST holds the byte (octal escape) then FILE's content.
prefixed() { { printf "$1"; cat "$2"; } >"$3"; }

problems=$("$schedcheck" list --json | python3 -c 'import json,sys; print(" ".join(p["problem"] for p in json.load(sys.stdin)))')
for problem in $problems; do
  d="$out/instance-$problem"
  mkdir -p "$d"
  cp "$src"/examples/*.json "$d/"
  { grep -l "\"problem\": \"$problem\"" "$src"/counterexamples/corpus/*.json || true; } | xargs -r cp -t "$d/"
  for size in 1 3 6 10; do
    for seed in 1 2 3; do "$schedcheck" generate "$problem" --seed "$seed" --size "$size" >"$d/gen-$size-$seed.json"; done
  done
done

mkdir -p "$out/swf" "$out/jobs-csv" "$out/corpus"
n=0
for f in "$src"/examples/*.swf "$src"/counterexamples/corpus/*.swf; do
  n=$((n + 1))
  prefixed '\000' "$f" "$out/swf/trace-$n-default"
  prefixed '\011' "$f" "$out/swf/trace-$n-lenient-p8"
done
for f in "$traces"/*.swf; do
  [ -e "$f" ] || continue
  n=$((n + 1))
  head -n 60 "$f" >"$out/swf.tmp"
  prefixed '\000' "$out/swf.tmp" "$out/swf/trace-$n-head"
  prefixed '\006' "$out/swf.tmp" "$out/swf/trace-$n-runtime-requested"
done
rm -f "$out/swf.tmp"

for policy in fcfs easy conservative; do
  "$schedcheck" simulate --trace "$src/examples/small-cluster.swf" --policy "$policy" -q --jobs-csv "$out/jobs.tmp" >/dev/null
  prefixed '\001' "$out/jobs.tmp" "$out/jobs-csv/small-cluster-$policy"
done
rm -f "$out/jobs.tmp"

for f in "$src"/counterexamples/corpus/*.json; do prefixed '\000' "$f" "$out/corpus/$(basename "$f")"; done
for f in "$src"/counterexamples/corpus/*.swf; do prefixed '\001' "$f" "$out/corpus/$(basename "$f")"; done
