# The Python module (docs/python.md): problems, instances, built-in and Python policies checked against
# the optimum, search and shrink with a Python policy, corpus files, errors as Python exceptions. Our own.
# Run by ctest with PYTHONPATH at the built module (pytest from Debian).
import json
import os

import pytest
import schedcheck

GREEDY_EXAMPLE = {
    "kind": "sla-site", "name": "hand", "site": {"processors": 10, "free": 10, "mips": 100, "price": 2},
    "bids": [{"id": "A", "procs": 6, "length": 60000, "budget": 2400, "deadline": 300},
             {"id": "B", "procs": 5, "length": 45000, "budget": 1800, "deadline": 270},
             {"id": "C", "procs": 5, "length": 40000, "budget": 1600, "deadline": 240},
             {"id": "D", "procs": 1, "length": 5000, "budget": 50, "deadline": 150}]}


def first_fit(instance):
    site = instance["site"]
    free = site.get("free", site["processors"] - sum(r["procs"] for r in instance.get("running", [])))
    accepted = []
    for bid in instance["bids"]:
        if bid["procs"] <= free:
            accepted.append(bid["id"])
            free -= bid["procs"]
    return {"accepted": accepted}


def test_problems_and_instances():
    problems = {p["problem"]: p for p in schedcheck.problems()}
    assert "sla-admission" in problems and problems["sla-admission"]["external_policies"]
    assert {"greedy-backfilling", "fcfs"} <= {p["name"] for p in problems["sla-admission"]["policies"]}
    a = schedcheck.generate("sla-admission", seed=7, size=6)
    assert a == schedcheck.generate("sla-admission", seed=7, size=6) and len(a["bids"]) == 6
    assert schedcheck.read_instance("sla-admission", a) == a  # generated instances are already as written
    with pytest.raises(ValueError, match=r"bids\[0\]\.procs"):
        schedcheck.read_instance("sla-admission", {**a, "bids": [{**a["bids"][0], "procs": -1}]})
    assert schedcheck.decision_schema("sla-admission")["required"] == ["accepted"]


def test_check_builtin_and_python_policies_against_the_optimum():
    # The hand-computed example (price x processor time): first fit takes A (6) and D (1): 1200 + 100 = 1300; the
    # optimum B + C = 900 + 800 = 1700.
    r = schedcheck.check("sla-admission", GREEDY_EXAMPLE, policy=first_fit)
    assert r["heuristic"]["accepted"] == ["A", "D"] and r["heuristic"]["objective"] == pytest.approx(1300)
    assert r["optimum"]["status"] == "optimal" and r["optimum"]["objective"] == pytest.approx(1700)
    assert r["gap"] == pytest.approx(400 / 1700)
    assert r["exit_code"] == 1 and any(p["name"] == "optimal-within" and p["holds"] is False for p in r["properties"])
    within = schedcheck.check("sla-admission", GREEDY_EXAMPLE, policy=first_fit, tolerance=0.25)
    assert within["exit_code"] == 0
    builtin = schedcheck.check("sla-admission", GREEDY_EXAMPLE, policy="greedy-backfilling")
    assert builtin["heuristic"]["objective"] == pytest.approx(1300)
    solved = schedcheck.solve("sla-admission", GREEDY_EXAMPLE, exact="enumeration")
    assert solved["optimum"]["objective"] == pytest.approx(1700) and solved["heuristic"] is None


def test_an_effort_budget_stops_the_exact_method_the_same_way_on_every_run():
    instance = schedcheck.generate("offers", seed=3, size=10)
    small = [schedcheck.solve("offers", instance, exact="bnb", timeout_ms=t, effort=100)["optimum"]
             for t in (60000, 30000)]
    assert small[0]["status"] == "feasible" and "effort budget of 100 reached" in small[0]["detail"]
    assert small[0]["objective"] == small[1]["objective"] and small[0]["detail"] == small[1]["detail"]
    large = schedcheck.solve("offers", instance, exact="bnb", effort=10**9)["optimum"]
    assert large["status"] == "optimal"


