#!/usr/bin/env bash
# Every trace in the shared traces folder (../shared/traces beside the source tree, or $SCHEDCHECK_TRACES) through
# fcfs, easy and conservative backfilling in the count model, and on every other trace in the processors model too,
# with every invariant checked on every decision (no violation allowed); the per-job CSV of every count-model run, and
# of the processors-model runs of every sixth trace, audited against its own policy (no violation allowed); and two
# runs of one trace give byte-identical CSVs. Source: our own. Usage: traces.sh SCHEDCHECK SOURCE_DIR
# Exit 77 (skipped) when no traces folder is found.
set -u

SCHEDCHECK=${1:?usage: traces.sh SCHEDCHECK SOURCE_DIR}
SOURCE_DIR=${2:?usage: traces.sh SCHEDCHECK SOURCE_DIR}
. "$(dirname "$0")/common.sh"
find_traces "$SOURCE_DIR"
if [ -z "$TRACES" ] || [ ! -d "$TRACES" ]; then
  echo "SKIPPED: no traces folder (set SCHEDCHECK_TRACES)"
  exit 77
fi

count=0
for trace in "$TRACES"/*.swf "$TRACES"/*.swf.gz; do
  [ -e "$trace" ] || continue
  name=$(basename "$trace")
  extra=()
  # The only trace without a machine size in its header: the SDSC Blue excerpt (1152 processors, README).
  grep -qE '^; *(MaxProcs|MaxNodes):' <(zcat -f "$trace" | head -c 65536) || extra=(--processors 1152)
  count=$((count + 1))
  for policy in fcfs easy conservative; do
    for model in count processors; do
      # The processors model on every other trace (and the count model on all): CI's time.
      [ "$model" = processors ] && [ $((count % 2)) -eq 0 ] && continue
      "$SCHEDCHECK" simulate --trace "$trace" "${extra[@]}" --policy "$policy" --model "$model" --check -q --json \
        --jobs-csv "$T/run.csv" >"$T/out.json" 2>"$T/err"
      rc=$?
      [ "$rc" -eq 0 ] || { fail "$name $policy $model: simulate --check exit $rc: $(head -c 600 "$T/out.json") $(cat "$T/err")"; continue; }
      violations=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["invariants"]["violations_total"])' "$T/out.json")
      [ "$violations" = "0" ] || fail "$name $policy $model: $violations invariant violations"
      # The self-audit: every count-model run, and the processors-model runs of every sixth trace (the audit costs
      # as much as the run; a sixth of them keep the suite within CI's time).
      if [ "$model" = processors ] && [ $((count % 3)) -ne 1 ]; then
        echo "ok: $name $policy $model (checked)"
        continue
      fi
      "$SCHEDCHECK" audit --trace "$trace" "${extra[@]}" --schedule "$T/run.csv" --policy "$policy" --model "$model" \
        --strict >"$T/audit.txt" 2>&1
      rc=$?
      [ "$rc" -eq 0 ] || fail "$name $policy $model: the audit of our own schedule says: $(grep -E 'VIOL|DIFF|verdict|error' "$T/audit.txt" | head -4)"
      echo "ok: $name $policy $model (checked and self-audited)"
    done
  done
done
[ "$count" -gt 0 ] || fail "no .swf or .swf.gz file in $TRACES"

# Determinism: the same run twice, byte-identical per-job CSVs.
first=$(ls "$TRACES"/*.swf | head -n 1)
for policy in easy conservative; do
  "$SCHEDCHECK" simulate --trace "$first" --policy "$policy" -q --jobs-csv "$T/a.csv" >/dev/null 2>&1
  "$SCHEDCHECK" simulate --trace "$first" --policy "$policy" -q --jobs-csv "$T/b.csv" >/dev/null 2>&1
  if cmp -s "$T/a.csv" "$T/b.csv" && [ -s "$T/a.csv" ]; then echo "ok: $policy twice on $(basename "$first"): identical CSV"; else fail "$policy: two runs differ"; fi
done

echo "$count traces"
finish traces
