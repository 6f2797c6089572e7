"""Who waits under EASY backfilling on KTH-SP2, and is its schedule conservative? (docs/python.md, step 4)

Simulates the trace with three policies (every invariant checked on every decision), compares the waits of wide and
narrow jobs under EASY, and audits EASY's schedule as if it claimed conservative backfilling. Usage, from the source
tree: PYTHONPATH=build/python /usr/bin/python3 examples/python/analyse_easy.py [TRACE]
"""
import statistics
import sys

import schedcheck

kth = sys.argv[1] if len(sys.argv) > 1 else "../shared/traces/KTH-SP2-1996-2.1-cln.swf"
runs = {p: schedcheck.simulate(kth, policy=p, check=True) for p in ("fcfs", "easy", "conservative")}
print({p: round(r["summary"]["bounded_slowdown"]["mean"], 2) for p, r in runs.items()})
print("violations:", sum(r["summary"]["invariants"]["violations_total"] for r in runs.values()))

jobs = runs["easy"]["jobs"]
wide = [j["waiting_time"] for j in jobs if j["requested_number_of_resources"] >= 32]
narrow = [j["waiting_time"] for j in jobs if j["requested_number_of_resources"] < 32]
print("wide:", len(wide), round(statistics.mean(wide)), "narrow:", len(narrow), round(statistics.mean(narrow)))

rows = [{k: j[k] for k in ("job_id", "starting_time", "finish_time")} for j in jobs]
verdict = schedcheck.audit(kth, rows, policy="conservative")
print("conservative-guarantee:", verdict["violations_by_invariant"]["conservative-guarantee"], "certain;",
      verdict["differences_total"], "differences from schedcheck's replay")
print(verdict["violations"][0]["detail"])
