#!/usr/bin/env bash
# Every exact method of every problem on the generators' largest instances: wall time and peak memory of
# `schedcheck solve` under a time limit, and how long a SIGINT takes to stop a solve started without one. Our own.
# Usage: bench/exact_limits.sh SCHEDCHECK [SIZES (default 1000,10000,100000)] [LIMIT_MS (default 2000)] [signal|-]
#   [PROBLEMS (comma-separated; default every problem but cluster-run)]
# Prints one CSV row per run: problem,size,method,limit_ms,exit,status,wall_s,peak_mib[,signal_to_exit_s].
# A run is killed after LIMIT + 60 s (exit "killed"). `signal`: also start each solve with a 1-hour limit, send
# SIGINT after 3 s and time the exit. Instances: `schedcheck generate PROBLEM --seed 1 --size N`, cached in $TMPDIR.
# Start it where SIGINT is not ignored: a background job of a shell without job control ignores it, its children
# inherit that, and schedcheck keeps an ignored SIGINT ignored (docs/cli.md); `set -m` before `&`.
set -uo pipefail
BIN=${1:?usage: exact_limits.sh SCHEDCHECK [SIZES] [LIMIT_MS] [signal]}
SIZES=${2:-1000,10000,100000}
LIMIT=${3:-2000}
SIGNAL=${4:-}
[ "$SIGNAL" = - ] && SIGNAL=
ONLY=${5:-}
CACHE=${TMPDIR:-/tmp}/schedcheck-exact-limits
mkdir -p "$CACHE"
problems=$("$BIN" list | awk '$1 == "problem" && $2 != "cluster-run" {print $2}')
echo "problem,size,method,limit_ms,exit,status,wall_s,peak_mib${SIGNAL:+,signal_to_exit_s}"
for problem in $problems; do
  [ -z "$ONLY" ] || [[ ",$ONLY," == *",$problem,"* ]] || continue
  methods=$("$BIN" list | awk -v p="$problem" '$1 == "problem" {on = ($2 == p)} on && $1 == "exact" {print $2}')
  for size in ${SIZES//,/ }; do
    file=$CACHE/$problem-$size.json
    if [ ! -s "$file" ]; then
      timeout 120 "$BIN" generate "$problem" --seed 1 --size "$size" >"$file.tmp" && mv "$file.tmp" "$file" || {
        echo "$problem,$size,(generate),,timeout,,120,"; rm -f "$file.tmp"; continue; }
    fi
    for method in $methods; do
      out=$CACHE/out.json
      start=$(date +%s%N)
      /usr/bin/time -f %M -o "$CACHE/rss" timeout -s KILL $((LIMIT / 1000 + 60)) \
        "$BIN" solve "$problem" -i "$file" --exact "$method" --timeout-ms "$LIMIT" --json >"$out" 2>"$CACHE/err"
      rc=$?
      wall=$(( ($(date +%s%N) - start) / 1000000 ))
      [ $rc -eq 137 ] && rc=killed
      status=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["optimum"]["status"])' "$out" \
        2>/dev/null)
      rss=$(tail -1 "$CACHE/rss" 2>/dev/null | tr -dc 0-9)
      seconds=$(printf %d.%03d $((wall / 1000)) $((wall % 1000)))
      row="$problem,$size,$method,$LIMIT,$rc,${status:--},$seconds,$((${rss:-0} / 1024))"
      if [ -n "$SIGNAL" ]; then
        set -m
        "$BIN" solve "$problem" -i "$file" --exact "$method" --timeout-ms 3600000 >/dev/null 2>&1 &
        pid=$!
        set +m
        sleep 3
        if kill -0 "$pid" 2>/dev/null; then
          sent=$(date +%s%N)
          kill -INT "$pid"
          # Until the process has exited (a zombie, state Z, counts as exited: kill -0 would still succeed on it);
          # a run that ignores the signal is killed after 60 s.
          waited=0
          while [ -e "/proc/$pid" ] && ! awk '{exit $3 == "Z" ? 0 : 1}' "/proc/$pid/stat" 2>/dev/null &&
            [ $waited -lt 3000 ]; do
            sleep 0.02
            waited=$((waited + 1))
          done
          took=$(( ($(date +%s%N) - sent) / 1000000 ))
          kill -KILL "$pid" 2>/dev/null
          wait "$pid" 2>/dev/null
          row="$row,$(printf %d.%03d $((took / 1000)) $((took % 1000)))"
        else
          wait "$pid" 2>/dev/null
          row="$row,finished"
        fi
      fi
      echo "$row"
    done
  done
done
