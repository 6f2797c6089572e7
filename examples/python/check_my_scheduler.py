#!/usr/bin/env python3
# The tutorial of docs/python.md as one script: check a Python scheduler against the exact optimum on a
# hand-computed instance, search for counterexamples, shrink them, and keep them as corpus files for the pytest
# regression suite beside it (test_my_scheduler.py). Our own. Run: python3 check_my_scheduler.py [CORPUS_DIR]
import json
import os
import sys

import schedcheck
from my_scheduler import by_density

here = os.path.dirname(os.path.abspath(__file__))
corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "corpus")

# 1. One instance, against the optimum.
report = schedcheck.check("sla-admission", os.path.join(here, "..", "sla-greedy-vs-optimum.json"), policy=by_density)
print(f"by_density {report['heuristic']['objective']:g}, optimum {report['optimum']['objective']:g} "
      f"({report['optimum']['status']}), gap {report['gap']:.1%}")
for p in report["properties"]:
    print(f"  {p['name']:<20} {p['status']:<9} {p['detail']}")

# 2. A thousand random instances; the first failures shrunk and written as corpus files.
summary = schedcheck.search("sla-admission", by_density, trials=1000, seed=1, size=10, tolerance=0.05,
                            max_counterexamples=3, out=corpus)
print(f"{summary['checked']} checked, {summary['failing']} fail (gap > 5%): {summary['failing_by_property']}")
for found in summary["counterexamples"]:
    print(f"  {found['file']}: {found['original_size']} -> {found['shrunk_size']} bids, gap {found['gap']:.1%}")
    print("   ", json.dumps(found["report"]["heuristic"]["accepted"]), "vs optimum",
          json.dumps(found["report"]["optimum"]["accepted"]))
