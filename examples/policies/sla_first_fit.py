#!/usr/bin/env python3
# An sla-admission / sla-admission-timed policy outside C++ (docs/protocol.md): first fit in arrival order, as
# paper 004's FCFS decides bids on arrival (sec. 4.2): each eligible bid that fits the free processors is accepted,
# a misfit is rejected and blocks nobody. The same decisions as the built-in `fcfs` of sla-admission (tested).
# Run: schedcheck check sla-admission --policy-cmd "python3 examples/policies/sla_first_fit.py" -i INSTANCE
import json
import sys

SLACK = 1e-9  # schedcheck compares times and money with this relative slack (model/sla.cpp)


def at_most(a, b):
    return a <= b + SLACK * max(1.0, abs(b))


def decide(instance):
    site = instance["site"]
    running = sum(job["procs"] for job in instance.get("running", []))
    free = site.get("free", site["processors"] - running)
    accepted = []
    for bid in instance["bids"]:
        execution = bid["length"] / (site["mips"] * bid["procs"])     # l / (mu p)
        response = bid.get("alpha", 0) + execution                      # D(J, R) = alpha + l / (mu p)
        # B(J, R): c l / mu (price x processor time, the default) or c l / (mu p) (site.pricing "wall-clock")
        incentive = site["price"] * execution * (1 if site.get("pricing") == "wall-clock" else bid["procs"])
        eligible = at_most(response, bid.get("expected_response", bid["deadline"]))
        if site.get("budget_test", False):
            eligible = eligible and at_most(incentive, bid["budget"])
        if eligible and bid["procs"] <= free:
            accepted.append(bid["id"])
            free -= bid["procs"]
    return {"accepted": accepted}


def answer(request):
    decision = decide(request["instance"])
    if request["problem"] == "sla-admission-timed":  # each accepted bid starts now, on processors free now
        decision["start"] = {bid: 0 for bid in decision["accepted"]}
    return decision


for line in sys.stdin:  # one request a line, one decision a line, until schedcheck closes stdin
    print(json.dumps(answer(json.loads(line))), flush=True)
