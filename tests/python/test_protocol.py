# The decision protocol of policies outside C++ (docs/protocol.md), through the schedcheck executable: for every
# problem that takes them and every built-in policy, the decision `check --json` shows validates against
# `schedcheck protocol --schema`, and a --policy-cmd policy that answers exactly that decision gets the same
# objective and the same decision back (the readers invert the writers). Our own. Run by ctest (pytest).
import json
import os
import shlex
import subprocess
import sys

import jsonschema
import pytest

SCHEDCHECK = os.environ.get("SCHEDCHECK", "build/cli/schedcheck")
SIDE_KEYS = {"name", "status", "objective", "seconds", "detail", "metrics", "chain", "phases", "core"}


def run(*args, ok=(0, 1, 3)):
    done = subprocess.run([SCHEDCHECK, *args], capture_output=True, text=True)
    assert done.returncode in ok, f"schedcheck {' '.join(args)}: exit {done.returncode}: {done.stderr}"
    return done.stdout


SCHEMAS = json.loads(run("protocol"))
LIST = {p["problem"]: p for p in json.loads(run("list", "--json"))}
CASES = [(problem, policy["name"], seed)
         for problem in sorted(SCHEMAS) if problem != "cluster-run"  # cluster-run: a decision per pass
         for policy in LIST[problem]["policies"]
         if "only_with" not in policy  # it answers only an instance that records a decision (a run's)
         for seed in (1, 2)]


def test_every_problem_with_a_reader_has_a_schema():
    assert set(SCHEMAS) == {p for p in LIST}  # every problem takes policies outside C++
    for schema in SCHEMAS.values():
        jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("problem,policy,seed", CASES)
def test_builtin_decision_validates_and_round_trips(tmp_path, problem, policy, seed):
    instance = tmp_path / "instance.json"
    instance.write_text(run("generate", problem, "--seed", str(seed), "--size", "5"))
    first = json.loads(run("check", problem, "--policy", policy, "-i", str(instance), "--json", "--exact", "none"))
    decision = {k: v for k, v in first["heuristic"].items() if k not in SIDE_KEYS}
    jsonschema.validate(decision, SCHEMAS[problem])
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps(decision))
    replay = f"while read -r line; do cat {shlex.quote(str(answer))}; echo; done"
    second = json.loads(run("check", problem, "--policy-cmd", replay, "-i", str(instance), "--json", "--exact", "none"))
    assert second["heuristic"]["status"] == first["heuristic"]["status"], (problem, policy, decision)
    assert second["heuristic"]["objective"] == pytest.approx(first["heuristic"]["objective"], rel=1e-12), decision
    again = {k: v for k, v in second["heuristic"].items() if k not in SIDE_KEYS}
    assert again == decision, f"{problem}/{policy}: read back differs"


def test_an_answer_outside_the_schema_is_refused(tmp_path):
    instance = tmp_path / "instance.json"
    instance.write_text(run("generate", "sla-admission", "--seed", "1", "--size", "4"))
    done = subprocess.run([SCHEDCHECK, "check", "sla-admission", "-i", str(instance), "--policy-cmd",
                           "while read -r l; do echo '{\"accepted\": \"b1\"}'; done"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert "accepted: expected an array" in done.stderr


@pytest.mark.parametrize("problem,answer,message", [
    ("offers", {"offers": [], "staircase": [], "x": 1}, "unknown field"),
    ("offers", {"offers": [{"tasks": 1, "completion": 5, "schedule": {}}], "staircase": []}, "missing required field"),
    ("deadline-feasibility", {"schedulable": False, "schedule": {}}, "a policy does not prove infeasibility"),
    ("queue-window", {"start": {"nope": 1}}, "unknown key (expected the id of a waiting job"),
    ("dbc-cost-time", {"accepted": [], "start": {}, "placement": {}, "unassigned": 3}, "expected an array"),
    ("offer-composition", {"assigned": [{"provider": "?", "tasks": 1, "from": "offer", "completion": 1}]},
     "expected the id of a provider"),
])
def test_malformed_decisions_name_the_field(tmp_path, problem, answer, message):
    instance = tmp_path / "instance.json"
    instance.write_text(run("generate", problem, "--seed", "2", "--size", "3"))
    answer_file = tmp_path / "answer.json"
    answer_file.write_text(json.dumps(answer))
    done = subprocess.run([SCHEDCHECK, "check", problem, "-i", str(instance), "--exact", "none", "--policy-cmd",
                           f"while read -r l; do cat {shlex.quote(str(answer_file))}; echo; done"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert message in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_waves_beyond_a_jobs_tasks_are_refused(tmp_path):
    instance = tmp_path / "instance.json"
    instance.write_text(run("generate", "deadline-feasibility", "--seed", "2", "--size", "3"))
    first = json.loads(run("check", "deadline-feasibility", "--policy", "edf", "-i", str(instance), "--json", "--exact", "none"))
    decision = {k: v for k, v in first["heuristic"].items() if k not in SIDE_KEYS}
    job = next(k for k, v in decision["schedule"].items() if isinstance(v, list))
    decision["schedule"][job] = [{"start": 0, "tasks": 10 ** 6}]
    answer_file = tmp_path / "answer.json"
    answer_file.write_text(json.dumps(decision))
    done = subprocess.run([SCHEDCHECK, "check", "deadline-feasibility", "-i", str(instance), "--exact", "none",
                           "--policy-cmd", f"while read -r l; do cat {shlex.quote(str(answer_file))}; echo; done"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "tasks" in done.stderr, done.stderr