def test_python_errors_reach_the_caller():
    with pytest.raises(ZeroDivisionError):
        schedcheck.check("sla-admission", GREEDY_EXAMPLE, policy=lambda i: 1 / 0)
    with pytest.raises(schedcheck.InputError, match="expected the id of a bid of the instance"):
        schedcheck.check("sla-admission", GREEDY_EXAMPLE, policy=lambda i: {"accepted": ["Z"]})
    with pytest.raises(ValueError, match="expected JSON-like values"):
        schedcheck.check("sla-admission", GREEDY_EXAMPLE, policy=lambda i: {"accepted": [object()]})
    with pytest.raises(TypeError):
        schedcheck.check("sla-admission", GREEDY_EXAMPLE, policy=42)
    with pytest.raises(ValueError, match="unknown policy"):
        schedcheck.check("sla-admission", GREEDY_EXAMPLE, policy="no-such-policy")


def test_search_and_shrink_with_a_python_policy(tmp_path):
    summary = schedcheck.search("sla-admission", first_fit, trials=300, seed=11, size=8, max_counterexamples=2,
                                out=str(tmp_path))
    assert summary["checked"] == 300 and summary["failing"] > 0 and summary["policy"] == "python"
    assert len(summary["counterexamples"]) == 2
    found = summary["counterexamples"][0]
    assert found["shrunk_size"] <= found["original_size"]
    again = schedcheck.check("sla-admission", found["instance"], policy=first_fit)
    assert again["exit_code"] == 1  # the shrunk instance still fails
    corpus = json.load(open(found["file"]))
    assert corpus["schedcheck"]["policy"] == "python" and found["property"] in corpus["schedcheck"]["verdict"]["fails"]
    shrunk = schedcheck.shrink("sla-admission", GREEDY_EXAMPLE, first_fit, "optimal-within")
    assert len(shrunk["instance"]["bids"]) <= 4 and shrunk["report"]["exit_code"] == 1
    # The same seed gives the same instances: the Python policy and the built-in fcfs see the same trials.
    assert schedcheck.search("sla-admission", first_fit, trials=50, seed=3, max_counterexamples=0)["failing"] == \
        schedcheck.search("sla-admission", first_fit, trials=50, seed=3, max_counterexamples=0)["failing"]


def test_search_on_two_threads_finds_what_one_finds():
    def untimed(x):
        if isinstance(x, dict):
            return {k: untimed(v) for k, v in x.items() if "second" not in k}
        if isinstance(x, list):
            return [untimed(v) for v in x]
        return x
    one = schedcheck.search("sla-admission", "greedy-backfilling", trials=300, size=20)
    two = schedcheck.search("sla-admission", "greedy-backfilling", trials=300, size=20, jobs=2)
    assert one["failing"] > 0 and len(one["counterexamples"]) == 5
    assert untimed(one) == untimed(two)
    with pytest.raises(ValueError, match="one thread"):
        schedcheck.search("sla-admission", first_fit, trials=3, jobs=2)


def test_search_says_when_a_corpus_write_fails(tmp_path):
    # As `search --json`: a write that fails (here /dev/full behind the temporary names) stops the writing, not the
    # search; `write_error` says why (None when every write succeeded), and the counterexamples are still returned.
    first = tmp_path / "first"
    summary = schedcheck.search("sla-admission", "greedy-backfilling", trials=20, size=6, out=str(first))
    assert summary["write_error"] is None and summary["counterexamples"]
    assert schedcheck.search("sla-admission", "greedy-backfilling", trials=5, size=6)["write_error"] is None
    if not os.access("/dev/full", os.W_OK):
        pytest.skip("no writable /dev/full")
    full = tmp_path / "full"
    full.mkdir()
    for name in os.listdir(first):
        os.symlink("/dev/full", full / (name + ".tmp"))
    summary = schedcheck.search("sla-admission", "greedy-backfilling", trials=20, size=6, out=str(full))
    assert summary["checked"] == 20 and summary["counterexamples"]
    assert "write failed" in (summary["write_error"] or "") and str(full) in summary["write_error"]
    assert all(found["file"] is None for found in summary["counterexamples"])


