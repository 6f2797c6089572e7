#!/usr/bin/env bash
# The fuzz targets (fuzz/) without libFuzzer: each target's seed corpus (fuzz/seeds.sh) and every input a fuzzer
# once found (fuzz/regressions/TARGET/) replayed through the same round-trip properties, in the regular build.
# Source: our own (docs/fuzzing.md). Usage: fuzz_replay.sh SCHEDCHECK FUZZ_BIN_DIR SOURCE_DIR
set -u
SCHEDCHECK=${1:?usage: fuzz_replay.sh SCHEDCHECK FUZZ_BIN_DIR SOURCE_DIR}
BIN=${2:?usage: fuzz_replay.sh SCHEDCHECK FUZZ_BIN_DIR SOURCE_DIR}
SOURCE_DIR=${3:?usage: fuzz_replay.sh SCHEDCHECK FUZZ_BIN_DIR SOURCE_DIR}
. "$(dirname "$0")/common.sh"

"$SOURCE_DIR/fuzz/seeds.sh" "$T/seeds" "$SCHEDCHECK" "$SOURCE_DIR" || fail "fuzz/seeds.sh failed"
count=0
for seeds in "$T"/seeds/*/; do
  target=$(basename "$seeds")
  inputs=("$seeds")
  [ -d "$SOURCE_DIR/fuzz/regressions/$target" ] && inputs+=("$SOURCE_DIR/fuzz/regressions/$target")
  case "$target" in
    instance-*) out=$(SCHEDCHECK_FUZZ_PROBLEM=${target#instance-} "$BIN/schedcheck_fuzz_instance" "${inputs[@]}" 2>&1) ;;
    jobs-csv) out=$("$BIN/schedcheck_fuzz_jobs_csv" "${inputs[@]}" 2>&1) ;;
    *) out=$("$BIN/schedcheck_fuzz_$target" "${inputs[@]}" 2>&1) ;;
  esac
  rc=$?
  count=$((count + 1))
  if [ "$rc" -eq 0 ]; then echo "ok: $target: $out"; else fail "$target (exit $rc): $(echo "$out" | head -c 2000)"; fi
done
[ "$count" -ge 4 ] || fail "only $count targets had seeds"
# Every regressions folder belongs to a target that ran.
for d in "$SOURCE_DIR"/fuzz/regressions/*/; do
  [ -d "$d" ] || continue
  [ -d "$T/seeds/$(basename "$d")" ] || fail "fuzz/regressions/$(basename "$d") names no fuzz target"
done
finish fuzz_replay
