#!/bin/sh
# sla_first_fit.py in shell: the same first-fit policy (paper 004 sec. 4.2, FCFS decided on arrival) as one jq
# program that reads the requests and prints one decision a line (docs/protocol.md). Needs jq (Debian: jq).
# Run: schedcheck check sla-admission --policy-cmd "sh examples/policies/sla_first_fit.sh" -i INSTANCE
exec jq --unbuffered -c '
  def at_most($a; $b): $a <= $b + 1e-9 * ([1, ($b | fabs)] | max);
  .instance as $i | $i.site as $s
  | reduce $i.bids[] as $b (
      {free: ($s.free // ($s.processors - ([$i.running[]?.procs] | add // 0))), accepted: []};
      ($b.length / ($s.mips * $b.procs)) as $execution
      | (at_most(($b.alpha // 0) + $execution; $b.expected_response // $b.deadline)
         and (($s.budget_test // false) == false or at_most($s.price * $execution; $b.budget))) as $eligible
      | if $eligible and $b.procs <= .free then .free -= $b.procs | .accepted += [$b.id] else . end)
  | {accepted: .accepted}'