def test_cluster_run_with_a_python_pass_policy():
    workload = schedcheck.generate("cluster-run", seed=2, size=12)
    def fcfs(snapshot):
        free = snapshot["processors"] - sum(j["procs"] for j in snapshot["running"])
        start = []
        for job in snapshot["queue"]:
            if job["procs"] > free:
                break
            free -= job["procs"]
            start.append({"id": job["id"]})
        return {"start": start}
    mine = schedcheck.check("cluster-run", workload, policy=fcfs, exact="none")
    builtin = schedcheck.check("cluster-run", workload, policy="fcfs", exact="none")
    assert mine["heuristic"]["objective"] == pytest.approx(builtin["heuristic"]["objective"])
    assert mine["heuristic"]["start"] == builtin["heuristic"]["start"]
    # fcfs-order is the built-in fcfs's promise: it holds there, and does not apply to a Python policy (not "holds").
    statuses = {p["name"]: (p["status"], p["holds"]) for p in mine["properties"]}
    assert statuses["fcfs-order"] == ("not applicable", None) and statuses["capacity"] == ("holds", True)
    assert {p["name"]: p["status"] for p in builtin["properties"]}["fcfs-order"] == "holds"
    assert mine["exit_code"] == 0


def test_a_policy_may_call_schedcheck_itself():
    def via_builtin(instance):  # nested: the outer call's policy is restored afterwards
        inner = schedcheck.check("sla-admission", instance, policy="greedy-backfilling", exact="none")
        return {"accepted": inner["heuristic"]["accepted"]}
    r = schedcheck.check("sla-admission", GREEDY_EXAMPLE, policy=via_builtin)
    assert r["heuristic"]["accepted"] == ["A", "D"]
    assert schedcheck.check("sla-admission", GREEDY_EXAMPLE, policy=first_fit)["heuristic"]["accepted"] == ["A", "D"]


# ---- trace-driven simulation from Python: simulate, audit, experiments (docs/python.md)
import pathlib

SOURCE = pathlib.Path(__file__).resolve().parents[2]
SMALL = str(SOURCE / "examples" / "small-cluster.swf")


def test_simulate_a_trace_with_builtin_and_python_policies():
    run = schedcheck.simulate(SMALL, policy="easy", check=True, check_windows=4)
    summary, jobs = run["summary"], run["jobs"]
    assert summary["policy"] == "easy" and summary["invariants"]["violations_total"] == 0
    assert summary["windows"]["windows"] > 0 and summary["windows"]["undecided"] == 0
    assert len(jobs) == summary["finished"] > 0
    assert all(j["starting_time"] >= j["submission_time"] for j in jobs)
    waits = [j["waiting_time"] for j in jobs]
    assert abs(sum(waits) / len(waits) - summary["wait"]["mean"]) < 1e-9

    # A Python FCFS (snapshot dict in, decision dict out: docs/protocol.md) schedules exactly as the built-in one.
    def fcfs(snapshot):
        free = snapshot["processors"] - sum(r["procs"] for r in snapshot["running"] if r["estimated_end"] > snapshot["now"])
        start = []
        for job in snapshot["queue"]:
            if job["procs"] > free:
                break
            start.append({"id": job["id"]})
            free -= job["procs"]
        return {"start": start}

    mine = schedcheck.simulate(SMALL, policy=fcfs)
    builtin = schedcheck.simulate(SMALL, policy="fcfs")
    assert [j["starting_time"] for j in mine["jobs"]] == [j["starting_time"] for j in builtin["jobs"]]
    assert mine["summary"]["invariants"]["violations_total"] == 0  # a policy outside C++ is always checked

    # Several clusters behind a router: each job says where it ran.
    routed = schedcheck.simulate(SMALL, policy="conservative", clusters=[4, 4], broker="round-robin", latency=1)
    assert {j["cluster"] for j in routed["jobs"]} == {0, 1}
    assert routed["summary"]["broker"]["job_messages"] == routed["summary"]["simulated"]
    with pytest.raises(ValueError, match="model"):
        schedcheck.simulate(SMALL, model="identity")
    with pytest.raises(ValueError, match="latency"):
        schedcheck.simulate(SMALL, clusters=[4, 4], broker="round-robin", latency=-1)
    with pytest.raises(ValueError, match="status-period"):
        schedcheck.simulate(SMALL, clusters=[4, 4], status_period=1e-300)
    with pytest.raises(ValueError, match="warmup"):
        schedcheck.simulate(SMALL, warmup=float("nan"))


