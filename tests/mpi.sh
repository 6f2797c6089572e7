#!/usr/bin/env bash
# Under mpirun the ranks split the work and rank 0 prints and writes what one process does: a search, an exhaustive
# scope, a suite and an experiment sweep compared byte for byte (timings aside) with one process; a rank that fails
# fails the run with its message and prints no result; a rank that is not schedcheck at all ends the job; SIGTERM to
# the ranks (as a batch system sends it) keeps what rank 0 has; --shard is refused under mpirun. Our own
# (docs/cluster.md). Usage: mpi.sh SCHEDCHECK SOURCE_DIR MPIEXEC.
set -u
S=${1:?usage: mpi.sh SCHEDCHECK SOURCE_DIR MPIEXEC}
SOURCE_DIR=${2:?usage: mpi.sh SCHEDCHECK SOURCE_DIR MPIEXEC}
MPIEXEC=${3:?usage: mpi.sh SCHEDCHECK SOURCE_DIR MPIEXEC}
. "$(dirname "$0")/common.sh"
# Running as root (CI containers) needs Open MPI's consent; --oversubscribe lets 3 ranks share 2 cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# Under scripts/sanitize: Open MPI's own leaks are suppressed by library (scripts/lsan.supp), which needs whole stacks.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
mpi() { local n=$1; shift; timeout 300 "$MPIEXEC" -n "$n" "$@"; }

untimed() { sed -e 's/in [0-9.]* s ([0-9]* checks\/s)/in T/' -e "s|$2|DIR|g" "$1"; }
files() { (cd "$1" && for f in $(find . -type f ! -name '*.cbor' ! -name summary.json ! -name sweep.json | sort); do
  echo "== $f"; sed "s|$2|DIR|g" "$f"; done); }
same() { if ! diff "$2" "$3" >"$T/diff"; then fail "$1: differs: $(head -c 600 "$T/diff")"; else echo "ok: $1"; fi; }

SEARCH=(search sla-admission --policy greedy-backfilling --trials 600 --size 8 -q)
"$S" "${SEARCH[@]}" --out "$T/one/c" >"$T/one.txt"
mpi 2 "$S" "${SEARCH[@]}" --out "$T/two/c" >"$T/two.txt" 2>"$T/two.err"
rc=$?; [ "$rc" -eq 1 ] || fail "mpirun -n 2 search: exit $rc, expected 1 (failures found): $(tail -c 300 "$T/two.err")"
untimed "$T/one.txt" "$T/one/c" >"$T/a"; untimed "$T/two.txt" "$T/two/c" >"$T/b"; same "mpirun -n 2 search: output" "$T/a" "$T/b"
files "$T/one/c" "$T/one/c" >"$T/a"; files "$T/two/c" "$T/two/c" >"$T/b"; same "mpirun -n 2 search: corpus files" "$T/a" "$T/b"
mpi 3 "$S" "${SEARCH[@]}" --out "$T/three/c" >"$T/three.txt" 2>/dev/null
untimed "$T/three.txt" "$T/three/c" >"$T/b"; untimed "$T/one.txt" "$T/one/c" >"$T/a"; same "mpirun -n 3 search: output" "$T/a" "$T/b"

EXH=(search offer-composition --policy offers-dplb --exhaustive --scope providers=2,offers=2,max=3 -q)
"$S" "${EXH[@]}" --out "$T/e1" >"$T/e1.txt"
mpi 2 "$S" "${EXH[@]}" --out "$T/e2" >"$T/e2.txt" 2>/dev/null
untimed "$T/e1.txt" "$T/e1" >"$T/a"; untimed "$T/e2.txt" "$T/e2" >"$T/b"; same "mpirun -n 2 exhaustive: output" "$T/a" "$T/b"
files "$T/e1" "$T/e1" >"$T/a"; files "$T/e2" "$T/e2" >"$T/b"; same "mpirun -n 2 exhaustive: corpus files" "$T/a" "$T/b"

