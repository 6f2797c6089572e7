# A small reference conservative-backfilling simulator (count model), our own, after pyss's conservative
# scheduler (one pass per event: schedulers/conservative_scheduler.py, base/prototype.py of dinesh121991/pyss),
# to produce legal schedules that differ from schedcheck's once-per-instant one. Limits: clean SWF traces only
# (a record that schedcheck would skip is an error here), no processor identities, no rounding conventions.
"""Usage: python3 per_event_conservative.py TRACE.swf PROCESSORS > schedule.csv
       python3 per_event_conservative.py --generate SEED [JOBS] > trace.swf   (the seeded trace of per-event-random.swf)

Reading (docs/simulation.md, "Reading a trace"): processors = field 5 (field 8 when field 5 is -1), estimate =
field 9 (field 4 when field 9 is -1 or 0), the job runs min(field 4, estimate) (killed at its estimate); jobs in
submit order, file order among equal submit times.

Scheduling: a job gets a reservation when it is submitted, at the earliest time >= now where its processors are free
for its whole estimate in the profile of the running jobs (held until start + estimate) and of the earlier
reservations; it starts when its reservation falls due. When a job completes (early or not, as pyss; schedcheck
compresses only when capacity came back early), compression: every waiting job, in submission order, is taken out
and placed again at its earliest fit (never later: checked), and starts if that is now.

Event order at one instant, ONE event at a time, one pass after each: reservations falling due first (pyss's
compression skips a job whose start_to_run_at_time <= now), then completions, then submissions. Completions before
submissions as in pyss (JobEvent.EVENTS_ORDER = [JobTerminationEvent, JobPredictionIsOverEvent, JobStartEvent,
JobSubmissionEvent]; the predictsim fork later puts JobSubmissionEvent first). Among equal events, the job order of
the trace (pyss breaks ties by a global event counter: completions in the order the jobs were started,
submissions in trace order): a fixed, documented rule that keeps hand checks simple; either order is legal.

Checks (exit 1 on a violation): no start before submit, capacity never exceeded, each job runs min(run, estimate),
no compression moves a job later, every job starts no later than the reservation it got at submission.
"""
import heapq
import random
import sys

EPS = 1e-9


def fail(msg):
    print(f"per_event_conservative: {msg}", file=sys.stderr)
    sys.exit(1)


def read_swf(path, processors):
    jobs = []  # dicts: id, submit, procs, est, run, line
    with open(path) as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith(";"):
                continue
            x = [float(v) for v in s.split()]
            if len(x) != 18:
                sys.exit(f"{path}: line {n}: expected 18 fields")
            run, procs = x[3], (x[4] if x[4] != -1 else x[7])
            est = x[8] if x[8] > 0 else run
            if run < 0 or procs < 1 or procs > processors or x[1] < 0 or est <= 0 or procs != int(procs):
                sys.exit(f"{path}: line {n}: not a clean record (schedcheck would skip or refuse it)")
            jobs.append(dict(id=x[0], submit=x[1], procs=int(procs), est=est, run=min(run, est), field4=run, line=n))
    jobs.sort(key=lambda j: (j["submit"], j["line"]))  # stable: file order among equal submit times
    return jobs


def usage_at(t, holds):
    return sum(p for (a, b, p) in holds if a <= t + EPS and t < b - EPS)


def earliest_fit(now, procs, est, holds, P):
    """Earliest t >= now with procs free over [t, t + est) given holds [(start, end, procs)]."""
    live = [h for h in holds if h[1] > now + EPS]
    for t in sorted({now} | {b for (_, b, _) in live}):
        points = [t] + [a for (a, _, _) in live if t < a < t + est - EPS]
        if all(usage_at(q, live) + procs <= P for q in points):
            return t
    fail("no fit (job wider than the machine?)")