def test_simulate_takes_policy_parameters():
    # pivots=3 and policy_params={"pivots": 3} are one assignment; bad names and values are one ValueError each.
    by_keyword = schedcheck.simulate(SMALL, policy="easy", pivots=3)
    by_params = schedcheck.simulate(SMALL, policy="easy", policy_params={"pivots": 3})
    assert by_keyword["jobs"] == by_params["jobs"]
    assert by_keyword["summary"]["pivots"] == by_params["summary"]["pivots"] == 3
    assert schedcheck.simulate(SMALL, policy="easy", policy_params={"pivots": "inf"})["summary"]["pivots"] == "inf"
    assert schedcheck.simulate(SMALL, policy="fcfs", pivots=2)["summary"]["pivots"] is None  # ignored by fcfs
    with pytest.raises(ValueError, match=r"policy_params: expected a parameter of easy \(one of pivots\)"):
        schedcheck.simulate(SMALL, policy="easy", policy_params={"depth": 2})
    with pytest.raises(ValueError, match="policy_params: pivots: expected a whole number from 1"):
        schedcheck.simulate(SMALL, policy="easy", policy_params={"pivots": 0})
    with pytest.raises(ValueError, match="pivots: expected a whole number from 1"):
        schedcheck.simulate(SMALL, policy="easy", pivots=0)
    with pytest.raises(ValueError, match="policy_params: pivots: expected a whole number"):
        schedcheck.simulate(SMALL, policy="easy", policy_params={"pivots": 2.5})


def test_audit_a_schedule_from_rows():
    run = schedcheck.simulate(SMALL, policy="easy")
    rows = [{k: j[k] for k in ("job_id", "starting_time", "finish_time")} for j in run["jobs"]]
    verdict = schedcheck.audit(SMALL, rows, policy="easy")
    assert verdict["violations_total"] == 0 and verdict["exit_code"] == 0
    # The same schedule claimed to be FCFS: EASY backfilled, so fcfs-order breaks.
    claimed = schedcheck.audit(SMALL, rows, policy="fcfs")
    assert claimed["violations_by_invariant"]["fcfs-order"] > 0 and claimed["exit_code"] == 1
    # A job missing from the schedule: jobs-conserved names it.
    missing = schedcheck.audit(SMALL, rows[1:], policy="easy")
    assert missing["violations_by_invariant"]["jobs-conserved"] == 1
    # Certain violations and differences from the replay apart; a run deciding per event, audited as one.
    assert claimed["differences_total"] == 0 and claimed["no_certain_check"] == []
    per_event = schedcheck.simulate(SMALL, policy="conservative", passes="event")
    assert per_event["summary"]["invariants"]["violations_total"] == 0
    rows2 = [{k: j[k] for k in ("job_id", "starting_time", "finish_time")} for j in per_event["jobs"]]
    same = schedcheck.audit(SMALL, rows2, policy="conservative", passes="event")
    assert same["violations_total"] == 0 and same["differences_total"] == 0
    with pytest.raises(ValueError, match="passes"):
        schedcheck.audit(SMALL, rows2, policy="conservative", passes="sometimes")
    with pytest.raises(ValueError, match=r"schedule: \[0\]\.starting_time"):
        schedcheck.audit(SMALL, [{"job_id": 1, "starting_time": -5, "finish_time": 1}], policy="easy")
    with pytest.raises(ValueError, match=r"\[0\]\.allocated_resources"):
        schedcheck.audit(SMALL, [{"job_id": 1, "starting_time": 0, "finish_time": 1, "allocated_resources": 5}],
                         policy="easy")


