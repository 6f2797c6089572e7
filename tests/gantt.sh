#!/usr/bin/env bash
# `schedcheck gantt`: simulates a tiny JSON workload, draws PNG and SVG charts (whole run and a --from/--to window),
# and checks that bad input and usage exit 2 and a failing gnuplot exits 4, each with exactly one stderr line, and
# that no temporary file is left behind. Our own. Skips (exit 77) when gnuplot is not installed. Usage: gantt.sh SCHEDCHECK
set -u

SCHEDCHECK=${1:?usage: gantt.sh SCHEDCHECK}
if ! command -v gnuplot >/dev/null 2>&1; then
  echo "SKIP: gnuplot is not installed (apt-get install gnuplot-nox, or scripts/deps)"
  exit 77
fi
. "$(dirname "$0")/common.sh"
mkdir "$T/tmp"
export TMPDIR="$T/tmp"  # gantt's temporary directory goes here: it must be empty afterwards

# expect_exit NAME CODE SUBSTRING -- ARGS...: asserts the exit code, empty stdout, exactly one stderr line with the substring.
expect_exit() {
  local name=$1 code=$2 want=$3 before=$failures
  shift 4
  "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  local lines
  lines=$(wc -l <"$T/err")
  [ "$rc" -eq "$code" ] || fail "$name: exit $rc, expected $code (stderr: $(cat "$T/err"))"
  [ -s "$T/out" ] && fail "$name: stdout not empty: $(head -c 300 "$T/out")"
  [ "$lines" -eq 1 ] || fail "$name: $lines lines on stderr, expected 1: $(cat "$T/err")"
  grep -qF -- "$want" "$T/err" || fail "$name: stderr does not contain '$want': $(cat "$T/err")"
  [ "$failures" -eq "$before" ] && echo "ok: $name"
}

# ---------------------------------------------------------------- a small run
cat >"$T/tiny.json" <<'EOF'
{"kind": "workload", "name": "tiny", "processors": 4, "jobs": [
  {"id": 1, "submit": 0, "run": 10, "estimate": 10, "procs": 2},
  {"id": 2, "submit": 1, "run": 5, "estimate": 8, "procs": 4},
  {"id": 3, "submit": 2, "run": 3, "estimate": 4, "procs": 1},
  {"id": 4, "submit": 2, "run": 20, "estimate": 25, "procs": 3}]}
EOF
"$SCHEDCHECK" simulate --trace "$T/tiny.json" --policy easy --model processors --jobs-csv "$T/run.csv" -q >/dev/null ||
  fail "simulate: exit $?"
[ "$(wc -l <"$T/run.csv")" -eq 5 ] || fail "simulate: expected a header and 4 rows in $T/run.csv"

# A hand-written CSV: a job split over two runs of processors, jobs without processors (empty and quoted-empty
# field), an id with a space and quotes.
{
  head -1 "$T/run.csv"
  echo '1,tiny,,0,2,10,1,COMPLETED_SUCCESSFULLY,0,10,10,0,10,1,0-1,-1,,1'
  echo '2,tiny,,1,2,10,1,COMPLETED_SUCCESSFULLY,10,10,20,9,19,1.9,0 2-3,-1,,1.9'
  echo '3,tiny,,1,2,10,1,COMPLETED_SUCCESSFULLY,2,6,8,1,7,1,,-1,,1'
  echo '"a ""b"" 4",tiny,,1,2,10,1,COMPLETED_SUCCESSFULLY,3,6,9,2,8,1,"",-1,,1'
} >"$T/mixed.csv"

is_png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; }
is_svg() { [ -s "$1" ] && grep -q "<svg" "$1"; }

draw() {  # draw NAME CHECK OUT -- ARGS...
  local name=$1 check=$2 out=$3 before=$failures
  shift 4
  if "$SCHEDCHECK" gantt "$@" --out "$out" >"$T/out" 2>"$T/err"; then
    "$check" "$out" || fail "$name: $out is missing, empty or not the expected format"
    [ -s "$T/err" ] && fail "$name: stderr not empty: $(cat "$T/err")"
    grep -qF "wrote $out" "$T/out" || fail "$name: stdout does not say 'wrote $out': $(cat "$T/out")"
    [ -e "$out.tmp" ] && fail "$name: $out.tmp left behind"
    [ "$failures" -eq "$before" ] && echo "ok: $name"
  else
    fail "$name: exit $? (stderr: $(cat "$T/err"))"
  fi
}

