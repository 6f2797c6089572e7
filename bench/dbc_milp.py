#!/usr/bin/env python3
# Side by side: `schedcheck solve dbc-cost-time` against an independent MILP (what a user would write instead),
# solved by CBC (Debian coinor-cbc, one thread): minimum cost, then minimum makespan at that cost. Our own; a
# benchmark only (no library dependency). The MILP: x[j][p] = 1 when job j runs on PE p (every usable PE, only where
# the job fits one request and the horizon), sum_p x = 1, per PE sum_j duration x <= Dabsolute, cost <= Babsolute;
# minimise cost; then cost <= the minimum (+ 1e-9 relative), T >= every PE's load, minimise T. Times: whole
# processes (`schedcheck solve`, and each `cbc` run), wall clock. Instances with the
# default readings, no request lanes of several PEs with a finite maxTr (every PE a bin). Dabsolute and Babsolute
# come from `schedcheck solve --json` (optimum.metrics), so that the derived deadline is schedcheck's own.
# Usage: [MILP_LIMIT_S=20] dbc_milp.py SCHEDCHECK INSTANCE.json...   (one line per instance, then medians; CBC's
# limit per phase is MILP_LIMIT_S seconds: "stopped" = not proven within it)
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

LIMIT_S = int(os.environ.get("MILP_LIMIT_S", "20"))  # CBC's time limit per phase (seconds)


def solve_ours(schedcheck, path):
    start = time.monotonic()
    out = subprocess.run([schedcheck, "solve", "dbc-cost-time", "-i", path, "--json", "--timeout-ms", "60000"],
                         capture_output=True, text=True)
    elapsed = time.monotonic() - start
    report = json.loads(out.stdout)
    return report["optimum"], elapsed


def lp_text(instance, deadline, budget, cost_cap=None):
    slack = lambda v: v + 1e-9 * max(1.0, abs(v))
    max_tr = instance.get("broker", {}).get("max_tr")
    max_proc = instance.get("broker", {}).get("max_proc", 10**9)
    max_pending = instance.get("broker", {}).get("max_pending_requests", 10**9)
    pes, cost_terms, rows, binaries = [], [], [], []
    for r, res in enumerate(instance["resources"]):
        for k in range(min(res["pes"], max_proc * max_pending, len(instance["jobs"]))):
            pes.append((r, k))
    load = {p: [] for p in range(len(pes))}
    for j, job in enumerate(instance["jobs"]):
        choice = []
        for p, (r, _) in enumerate(pes):
            res = instance["resources"][r]
            d = job["length"] / res["mips"]
            if d > slack(deadline) or (max_tr is not None and d > slack(max_tr)):
                continue
            v = f"x_{j}_{p}"
            binaries.append(v)
            choice.append(v)
            cost_terms.append(f"{res['cost'] * job['length']:.10g} {v}")
            load[p].append(f"{d:.12g} {v}")
        if not choice:
            return None
        rows.append(" + ".join(choice) + " = 1")
    for p, terms in load.items():
        if terms:
            rows.append(" + ".join(terms) + (" - T <= 0" if cost_cap is not None else f" <= {slack(deadline):.12g}"))
    cost = " + ".join(cost_terms)
    rows.append(f"{cost} <= {slack(budget):.12g}")
    if cost_cap is not None:
        rows.append(f"{cost} <= {cost_cap:.12g}")
        rows.append(f"T <= {slack(deadline):.12g}")
    text = ["Minimize", " obj: " + ("T" if cost_cap is not None else cost), "Subject To"]
    text += [f" c{i}: {row}" for i, row in enumerate(rows)]
    text += ["Bounds", " T >= 0" if cost_cap is not None else "", "Binaries", " " + " ".join(binaries), "End"]
    return "\n".join(text) + "\n"


def cbc(text):
    with tempfile.TemporaryDirectory() as tmp:
        model, solution = os.path.join(tmp, "m.lp"), os.path.join(tmp, "s.txt")
        with open(model, "w") as f:
            f.write(text)
        start = time.monotonic()
        subprocess.run(["cbc", model, "threads", "1", "ratio", "0", "allowableGap", "0", "sec", str(LIMIT_S), "solve",
                        "solu", solution], capture_output=True, text=True)
        elapsed = time.monotonic() - start
        with open(solution) as f:
            head = f.readline()
    status = ("optimal" if head.startswith("Optimal") else "infeasible" if "nfeasible" in head
              else "stopped" if head.startswith("Stopped") else head.strip())
    value = re.search(r"objective value\s+(-?[0-9.eE+-]+)", head)
    return status, float(value.group(1)) if value else None, elapsed


def main():
    schedcheck, paths = sys.argv[1], sys.argv[2:]
    ratios, ours_ms, milp_ms = [], [], []
    proven_both = 0
    for path in paths:
        instance = json.load(open(path))
        opt, process = solve_ours(schedcheck, path)
        metrics = opt.get("metrics") or {}
        name = os.path.basename(path)
        if "deadline" not in metrics:  # infeasible: derive the limits from a policy run instead
            report = json.loads(subprocess.run([schedcheck, "check", "dbc-cost-time", "-i", path, "--policy",
                                                "dbc-cost-time", "--exact", "none", "--json"],
                                               capture_output=True, text=True).stdout)
            metrics = report["heuristic"]["metrics"]
        text = lp_text(instance, metrics["deadline"], metrics["budget"])
        if text is None:
            print(f"{name}: a job fits nowhere; skipped")
            continue
        status, cost, t1 = cbc(text)
        t2, span, status2 = 0.0, None, "not run"
        if status in ("optimal", "stopped") and cost is not None:
            status2, span, t2 = cbc(lp_text(instance, metrics["deadline"], metrics["budget"],
                                            cost + 1e-9 * max(1.0, abs(cost))))
        ours = process * 1e3  # whole process, as CBC's
        ours_span = (opt.get("metrics") or {}).get("makespan")
        milp = (t1 + t2) * 1e3
        if status not in ("optimal", "infeasible") or opt["status"] not in ("optimal", "infeasible"):
            agree = "not both proven"
        elif status == opt["status"] and (status == "infeasible" or abs(cost - opt["objective"]) <= 1e-6 * max(1, cost)):
            agree = "agree"
        else:
            agree = "DISAGREE"
        print(f"{name}: schedcheck {opt['status']} cost {opt['objective']:.1f} makespan {ours_span} in {ours:.1f} ms "
              f"(process; solve {opt['seconds'] * 1e3:.1f} ms, phases {opt.get('phases')}); CBC {status} cost {cost} makespan {span} ({status2}) in {milp:.0f} ms "
              f"(cost {t1 * 1e3:.0f} + tie-break {t2 * 1e3:.0f}); {agree}; "
              f"CBC / schedcheck {milp / ours:.0f}x")
        ratios.append(milp / ours)
        ours_ms.append(ours)
        proven_both += status == "infeasible" or (status == "optimal" and status2 == "optimal")
        milp_ms.append(milp)
    if ratios:
        print(f"median: schedcheck {statistics.median(ours_ms):.1f} ms, CBC {statistics.median(milp_ms):.0f} ms, "
              f"CBC / schedcheck {statistics.median(ratios):.0f}x; max: schedcheck {max(ours_ms):.1f} ms, CBC "
              f"{max(milp_ms):.0f} ms; CBC proved both phases on {proven_both} of {len(ratios)}")


if __name__ == "__main__":
    main()