def test_audit_takes_the_policys_parameters_as_simulate_does():
    run = schedcheck.simulate(SMALL, policy="easy", policy_params={"pivots": 4})
    rows = [{k: j[k] for k in ("job_id", "starting_time", "finish_time")} for j in run["jobs"]]
    for params in ({"policy_params": {"pivots": 4}}, {"pivots": 4}):
        verdict = schedcheck.audit(SMALL, rows, policy="easy", **params)
        assert verdict["violations_total"] == 0 and verdict["differences_total"] == 0, (params, verdict)
    with pytest.raises(ValueError, match=r'policy_params: expected a parameter of easy \(one of pivots\), got "depth"'):
        schedcheck.audit(SMALL, rows, policy="easy", policy_params={"depth": 2})
    with pytest.raises(ValueError, match="policy_params: pivots: expected a whole number from 1"):
        schedcheck.audit(SMALL, rows, policy="easy", policy_params={"pivots": 0})


def test_audit_reads_the_trace_with_the_simulators_conventions():
    # Jobs 100 s longer than the trace says (as a simulator adding a run offset would run them): audited with the
    # trace read plainly, their lengths break run-time-kept; read with the same convention, the schedule is clean.
    longer = {"run_offset": 100}
    run = schedcheck.simulate(SMALL, policy="easy", conventions=longer)
    rows = [{k: j[k] for k in ("job_id", "starting_time", "finish_time")} for j in run["jobs"]]
    assert schedcheck.audit(SMALL, rows, policy="easy", conventions=longer)["violations_total"] == 0
    plain = schedcheck.audit(SMALL, rows, policy="easy")
    assert plain["violations_by_invariant"]["run-time-kept"] > 0 and plain["exit_code"] == 1
    same = schedcheck.audit(SMALL, rows, policy="easy", processor_field="requested", conventions=longer)
    assert same["violations_total"] == 0
    with pytest.raises(ValueError, match="offset: unknown field"):
        schedcheck.audit(SMALL, rows, policy="easy", conventions={"offset": 1})
    with pytest.raises(ValueError, match=r'conventions: round: expected one of "none"'):
        schedcheck.audit(SMALL, rows, policy="easy", conventions={"round": "up"})
    with pytest.raises(ValueError, match="processor_field: expected one of"):
        schedcheck.simulate(SMALL, policy="easy", processor_field="nodes")


def test_experiments_from_python(tmp_path):
    names = [e["name"] for e in schedcheck.experiments()]
    assert "backfilling" in names
    result = schedcheck.experiment("backfilling", str(tmp_path), traces=[SMALL])
    assert result["points"] == result["finished"] == 16 and result["violations"] == 0
    assert len(result["runs"]) == 16
    policies = {r["policy"] for r in result["runs"]}
    assert policies == {"fcfs", "easy", "easy-4", "conservative"}
    assert (tmp_path / "summary.json").exists() and (tmp_path / "runs.csv").exists()
    assert json.loads((tmp_path / "summary.json").read_text())["finished"] == 16
    for bad in ({"seeds": 0}, {"jobs": 2000}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            schedcheck.experiment("backfilling", str(tmp_path / "no"), traces=[SMALL], **bad)
    assert not (tmp_path / "no").exists()  # refused before the folder was made


def test_federation_from_python(tmp_path):
    scenario = str(SOURCE / "examples" / "scenarios" / "federation-greedy-loses.json")
    result = schedcheck.experiment("federation", str(tmp_path / "out"), scenario=scenario, corpus=str(tmp_path / "c"))
    assert result["points"] == result["finished"] == 2 and result["violations"] == 0
    assert [r["bid_share"] for r in result["runs"]] == ["0", "0.5"]
    assert all(r["earnings"] == 160 and r["decisions_checked"] == r["decisions_at_optimum"] == 3 for r in result["runs"])
    assert result["decision_checks"]["problem"] == "sla-admission"


def test_auction_broker_in_python(tmp_path):
    # Paper 003's scenario with U2's broker in Python: uniform submission at the mean bid, never re-bid.
    def uniform(snapshot):
        if not snapshot["initial"]:
            return {}
        names = [r["name"] for r in snapshot["resources"]]
        return {"bids": [{"resource": r["name"], "bid": (r["min_bid"] + r["max_bid"]) / 2} for r in snapshot["resources"]],
                "submit": [{"task": t["id"], "resource": names[i % len(names)]} for i, t in enumerate(snapshot["pending"])]}
    result = schedcheck.experiment("auction", str(tmp_path / "out"), quick=True, policies={"U2": uniform},
                                   policy_name="uniform")
    assert result["finished"] == 2 and result["violations"] == 0
    assert all(r["U2.run_time_h"] > 0 and r["U2.tasks_R4"] == 10 for r in result["runs"])
    assert "uniform" in (tmp_path / "out" / "fig6-run-time.csv").read_text()
    def over(snapshot):  # bids above every maximum: bid-within-bounds counts them
        d = uniform(snapshot)
        for b in d.get("bids", []):
            b["bid"] = 10000
        return d
    result = schedcheck.experiment("auction", str(tmp_path / "over"), quick=True, policies={"U2": over})
    assert result["invariants"]["violations_by_invariant"]["bid-within-bounds"] > 0
    def boom(snapshot):
        raise RuntimeError("boom")
    with pytest.raises(ValueError, match="raised: RuntimeError: boom"):
        schedcheck.experiment("auction", str(tmp_path / "no"), quick=True, policies={"U2": boom})
    assert not (tmp_path / "no").exists()


def test_ctrl_c_stops_a_run_of_built_in_policies(tmp_path):
    # SIGINT while only C++ runs (a built-in policy): the search stops within about a second and raises
    # KeyboardInterrupt with what it found so far; the next call runs normally.
    import os, signal, subprocess, sys, time
    script = tmp_path / "run.py"
    script.write_text(
        "import schedcheck, sys\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    schedcheck.search('sla-admission', 'greedy-backfilling', trials=100000000)\n"
        "    print('not interrupted')\n"
        "except KeyboardInterrupt as e:\n"
        "    print('interrupted', e.args[0], e.args[1]['interrupted'], e.args[1]['checked'] > 0, flush=True)\n"
        "print('next', schedcheck.search('sla-admission', 'greedy-backfilling', trials=20)['checked'], flush=True)\n")
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ), start_new_session=True)
    assert child.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=30)
    assert time.monotonic() - sent < 3.0
    assert out.splitlines() == ["interrupted interrupted by SIGINT True True", "next 20"], out