draw "png of the run" is_png "$T/run.png" -- --jobs-csv "$T/run.csv"
draw "svg of the run" is_svg "$T/run.svg" -- --jobs-csv "$T/run.csv" --title "tiny, easy: it's <fine> & _ok_"
draw "png of a window" is_png "$T/window.png" -- --jobs-csv "$T/run.csv" --from 5 --to 12 --processors 8
draw "png with lanes" is_png "$T/mixed.png" -- --jobs-csv "$T/mixed.csv"
draw "svg with lanes" is_svg "$T/mixed.svg" -- --jobs-csv "$T/mixed.csv" --max-jobs 4
draw "upper-case extension" is_png "$T/upper.PNG" -- --jobs-csv "$T/run.csv"
# A CSV opening with a UTF-8 byte-order mark, as spreadsheets write: the first column is still job_id.
printf '\xef\xbb\xbf' | cat - "$T/run.csv" >"$T/bom.csv"
draw "a CSV with a byte-order mark" is_png "$T/bom.png" -- --jobs-csv "$T/bom.csv"
# A queue window (docs/formats.md): the optimum and a policy played forward; the SVG names the side and objective.
cat >"$T/window.json" <<'EOW'
{"kind": "queue-window", "now": 1000, "processors": 7, "objective": "makespan",
 "running": [{"id": "R", "procs": 3, "remaining": 1}],
 "waiting": [{"id": "A", "submit": 894, "procs": 1, "estimate": 1}, {"id": "B", "submit": 1000, "procs": 4, "estimate": 2}]}
EOW
draw "png of a window's optimum" is_png "$T/w-opt.png" -- --window "$T/window.json"
draw "svg of a window, easy" is_svg "$T/w-easy.svg" -- --window "$T/window.json" --side easy
grep -qsF "easy played forward (objective 3)" "$T/w-easy.svg" || fail "window svg: the title does not give the side and its objective"
grep -qsF "jobs without allocated processors" "$T/mixed.svg" || fail "svg with lanes: the key does not mention the lanes"
grep -qsF '<text>a "b" 4</text>' "$T/mixed.svg" || grep -qsF '<text>a &quot;b&quot; 4</text>' "$T/mixed.svg" ||
  fail "svg with lanes: the label of job 'a \"b\" 4' is not shown literally"
grep -qsF "it&apos;s &lt;fine&gt; &amp; _ok_" "$T/run.svg" || grep -qsF "it's &lt;fine> &amp; _ok_" "$T/run.svg" ||
  fail "svg of the run: the title is not shown literally"

