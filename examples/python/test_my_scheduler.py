# Regression tests of a Python scheduler with pytest (docs/python.md): every counterexample schedcheck once found
# (corpus/*.json, written by check_my_scheduler.py) is replayed; the test says whether my_scheduler still fails it.
# Flip `expected` to True in a file's "schedcheck" block once the scheduler is fixed. Our own example.
import glob
import json
import os

import pytest
import schedcheck
from my_scheduler import by_density

CORPUS = os.environ.get("MY_CORPUS", os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus"))
FILES = sorted(glob.glob(os.path.join(CORPUS, "*.json")))


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_known_counterexample(path):
    document = json.load(open(path))
    block = document["schedcheck"]
    report = schedcheck.check(block["problem"], document, policy=by_density, tolerance=block["tolerance"])
    failing = sorted(p["name"] for p in report["properties"] if p["holds"] is False)
    # Recorded as failing: it must still fail the same way (a change is news either way: fixed, or worse).
    assert failing == sorted(block["verdict"]["fails"]), f"{path}: now fails {failing}"


def test_hand_computed_instance_keeps_its_value():
    here = os.path.dirname(os.path.abspath(__file__))
    report = schedcheck.check("sla-admission", os.path.join(here, "..", "sla-greedy-vs-optimum.json"), policy=by_density)
    # Incentive per processor (price x run time): A 200, B 180, C 160, D 100: A (6 processors), then D (1); B and C
    # no longer fit. 1200 + 100.
    assert report["heuristic"]["objective"] == pytest.approx(1300)
