#!/usr/bin/env bash
# Parallel and distributed runs give what one process gives: search, search --exhaustive and suite with --jobs 1
# and --jobs 2; search and an experiment sweep split by --shard 1/3 .. 3/3 and put together by `merge`; a sweep cut
# short and resumed (--resume); a missing, repeated or foreign shard refused. Byte for byte, timings aside. Our own
# (docs/cluster.md). Usage: scale_out.sh SCHEDCHECK SOURCE_DIR.
set -u
S=${1:?usage: scale_out.sh SCHEDCHECK SOURCE_DIR}
SOURCE_DIR=${2:?usage: scale_out.sh SCHEDCHECK SOURCE_DIR}
. "$(dirname "$0")/common.sh"

# The lines a search prints with its time and rate taken out, and its own folder's name replaced by DIR.
untimed() { sed -e 's/in [0-9.]* s ([0-9]* checks\/s)/in T/' -e "s|$2|DIR|g" "$1"; }
# Every file of a folder (names and contents), its name replaced by DIR; summary.json without its timings.
folder() {
  (cd "$1" && for f in $(find . -type f ! -name '*.cbor' ! -name summary.json ! -name sweep.json | sort); do
    echo "== $f"; sed "s|$2|DIR|g" "$f"; done)
  [ -f "$1/summary.json" ] && python3 - "$1/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if not any(t in k for t in ("seconds", "command", "jobs", "workers", "files", "rate"))}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
print(json.dumps(strip(d), sort_keys=True))
PY
}
same() {  # NAME A B: the two texts are equal, else a failure with the first differences
  if ! diff "$2" "$3" >"$T/diff"; then fail "$1: differs: $(head -c 600 "$T/diff")"; else echo "ok: $1"; fi
}

# ---------------------------------------------------------------- --jobs 1 and --jobs 2
SEARCH=(search sla-admission --policy greedy-backfilling --trials 400 --size 8 -q)
"$S" "${SEARCH[@]}" --out "$T/j1/c" >"$T/j1.txt"; rc1=$?
"$S" "${SEARCH[@]}" --out "$T/j2/c" --jobs 2 >"$T/j2.txt"; rc2=$?
[ "$rc1" -eq 1 ] && [ "$rc2" -eq 1 ] || fail "search: exit $rc1 and $rc2, expected 1 (failures found)"
untimed "$T/j1.txt" "$T/j1/c" >"$T/a"; untimed "$T/j2.txt" "$T/j2/c" >"$T/b"; same "search --jobs 1 vs 2: output" "$T/a" "$T/b"
folder "$T/j1/c" "$T/j1/c" >"$T/a"; folder "$T/j2/c" "$T/j2/c" >"$T/b"; same "search --jobs 1 vs 2: corpus files" "$T/a" "$T/b"
[ "$(ls "$T/j1/c" | wc -l)" -eq 5 ] || fail "search: expected 5 corpus files, got $(ls "$T/j1/c")"

EXH=(search offer-composition --policy offers-dplb --exhaustive --scope providers=2,offers=2,max=3 -q)
"$S" "${EXH[@]}" --out "$T/e1" >"$T/e1.txt"
"$S" "${EXH[@]}" --out "$T/e2" --jobs 2 >"$T/e2.txt"
grep -q "failing" "$T/e1.txt" || fail "exhaustive: no summary: $(cat "$T/e1.txt")"
untimed "$T/e1.txt" "$T/e1" >"$T/a"; untimed "$T/e2.txt" "$T/e2" >"$T/b"; same "exhaustive --jobs 1 vs 2: output" "$T/a" "$T/b"
folder "$T/e1" "$T/e1" >"$T/a"; folder "$T/e2" "$T/e2" >"$T/b"; same "exhaustive --jobs 1 vs 2: corpus files" "$T/a" "$T/b"

"$S" suite "$SOURCE_DIR/counterexamples/corpus" --csv >"$T/s1.csv"
"$S" suite "$SOURCE_DIR/counterexamples/corpus" --csv --jobs 2 >"$T/s2.csv"
[ "$(wc -l <"$T/s1.csv")" -gt 10 ] || fail "suite: too few rows: $(wc -l <"$T/s1.csv")"
untimed_csv() { python3 -c "import csv,sys; [print([v for k, v in r.items() if 'seconds' not in k]) for r in csv.DictReader(open(sys.argv[1]))]" "$1"; }
untimed_csv "$T/s1.csv" >"$T/a"; untimed_csv "$T/s2.csv" >"$T/b"
same "suite --jobs 1 vs 2: rows" "$T/a" "$T/b"