# ---------------------------------------------------------------- bad input and usage: exit 2, one line
head -1 "$T/run.csv" >"$T/header-only.csv"
echo 'job_id,starting_time' >"$T/nofinish.csv"
echo '1,0' >>"$T/nofinish.csv"
sed 's/,0-1,/,0-x,/' "$T/mixed.csv" >"$T/badalloc.csv"
sed 's/,0-1,-1/,5-1,-1/' "$T/mixed.csv" >"$T/backwards.csv"
G=("$SCHEDCHECK" gantt)
expect_exit "extension not png/svg" 2 "--out" -- "${G[@]}" --jobs-csv "$T/run.csv" --out "$T/chart.jpg"
expect_exit "no extension" 2 ".png or .svg" -- "${G[@]}" --jobs-csv "$T/run.csv" --out "$T/chart"
expect_exit "missing CSV" 2 "$T/none.csv" -- "${G[@]}" --jobs-csv "$T/none.csv" --out "$T/x.png"
expect_exit "header only" 2 "no jobs" -- "${G[@]}" --jobs-csv "$T/header-only.csv" --out "$T/x.png"
expect_exit "missing column" 2 "finish_time" -- "${G[@]}" --jobs-csv "$T/nofinish.csv" --out "$T/x.png"
expect_exit "bad allocated_resources" 2 "allocated_resources" -- "${G[@]}" --jobs-csv "$T/badalloc.csv" --out "$T/x.png"
expect_exit "backwards range" 2 "line 2" -- "${G[@]}" --jobs-csv "$T/backwards.csv" --out "$T/x.png"
expect_exit "processor beyond --processors" 2 "--processors 3" -- "${G[@]}" --jobs-csv "$T/mixed.csv" --out "$T/x.png" --processors 3
expect_exit "--from after --to" 2 "--from/--to" -- "${G[@]}" --jobs-csv "$T/run.csv" --out "$T/x.png" --from 20 --to 5
expect_exit "--from not finite" 2 "--from" -- "${G[@]}" --jobs-csv "$T/run.csv" --out "$T/x.png" --from nan
expect_exit "--from not a number" 2 "--from" -- "${G[@]}" --jobs-csv "$T/run.csv" --out "$T/x.png" --from soon
expect_exit "empty window" 2 "no job runs between 1000 and 2000" -- "${G[@]}" --jobs-csv "$T/run.csv" --out "$T/x.png" --from 1000 --to 2000
expect_exit "more than --max-jobs" 2 "--from/--to" -- "${G[@]}" --jobs-csv "$T/mixed.csv" --out "$T/x.png" --max-jobs 3
expect_exit "--max-jobs 0" 2 "--max-jobs" -- "${G[@]}" --jobs-csv "$T/run.csv" --out "$T/x.png" --max-jobs 0
expect_exit "--processors 0" 2 "--processors" -- "${G[@]}" --jobs-csv "$T/run.csv" --out "$T/x.png" --processors 0
expect_exit "no --out" 2 "--out" -- "${G[@]}" --jobs-csv "$T/run.csv"
expect_exit "neither --jobs-csv nor --window" 2 "--window" -- "${G[@]}" --out "$T/x.png"
expect_exit "both --jobs-csv and --window" 2 "excludes" -- "${G[@]}" --jobs-csv "$T/run.csv" --window "$T/window.json" --out "$T/x.png"
expect_exit "--side unknown" 2 "--side" -- "${G[@]}" --window "$T/window.json" --side best --out "$T/x.png"
expect_exit "unknown option" 2 "--colour" -- "${G[@]}" --jobs-csv "$T/run.csv" --out "$T/x.png" --colour red
expect_exit "output directory missing" 2 "$T/no/such/dir/x.png" -- "${G[@]}" --jobs-csv "$T/run.csv" --out "$T/no/such/dir/x.png"
[ -e "$T/x.png" ] && fail "a failed command wrote $T/x.png"

# ---------------------------------------------------------------- gnuplot missing (exit 2) or failing (exit 4)
mkdir "$T/nognuplot" "$T/badgnuplot" "$T/silentgnuplot"
expect_exit "gnuplot not on PATH" 2 "gnuplot-nox" -- env PATH="$T/nognuplot" "$SCHEDCHECK" gantt --jobs-csv "$T/run.csv" --out "$T/x.png"
printf '#!/bin/sh\necho "some chatter" >&2\necho "\\"%s\\" line 3: fake failure" "$1" >&2\nexit 1\n' >"$T/badgnuplot/gnuplot"
printf '#!/bin/sh\nexit 0\n' >"$T/silentgnuplot/gnuplot"
chmod +x "$T/badgnuplot/gnuplot" "$T/silentgnuplot/gnuplot"
expect_exit "gnuplot fails" 4 "fake failure" -- env PATH="$T/badgnuplot:$PATH" "$SCHEDCHECK" gantt --jobs-csv "$T/run.csv" --out "$T/x.png"
expect_exit "gnuplot writes nothing" 4 "no image" -- env PATH="$T/silentgnuplot:$PATH" "$SCHEDCHECK" gantt --jobs-csv "$T/run.csv" --out "$T/x.svg"
[ -e "$T/x.png" ] || [ -e "$T/x.png.tmp" ] || [ -e "$T/x.svg" ] || [ -e "$T/x.svg.tmp" ] &&
  fail "a failing gnuplot left $(ls "$T"/x.* 2>/dev/null)"

# ---------------------------------------------------------------- nothing left behind
[ -z "$(ls -A "$T/tmp")" ] || fail "temporary files left in TMPDIR: $(ls -A "$T/tmp")"
ls "$T"/*.tmp >/dev/null 2>&1 && fail "left behind: $(ls "$T"/*.tmp)"

finish gantt
