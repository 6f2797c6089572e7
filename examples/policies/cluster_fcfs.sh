#!/bin/sh
# cluster_fcfs.py in shell, count model only: FCFS over a cluster pass snapshot (docs/protocol.md), starting queued
# jobs in order while the head fits the free processors. One jq program. Needs jq (Debian: jq).
# Run: schedcheck simulate --trace TRACE.swf --policy-cmd "sh examples/policies/cluster_fcfs.sh"
exec jq --unbuffered -c '
  .snapshot as $s
  | reduce $s.queue[] as $job (
      {free: ($s.processors - ([$s.running[].procs] | add // 0)), start: [], blocked: false};
      if .blocked or $job.procs > .free then .blocked = true
      else .free -= $job.procs | .start += [{id: $job.id}] end)
  | {start: .start}'
