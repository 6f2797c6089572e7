#!/usr/bin/env python3
# A cluster scheduling policy outside C++ for `simulate --policy-cmd` and cluster-run (docs/protocol.md, cluster
# pass): FCFS, starting queued jobs in order while the head fits, in both resource models (count: any free
# processors; processors: the lowest-numbered free ones). The same schedules as the built-in `fcfs` (tested).
# Run: schedcheck simulate --trace TRACE.swf --policy-cmd "python3 examples/policies/cluster_fcfs.py"
import json
import sys


def processors_of(text):
    """Batsim's interval syntax "0-3 7" as a set of processor numbers."""
    result = set()
    for run in text.split():
        first, _, last = run.partition("-")
        result.update(range(int(first), int(last or first) + 1))
    return result


def intervals(numbers):
    numbers, runs = sorted(numbers), []
    for n in numbers:
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return " ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def decide(snapshot):
    identity = snapshot["model"] == "processors"
    free = set(range(snapshot["processors"]))  # processors model: the numbers no running job holds
    if identity:
        for job in snapshot["running"]:
            free -= processors_of(job["on"])
    count = snapshot["processors"] - sum(job["procs"] for job in snapshot["running"])
    start = []
    for job in snapshot["queue"]:
        if job["procs"] > (len(free) if identity else count):
            break  # FCFS: the first job that does not fit stops the pass
        if identity:
            on = sorted(free)[: job["procs"]]
            free -= set(on)
            start.append({"id": job["id"], "on": intervals(on)})
        else:
            count -= job["procs"]
            start.append({"id": job["id"]})
    return {"start": start}


for line in sys.stdin:
    print(json.dumps(decide(json.loads(line)["snapshot"])), flush=True)