def simulate(jobs, P):
    running = {}  # k -> (start, est end) while the profile holds it
    waiting = []  # trace indices, in submission order
    res = {}  # k -> reservation start of a waiting job
    first_res, start = {}, {}
    events = [(j["submit"], 1, k) for k, j in enumerate(jobs)]  # kind 0 completion, 1 submission
    heapq.heapify(events)

    def holds(exclude=None):
        h = [(s, e, jobs[k]["procs"]) for k, (s, e) in running.items()]
        return h + [(res[k], res[k] + jobs[k]["est"], jobs[k]["procs"]) for k in waiting if k != exclude]

    def begin(k, now):
        waiting.remove(k)
        del res[k]
        start[k] = now
        running[k] = (now, now + jobs[k]["est"])
        heapq.heappush(events, (now + jobs[k]["run"], 0, k))

    while events or waiting:
        due = min((res[k] for k in waiting), default=float("inf"))
        if not events or due <= events[0][0] + EPS:  # a reservation falls due: the job starts
            now = due
            for k in [k for k in waiting if res[k] <= now + EPS]:
                begin(k, now)
            continue
        now, kind, k = heapq.heappop(events)
        j = jobs[k]
        if kind == 1:  # submission: a reservation at the earliest fit; starts now if that is now
            t = earliest_fit(now, j["procs"], j["est"], holds(), P)
            waiting.append(k)
            res[k] = first_res[k] = t
            if t <= now + EPS:
                begin(k, now)
        else:  # completion: the job's tail is released, then compression in submission order
            del running[k]
            for w in list(waiting):
                if res[w] <= now + EPS:
                    continue  # due now: treated as started (pyss skips start_to_run_at_time <= now)
                t = earliest_fit(now, jobs[w]["procs"], jobs[w]["est"], holds(exclude=w), P)
                if t > res[w] + EPS:
                    fail(f"compression moved job {jobs[w]['id']:g} later: {res[w]:g} -> {t:g}")
                res[w] = t
                if t <= now + EPS:
                    begin(w, now)
    return start, first_res


def check(jobs, P, start, first_res):
    sweep = []
    for k, j in enumerate(jobs):
        s = start[k]
        if s < j["submit"] - EPS:
            fail(f"job {j['id']:g} starts at {s:g} before its submission {j['submit']:g}")
        if s > first_res[k] + EPS:
            fail(f"job {j['id']:g} starts at {s:g}, after the reservation {first_res[k]:g} it got at submission")
        if abs(j["run"] - min(j["field4"], j["est"])) > EPS:
            fail(f"job {j['id']:g} runs {j['run']:g}, not min(run time, estimate)")
        sweep += [(s + j["run"], -j["procs"]), (s, j["procs"])]  # ends before starts at one instant
    used = 0
    for t, d in sorted(sweep):
        used += d
        if used > P:
            fail(f"{used} processors in use at {t:g} on {P}")


def fmt(v):
    return str(int(v)) if float(v).is_integer() else repr(v)


def generate(seed, count):
    """count jobs on 16 processors (offered load about 0.8), times on a 10 s grid; estimates >= run."""
    rng = random.Random(seed)
    print(f"; per-event-random: {count} jobs of 1-16 processors on 16, submit gaps and run times (10 s to 300 s) in multiples")
    print("; of 10 s, so equal-time events are frequent; estimate = run time for 20% of the jobs, else run time x 1-3")
    print("; rounded up to a multiple of 60 s (early completions, often several at one instant, trigger compression).")
    print(f"; Generated by: python3 tests/data/per_event_conservative.py --generate {seed} {count}  (random.Random({seed}))")
    print("; MaxProcs: 16")
    t = 0
    for i in range(1, count + 1):
        t += 10 * rng.choice([0, 0, 1, 2, 4, 6, 8, 10, 12])
        run = 10 * rng.choice([1, 2, 3, 6, 6, 12, 12, 18, 24, 30])
        procs = rng.choice([1, 1, 2, 2, 4, 4, 8, rng.randint(1, 16), 16])
        est = run if rng.random() < 0.2 else 60 * -(-int(run * rng.uniform(1, 3)) // 60)
        print(f"{i} {t} -1 {run} {procs} -1 -1 {procs} {est} -1 1 1 1 -1 -1 -1 -1 -1")


def main(argv):
    if len(argv) >= 3 and argv[1] == "--generate":
        return generate(int(argv[2]), int(argv[3]) if len(argv) > 3 else 300)
    if len(argv) != 3:
        sys.exit(__doc__)
    P = int(argv[2])
    jobs = read_swf(argv[1], P)
    start, first_res = simulate(jobs, P)
    check(jobs, P, start, first_res)
    print("job_id,submission_time,starting_time,finish_time")
    for k, j in sorted(enumerate(jobs), key=lambda kj: kj[1]["line"]):
        print(",".join(fmt(v) for v in (j["id"], j["submit"], start[k], start[k] + j["run"])))


if __name__ == "__main__":
    main(sys.argv)