# ---------------------------------------------------------------- search: --shard I/3 and merge
for i in 1 2 3; do "$S" "${SEARCH[@]}" --out "$T/sh$i" --shard "$i/3" >/dev/null; done
"$S" merge --out "$T/m/c" "$T/sh1" "$T/sh2" "$T/sh3" >"$T/m.txt"; rc=$?
[ "$rc" -eq 1 ] || fail "merge of search shards: exit $rc, expected 1 (the search's)"
untimed "$T/j1.txt" "$T/j1/c" >"$T/a"; untimed "$T/m.txt" "$T/m/c" >"$T/b"; same "search shards merged: output" "$T/a" "$T/b"
folder "$T/j1/c" "$T/j1/c" >"$T/a"; folder "$T/m/c" "$T/m/c" >"$T/b"; same "search shards merged: corpus files" "$T/a" "$T/b"
expect_exit "merge: a missing shard" 2 "shard 2/3 is missing" -- "$S" merge --out "$T/m2" "$T/sh1" "$T/sh3"
expect_exit "merge: a shard twice" 2 "given twice" -- "$S" merge --out "$T/m3" "$T/sh1" "$T/sh1" "$T/sh2"
"$S" search sla-admission --policy greedy-backfilling --trials 400 --size 8 -q --seed 2 --out "$T/other" --shard 2/3 >/dev/null
expect_exit "merge: a shard of another search" 2 "another search" -- "$S" merge --out "$T/m4" "$T/sh1" "$T/other" "$T/sh3"
expect_exit "merge: not a shard" 2 "expected a shard's --out folder" -- "$S" merge --out "$T/m5" "$T/j1"
expect_exit "--shard 4/3" 2 "--shard" -- "$S" "${SEARCH[@]}" --out "$T/bad" --shard 4/3

# ---------------------------------------------------------------- search --exhaustive: --shard I/2 and merge
for i in 1 2; do "$S" "${EXH[@]}" --out "$T/es$i" --shard "$i/2" >/dev/null; done
"$S" merge --out "$T/em" "$T/es1" "$T/es2" >"$T/em.txt"
untimed "$T/e1.txt" "$T/e1" >"$T/a"; untimed "$T/em.txt" "$T/em" >"$T/b"; same "exhaustive shards merged: output" "$T/a" "$T/b"
folder "$T/e1" "$T/e1" >"$T/a"; folder "$T/em" "$T/em" >"$T/b"; same "exhaustive shards merged: corpus files" "$T/a" "$T/b"

# ---------------------------------------------------------------- suite: --shard I/3 and merge
for i in 1 2 3; do
  "$S" suite "$SOURCE_DIR/counterexamples/corpus" --csv --shard "$i/3" --out "$T/ss$i" >"$T/ss$i.csv" || [ $? -eq 1 ] ||
    fail "suite shard $i/3: exit $?"
done
"$S" merge --out "$T/sm" "$T/ss1" "$T/ss2" "$T/ss3" --csv >"$T/sm.csv"; rc=$?
[ "$rc" -eq 1 ] || fail "merge of suite shards: exit $rc, expected 1 (the suite's: its corpus fails by design)"
untimed_csv "$T/s1.csv" >"$T/a"; untimed_csv "$T/sm.csv" >"$T/b"; same "suite shards merged: rows" "$T/a" "$T/b"
untimed_csv "$T/sm/rows.csv" >"$T/b"; same "suite shards merged: rows.csv" "$T/a" "$T/b"
expect_exit "merge: a missing suite shard" 2 "shard 2/3 is missing" -- "$S" merge --out "$T/sm2" "$T/ss1" "$T/ss3"
"$S" suite "$SOURCE_DIR/counterexamples/corpus" --csv --shard 2/3 --out "$T/ss-other" --tolerance 0.5 >/dev/null
expect_exit "merge: a shard of another suite" 2 "another suite" -- "$S" merge --out "$T/sm3" "$T/ss1" "$T/ss-other" "$T/ss3"
expect_exit "suite --shard without --out" 2 "expected --out" -- "$S" suite "$SOURCE_DIR/counterexamples/corpus" --shard 1/3

# ---------------------------------------------------------------- an experiment sweep: shards, merge, resume
EXP=(experiment backfilling --trace "$SOURCE_DIR/examples/small-cluster.swf" --seeds 2 -q)
"$S" "${EXP[@]}" --out "$T/x1" >/dev/null || fail "experiment: exit $?"
points=$(ls "$T/x1/points" | grep -c cbor)
[ "$points" -ge 4 ] || fail "experiment: expected its points in points/, got $points"
for i in 1 2 3; do
  "$S" "${EXP[@]}" --out "$T/xs$i" --shard "$i/3" >"$T/xs$i.txt" || fail "experiment shard $i/3: exit $?"