def test_deep_and_self_referential_dicts_are_refused():
    # Dicts and lists nested past 256 levels, or containing themselves, are refused as JSON files are: InputError.
    deep = {"a": 1}
    for _ in range(100000):
        deep = {"a": deep}
    instance = dict(GREEDY_EXAMPLE, comment=deep)
    with pytest.raises(schedcheck.InputError, match="nested deeper than 256 levels"):
        schedcheck.check("sla-admission", instance, "greedy-backfilling")
    looped = dict(GREEDY_EXAMPLE)
    looped["comment"] = looped
    with pytest.raises(schedcheck.InputError, match="contains itself"):
        schedcheck.check("sla-admission", looped, "greedy-backfilling")
    trace = {"kind": "workload", "processors": 4, "jobs": []}
    trace["jobs"].append(trace)
    with pytest.raises(schedcheck.InputError, match="nested deeper"):
        schedcheck.simulate(trace)


def test_sigint_from_another_thread_carries_the_partial_result(tmp_path):
    # The call runs without the GIL: another Python thread raises SIGINT while simulate runs, and KeyboardInterrupt
    # carries the jobs finished by then (docs/python.md, "Interrupting a call").
    import signal, threading, time
    trace = tmp_path / "big.swf"
    with open(trace, "w") as out:
        for j in range(1, 200001):
            out.write(f"{j} {j * 7} 0 {50 + (j * 37) % 900} {1 + (j * 13) % 64} -1 -1 {1 + (j * 13) % 64} "
                      f"{100 + (j * 37) % 900} -1 1 1 1 1 1 -1 -1 -1\n")
    threading.Thread(target=lambda: (time.sleep(1.0), signal.raise_signal(signal.SIGINT)), daemon=True).start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt) as stopped:
        schedcheck.simulate(str(trace), "easy", processors=128, check_windows=8)
    assert time.monotonic() - started < 10
    message, partial = stopped.value.args
    assert message == "interrupted by SIGINT"
    assert partial["summary"]["interrupted"] is True
    assert 0 < len(partial["jobs"]) < 200000
    assert schedcheck.search("sla-admission", "greedy-backfilling", trials=5)["interrupted"] is False
