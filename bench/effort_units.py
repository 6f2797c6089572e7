#!/usr/bin/env python3
# What one effort unit (SolveOptions::effort, docs/cli.md "Effort budgets") costs in time, method by method: for each
# generated instance the exact method proves without a budget, the smallest power of two of units that still proves
# it (the work the solve needs, within a factor 2) and the solve's time without a budget, so us per unit. Our own.
# Usage: bench/effort_units.py SCHEDCHECK [PROBLEM:METHOD:SIZE ...]   (default: the list below; seeds 1-3 each)
# Prints CSV: problem,method,size,seed,seconds,units,us_per_unit. A solve that is not proven within 60 s is skipped.
import json, os, subprocess, sys, tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else "build/cli/schedcheck"
CASES = sys.argv[2:] or [
    "sla-admission:dp:2000", "sla-admission:core:20000", "sla-admission:enumeration:18",
    "sla-admission-timed:bnb:60", "sla-admission-timed:sequences:8",
    "offers:bnb:40", "offers:sequences:6", "offers:gecode:12", "offers:sat:30", "offers:z3:12",
    "deadline-feasibility:bnb:60",
    "dbc-cost-time:dp:12", "dbc-cost-time:bnb:40",
    "queue-window:bnb:10", "queue-window:sequences:8", "queue-window:gecode:8",
    "auction-bid:bnb:8", "auction-bid:enumeration:6",
    "gateway-choice:scan:2000",
]
SEEDS = [1, 2, 3]


def solve(path, problem, method, effort=None):
    cmd = [BIN, "solve", problem, "-i", path, "--exact", method, "--json", "--timeout-ms", "60000"]
    if effort is not None:
        cmd += ["--effort", str(effort)]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    try:
        o = json.loads(out)["optimum"]
    except (ValueError, KeyError):
        return None, 0.0
    return o["status"], float(o.get("seconds", 0.0))


print("problem,method,size,seed,seconds,units,us_per_unit")
with tempfile.TemporaryDirectory() as tmp:
    for case in CASES:
        problem, method, size = case.split(":")
        for seed in SEEDS:
            path = os.path.join(tmp, f"{problem}-{size}-{seed}.json")
            with open(path, "w") as f:
                subprocess.run([BIN, "generate", problem, "--seed", str(seed), "--size", size], stdout=f, check=True)
            status, _ = solve(path, problem, method)
            if status not in ("optimal", "infeasible"):
                continue
            # the solve's own time: the best of three, so that a busy moment does not count
            seconds = min(solve(path, problem, method)[1] for _ in range(3))
            low, high = 0, 40  # 2^high units prove it; find the smallest such power
            if solve(path, problem, method, 2 ** high)[0] != status:
                continue
            while high - low > 1:
                mid = (low + high) // 2
                if solve(path, problem, method, 2 ** mid)[0] == status:
                    high = mid
                else:
                    low = mid
            units = 2 ** high
            print(f"{problem},{method},{size},{seed},{seconds:.6f},{units},{seconds / units * 1e6:.4f}", flush=True)