untimed_csv() { python3 -c "import csv,sys; [print([v for k, v in r.items() if 'seconds' not in k]) for r in csv.DictReader(open(sys.argv[1]))]" "$1"; }
"$S" suite "$SOURCE_DIR/counterexamples/corpus" --csv >"$T/s1.csv"
mpi 2 "$S" suite "$SOURCE_DIR/counterexamples/corpus" --csv >"$T/s2.csv" 2>/dev/null
untimed_csv "$T/s1.csv" >"$T/a"; untimed_csv "$T/s2.csv" >"$T/b"; same "mpirun -n 2 suite: rows" "$T/a" "$T/b"

EXP=(experiment backfilling --trace "$SOURCE_DIR/examples/small-cluster.swf" --seeds 2 -q)
"$S" "${EXP[@]}" --out "$T/x1" >/dev/null
mpi 3 "$S" "${EXP[@]}" --out "$T/x3" >"$T/x3.txt" 2>"$T/x3.err" || fail "mpirun -n 3 experiment: exit $? ($(tail -c 300 "$T/x3.err"))"
files "$T/x1" "$T/x1" >"$T/a"; files "$T/x3" "$T/x3" >"$T/b"; same "mpirun -n 3 experiment: every file" "$T/a" "$T/b"

# A rank whose policy process fails: exit 2, the policy's message, no summary on stdout.
P="$SOURCE_DIR/examples/policies/sla_first_fit.py"
mpi 2 "$S" search sla-admission --policy-cmd "if [ \"\$OMPI_COMM_WORLD_RANK\" = 1 ]; then exit 3; fi; exec python3 $P" \
  --trials 100 -q --out "$T/f" >"$T/f.txt" 2>"$T/f.err"
rc=$?; [ "$rc" -eq 2 ] || fail "a failing rank: exit $rc, expected 2"
grep -q "exited with status 3" "$T/f.err" || fail "a failing rank: its message is not on stderr: $(head -c 400 "$T/f.err")"
[ -s "$T/f.txt" ] && fail "a failing rank: a result was printed: $(head -c 300 "$T/f.txt")"
echo "ok: a failing rank"
# A rank that is not schedcheck (it exits at once): the job fails, rank 0 prints nothing.
timeout 300 "$MPIEXEC" -n 1 "$S" "${SEARCH[@]}" --trials 100000 --out "$T/g" : -n 1 false >"$T/g.txt" 2>/dev/null
rc=$?; [ "$rc" -ne 0 ] || fail "a rank that dies: exit 0"
[ -s "$T/g.txt" ] && fail "a rank that dies: a result was printed: $(head -c 300 "$T/g.txt")"
echo "ok: a rank that dies"

# SIGTERM to every rank, as scancel sends it: rank 0 prints the counts of the trials finished and exits 143.
mpi 2 "$S" search sla-admission --policy greedy-backfilling --trials 10000000 -q --out "$T/t" >"$T/t.txt" 2>/dev/null &
for _ in $(seq 1200); do [ "$(ls "$T/t" 2>/dev/null | wc -l)" -ge 5 ] && break; sleep 0.1; done  # its 5 are written
pkill -TERM -f "^$S search sla-admission --policy greedy-backfilling --trials 10000000"
wait $!
rc=$?; [ "$rc" -eq 143 ] || fail "SIGTERM to the ranks: exit $rc, expected 143"
grep -q "interrupted (interrupted by SIGTERM)" "$T/t.txt" || fail "SIGTERM to the ranks: no interrupted summary: $(head -c 300 "$T/t.txt")"
[ "$(ls "$T/t" | wc -l)" -eq 5 ] || fail "SIGTERM to the ranks: expected the 5 corpus files found, got $(ls "$T/t")"
echo "ok: SIGTERM to the ranks"

mpi 2 "$S" "${SEARCH[@]}" --out "$T/sh" --shard 1/2 >"$T/sh.txt" 2>"$T/sh.err"
rc=$?; [ "$rc" -eq 2 ] || fail "--shard under mpirun: exit $rc, expected 2"
grep -q "not under mpirun" "$T/sh.err" || fail "--shard under mpirun: $(head -c 300 "$T/sh.err")"

finish mpi
