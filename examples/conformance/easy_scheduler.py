#!/usr/bin/env python3
# A small FCFS and EASY backfilling scheduler (one reservation, for the first waiting job) over an SWF trace, the
# kind of scheduler `schedcheck conformance run` tests: it writes the per-job CSV the suite reads. Our own; the rules
# are docs/simulation.md's. --bug plants a mistake: a backfilled job need only fit now, however long it runs past
# the first waiting job's reservation (the shadow time) and whatever processors that job needs then.
# Limits: one pass after all the events of an instant; reads the trace the default way (or killed at the requested
# time, or with exact estimates): any other option of a case is refused.
import argparse
import sys


def read_swf(path, exact_estimates, kill_at_request):
    header, jobs = {}, []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith(";"):
                words = line[1:].split(":", 1)
                if len(words) == 2 and words[1].split():
                    header[words[0].strip()] = words[1].split()[0]  # "MaxNodes: 338 (batch partition)": 338
                continue
            if not line:
                continue
            f_ = [float(x) for x in line.split()]
            job_id, submit, run, allocated, requested, req_time, status = f_[0], f_[1], f_[3], f_[4], f_[7], f_[8], f_[10]
            procs = allocated if allocated > 0 else requested
            if run < 0 or procs <= 0 or (status == 5 and run == 0):
                continue  # no run time, no processors, cancelled while waiting: no job
            estimate = run if exact_estimates or req_time <= 0 else req_time  # -1 or 0: no usable request
            if kill_at_request and req_time > 0:
                run = min(run, req_time)
            jobs.append({"id": int(job_id), "submit": submit, "run": run, "estimate": estimate, "procs": int(procs)})
    processors = int(header.get("MaxProcs", header.get("MaxNodes")))
    jobs = [j for j in jobs if j["procs"] <= processors]  # wider than the machine: no schedule runs it
    jobs.sort(key=lambda j: j["submit"])  # stable: file order among equal submit times
    return processors, jobs


def schedule(processors, jobs, policy, bug):
    free, now, queue, running, arrivals = processors, 0.0, [], [], list(jobs)
    started = {}

    def start(job):
        nonlocal free
        free -= job["procs"]
        started[job["id"]] = now
        running.append(job)

    while arrivals or queue or running:
        now = min([a["submit"] for a in arrivals[:1]] + [started[r["id"]] + r["run"] for r in running])
        for r in [r for r in running if started[r["id"]] + r["run"] <= now]:  # the completions of this instant
            running.remove(r)
            free += r["procs"]
        while arrivals and arrivals[0]["submit"] <= now:  # then its arrivals, in trace order
            queue.append(arrivals.pop(0))
        while queue and queue[0]["procs"] <= free:  # one pass: the head first
            start(queue.pop(0))
        if policy != "easy" or not queue:
            continue
        pivot = queue[0]  # its reservation: the first estimated end with enough processors free
        available, shadow = free, now
        for r in sorted(running, key=lambda r: max(now, started[r["id"]] + r["estimate"])):
            if available >= pivot["procs"]:
                break
            available += r["procs"]
            shadow = max(now, started[r["id"]] + r["estimate"])
        extra = available - pivot["procs"]
        for job in list(queue[1:]):
            if job["procs"] > free:
                continue
            ends_before = now + job["estimate"] <= shadow
            if bug or ends_before or job["procs"] <= extra:
                queue.remove(job)
                start(job)
                if not ends_before:
                    extra -= job["procs"]
    return started


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--trace", required=True)
    p.add_argument("--policy", required=True, choices=["fcfs", "easy"])
    p.add_argument("--pivots", type=int, default=1)
    p.add_argument("--out", required=True)
    p.add_argument("--bug", action="store_true", help="backfill whatever fits now (the planted bug)")
    a, options = p.parse_known_args()  # the rest: the case's reading ({options}), e.g. --kill-at-request
    kill = "--kill-at-request" in options
    exact = options[options.index("--estimates") + 1] == "runtime" if "--estimates" in options else False
    known = {"--kill-at-request", "--estimates", "runtime", "requested"}
    if a.pivots != 1 or any(o not in known for o in options):
        print(f"easy_scheduler.py: unsupported reading {' '.join(options)} (pivots {a.pivots})", file=sys.stderr)
        return 2
    processors, jobs = read_swf(a.trace, exact, kill)
    started = schedule(processors, jobs, a.policy, a.bug)
    with open(a.out, "w") as f:
        f.write("job_id,submission_time,starting_time,finish_time\n")
        for j in jobs:
            s = started[j["id"]]
            f.write(f"{j['id']},{j['submit']!r},{s!r},{s + j['run']!r}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
