#!/usr/bin/env bash
# Bad provider-offers input through the CLI: one line on stderr naming the field, exit 2, nothing on stdout.
# Our own. Usage: offers_cli_bad_input.sh PATH/TO/schedcheck
set -u
cli=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
check() {  # name, json, expected substring
  printf '%s' "$2" > "$dir/$1.json"
  "$cli" check offers --policy edf -i "$dir/$1.json" > "$dir/out" 2> "$dir/err"
  code=$?
  if [ "$code" -ne 2 ] || [ -s "$dir/out" ] || [ "$(wc -l < "$dir/err")" -ne 1 ] || ! grep -qF "$3" "$dir/err"; then
    echo "FAIL $1: exit $code, stdout $(wc -c < "$dir/out") bytes, stderr: $(cat "$dir/err")"
    status=1
  fi
}
base='"provider": {"processors": 4, "now": 10}, "bot": {"id": "n", "tasks": 2, "task_runtime": 5, "deadline": 50}'
check deadline-before-now "{$base, \"waiting\": [{\"id\": \"L\", \"type\": \"local\", \"procs\": 1, \"runtime\": 1, \"deadline\": 5}]}" "waiting[0].deadline: expected a deadline >= provider.now = 10"
check task-longer-than-window "{$base, \"waiting\": [{\"id\": \"B\", \"type\": \"bot\", \"tasks\": 2, \"task_runtime\": 30, \"deadline\": 20}]}" "waiting[0].task_runtime: expected a runtime <= deadline - now = 10"
check procs-above-p "{$base, \"waiting\": [{\"id\": \"L\", \"type\": \"local\", \"procs\": 5, \"runtime\": 1, \"deadline\": 20}]}" "waiting[0].procs: expected an integer in [1, 4]"
check not-json "{$base," "not valid JSON"
check escaped-key "{$base, \"waiting\": [], \"x\\ny\": 1}" ': "x\ny": unknown field (expected one of:'
check duplicate-key "{$base, \"waiting\": [], \"bot\": {}}" 'bot: duplicate field'

exit $status
