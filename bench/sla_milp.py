#!/usr/bin/python3
# An independent MILP of `sla-admission` (paper 004 Eq. 4-5: max sum B_i x_i, sum p_i x_i <= r, x binary, over the
# eligible bids), solved by HiGHS (scipy.optimize.milp) and CBC (the cbc program, LP file), side by side with
# `schedcheck solve sla-admission` on the same generated instances. Our own; a benchmark for docs/performance.md, not a
# dependency: it needs Debian's python3-scipy (HiGHS inside) and coinor-cbc, and runs with /usr/bin/python3.
# Usage: bench/sla_milp.py [SIZES [SEEDS [RUNS]]]   (defaults 1000, 10, 3; RUNS: solves per instance, median kept)
import json, os, statistics, subprocess, sys, tempfile, time

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
cli = os.environ.get("SCHEDCHECK", os.path.join(root, "build", "cli", "schedcheck"))
sizes = [int(x) for x in (sys.argv[1] if len(sys.argv) > 1 else "1000").split(",")]
seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
tmp = tempfile.mkdtemp()


def knapsack(doc):
    """Weights, values and capacity of the instance's knapsack (the model of docs/formats.md, written again here)."""
    site = doc["site"]
    mips, price = site["mips"], site["price"]
    running = sum(job["procs"] for job in doc.get("running", []))
    capacity = site["free"] if "free" in site else site["processors"] - running
    weights, values = [], []
    for bid in doc["bids"]:
        execution = bid["length"] / (mips * bid["procs"])
        response = bid.get("alpha", 0.0) + execution
        incentive = price * execution
        expected = bid.get("expected_response", bid["deadline"])
        slack = 1e-9 * max(1.0, abs(expected))
        if response > expected + slack:
            continue  # Algorithm 2 line 1.40: de >= D
        if site.get("budget_test", False) and incentive > bid["budget"] + 1e-9 * max(1.0, abs(bid["budget"])):
            continue
        weights.append(bid["procs"])
        values.append(incentive)
    return np.array(weights, dtype=float), np.array(values), capacity


def highs(weights, values, capacity):
    start = time.perf_counter()
    result = milp(-values, constraints=LinearConstraint(weights[np.newaxis, :], -np.inf, capacity),
                  integrality=np.ones(len(values)), bounds=Bounds(0, 1), options={"mip_rel_gap": 0})
    seconds = time.perf_counter() - start
    return -result.fun, seconds


def cbc(weights, values, capacity):
    lp = os.path.join(tmp, "knapsack.lp")
    with open(lp, "w") as f:
        f.write("Maximize\n obj: " + " + ".join(f"{v!r} x{i}" for i, v in enumerate(values)) + "\n")
        f.write("Subject To\n cap: " + " + ".join(f"{int(w)} x{i}" for i, w in enumerate(weights)) + f" <= {capacity}\n")
        f.write("Binary\n " + " ".join(f"x{i}" for i in range(len(values))) + "\nEnd\n")
    start = time.perf_counter()
    out = subprocess.run(["cbc", lp, "ratio", "0", "allowableGap", "0", "solve", "quit"], capture_output=True,
                         text=True).stdout
    seconds = time.perf_counter() - start
    objective = next(float(line.split()[-1]) for line in out.splitlines() if line.startswith("Objective value:"))
    return objective, seconds


def schedcheck(file):
    out = subprocess.run([cli, "solve", "sla-admission", "-i", file, "--json"], capture_output=True, text=True).stdout
    optimum = json.loads(out)["optimum"]
    return optimum["objective"], optimum["seconds"], optimum["status"]


print("n      seed  schedcheck ms  HiGHS ms  CBC ms (process)  HiGHS/schedcheck  agree")
for n in sizes:
    table = {"schedcheck": [], "highs": [], "cbc": []}
    for seed in range(1, seeds + 1):
        file = os.path.join(tmp, f"n{n}-s{seed}.json")
        with open(file, "w") as f:
            f.write(subprocess.run([cli, "generate", "sla-admission", "--seed", str(seed), "--size", str(n)],
                                   capture_output=True, text=True, check=True).stdout)
        with open(file) as f:
            weights, values, capacity = knapsack(json.load(f))
        ours = [schedcheck(file) for _ in range(runs)]
        theirs = [highs(weights, values, capacity) for _ in range(runs)]
        cbcs = [cbc(weights, values, capacity) for _ in range(runs)]
        ms = statistics.median(s for _, s, _ in ours) * 1e3
        hs = statistics.median(s for _, s in theirs) * 1e3
        cs = statistics.median(s for _, s in cbcs) * 1e3
        best = ours[0][0]
        agree = ours[0][2] == "optimal" and all(abs(v - best) <= 1e-6 * max(1.0, best) for v, _ in theirs + cbcs)
        table["schedcheck"].append(ms)
        table["highs"].append(hs)
        table["cbc"].append(cs)
        print(f"{n:<6} {seed:>4}  {ms:>13.3f}  {hs:>8.2f}  {cs:>16.1f}  {hs / ms:>16.0f}  {'yes' if agree else 'NO'}")
    med = {k: statistics.median(v) for k, v in table.items()}
    print(f"{n:<6} median {med['schedcheck']:>11.3f}  {med['highs']:>8.2f}  {med['cbc']:>16.1f}  "
          f"{med['highs'] / med['schedcheck']:>16.0f}")
