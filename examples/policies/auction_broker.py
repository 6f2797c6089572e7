#!/usr/bin/env python3
"""A broker for schedcheck's auction experiment (paper 003), over the JSON-lines protocol (docs/protocol.md).

Each request is {"problem": "auction-broker", "user": NAME, "seed": S, "instance": SNAPSHOT}; the answer is
{"bids": [{"resource": NAME, "bid": X}], "submit": [{"task": ID, "resource": NAME}]}.
Strategy (our own, a starting point to change): at the start, tasks go to the resources in proportion to one PE's
speed (C_r), local resources first; every period each resource's bid is scaled by finish_time / time_left (Eq. 6
without its dead band), within the resource's bounds. --overbid bids 10% above each maximum, to see the run
property bid-within-bounds fail.

    schedcheck experiment auction --quick --out /tmp/a --policy-cmd "python3 examples/policies/auction_broker.py" \
        --policy-for U2 --policy-for U7 --policy-name proportional
"""
import json
import sys

OVERBID = "--overbid" in sys.argv[1:]


def clamp(r, bid):
    top = r["max_bid"] * (1.1 if OVERBID else 1.0)
    return max(r["min_bid"], min(top, bid))


def decide(s):
    resources = s["resources"]
    bids, submit = [], []
    time_left = s["deadline"] + s["start"] - s["now"]
    if s["initial"]:
        speed = sum(r["mips"] for r in resources)
        credit = [0.0] * len(resources)
        for t in s["pending"]:
            for k, r in enumerate(resources):
                credit[k] += r["mips"] / speed
            k = max(range(len(resources)), key=lambda i: credit[i])
            credit[k] -= 1
            submit.append({"task": t["id"], "resource": resources[k]["name"]})
        used = {x["resource"] for x in submit}
        for r in resources:
            if r["name"] in used:
                bids.append({"resource": r["name"], "bid": clamp(r, (r["min_bid"] + r["max_bid"]) / 2)})
        return {"bids": bids, "submit": submit}
    for r in resources:
        if not r["account"] or r["tasks"] == 0:
            continue
        if time_left <= 0 or r["share"] <= 0:
            bids.append({"resource": r["name"], "bid": clamp(r, r["max_bid"])})
            continue
        finish = r["remaining"] / r["share"]
        bids.append({"resource": r["name"], "bid": clamp(r, r["bid"] * finish / time_left)})
    return {"bids": bids, "submit": submit}


for line in sys.stdin:
    request = json.loads(line)
    print(json.dumps(decide(request["instance"])), flush=True)