done
grep -q "shard 2/3" "$T/xs2.txt" || fail "experiment shard: no shard line: $(cat "$T/xs2.txt")"
[ -e "$T/xs1/runs.csv" ] && fail "an experiment shard wrote the sweep's results"
"$S" merge --out "$T/xm" "$T/xs1" "$T/xs2" "$T/xs3" >"$T/xm.txt" || fail "merge of experiment shards: exit $? ($(cat "$T/xm.txt"))"
folder "$T/x1" "$T/x1" >"$T/a"; folder "$T/xm" "$T/xm" >"$T/b"; same "experiment shards merged: every file" "$T/a" "$T/b"
expect_exit "merge: a missing experiment shard" 2 "shard 3/3 is missing" -- "$S" merge --out "$T/xm2" "$T/xs1" "$T/xs2"
# A sweep cut short: two points' files gone; --resume runs those two only and writes what the whole sweep wrote.
rm "$T/x1/points/point-000000.cbor" "$T/x1/points/point-000003.cbor"
"$S" experiment backfilling --trace "$SOURCE_DIR/examples/small-cluster.swf" --seeds 2 --out "$T/x1" --resume \
  2>"$T/resume.err" >/dev/null || fail "--resume: exit $?"
grep -q "$((points - 2)) points kept" "$T/resume.err" || fail "--resume: did not say it kept $((points - 2)) points: $(cat "$T/resume.err")"
folder "$T/x1" "$T/x1" >"$T/b"; folder "$T/xm" "$T/xm" >"$T/a"; same "a resumed sweep: every file" "$T/a" "$T/b"
expect_exit "--resume: another sweep's points" 2 "another sweep" -- \
  "$S" experiment backfilling --trace "$SOURCE_DIR/examples/small-cluster.swf" --seeds 3 -q --out "$T/x1" --resume

# ---------------------------------------------------------------- SIGINT to a search and a sweep on 2 threads
set -m
SCHEDCHECK=$S
interrupt search-j2 2 INT -- search sla-admission --policy greedy-backfilling --trials 10000000 -q --jobs 2 --out "$T/int"
[ "$RC" -eq 130 ] || fail "SIGINT to search --jobs 2: exit $RC, expected 130 ($(head -c 300 "$T/search-j2.err"))"
[ "$ELAPSED_MS" -lt 1500 ] || fail "SIGINT to search --jobs 2: took $ELAPSED_MS ms to stop"
grep -q "interrupted (interrupted by SIGINT) after [0-9]* checked" "$T/search-j2.out" ||
  fail "SIGINT to search --jobs 2: no interrupted summary: $(head -c 300 "$T/search-j2.out")"
[ "$(ls "$T/int" | wc -l)" -eq 5 ] || fail "SIGINT to search --jobs 2: expected its 5 corpus files, got $(ls "$T/int")"
echo "ok: SIGINT to search --jobs 2 (${ELAPSED_MS} ms)"
# The signal once the first point is kept (however fast this machine is), then the sweep's exit. The auction's
# default sweep needs no shared trace.
"$S" experiment auction -q --jobs 2 --out "$T/int-x" >"$T/sweep-j2.out" 2>"$T/sweep-j2.err" &
pid=$!
for _ in $(seq 600); do ls "$T/int-x/points" 2>/dev/null | grep -q cbor && break; sleep 0.1; done
kill -INT "$pid"
wait "$pid"
RC=$?
[ "$RC" -eq 130 ] || fail "SIGINT to experiment --jobs 2: exit $RC, expected 130 ($(head -c 300 "$T/sweep-j2.err"))"
kept=$(ls "$T/int-x/points" | grep -c cbor)
total=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['points']))" "$T/int-x/points/sweep.json")
[ "$kept" -ge 1 ] && [ "$kept" -lt "$total" ] || fail "SIGINT to experiment --jobs 2: $kept points kept, expected some of $total"
grep -q "$kept of $total points finished" "$T/sweep-j2.err" ||
  fail "SIGINT to experiment --jobs 2: stderr does not say $kept of $total: $(cat "$T/sweep-j2.err")"
"$S" experiment auction -q --jobs 2 --out "$T/int-x" --resume >/dev/null 2>"$T/resume2.err" || [ $? -eq 1 ] ||
  fail "--resume after SIGINT: exit $? ($(cat "$T/resume2.err"))"
[ "$(ls "$T/int-x/points" | grep -c cbor)" -eq "$total" ] || fail "--resume after SIGINT: not every point is there"
echo "ok: SIGINT to experiment --jobs 2 kept $kept of $total points; --resume ran the rest"

finish scale_out
