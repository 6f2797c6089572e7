#!/usr/bin/env python3
"""The time a sweep or search takes on R ranks, from this machine's measurements. Our own; docs/performance.md
(Scale-out). T(R) = W / (R e) + L + s: W the work of one process (seconds of one core), e the parallel efficiency
measured at 2 ranks (bench/scale.sh), L the longest single item (the critical path: no split makes it shorter), s
each rank's fixed start (reading inputs, an exhaustive scope's own walk of the enumeration). Items are handed out one
at a time, so no rank idles while items remain; L bounds the tail. Usage: bench/scale_model.py [RANKS...]."""
import sys

# name, W (s), e, L (s), s (s), where W, e and L come from
WORKLOADS = [
    ("offer-composition --exhaustive, the default scope (3,173,952 instances)", 58.84, 0.97, 0.05, 1.0,
     "W: bench/scale.sh --jobs 1; e: mpirun -n 2; s: one walk of the enumeration (count 0.49 s, the cursor as much)"),
    ("sla-admission search, 10,000,000 trials (n = 10)", 10_000_000 / 35_297, 0.88, 0.5, 0.1,
     "W: 35,297 trials/s (bench/scale.sh --jobs 1) x 10^7; e: mpirun -n 2; L: one counterexample's shrinking"),
    ("paper 000: metascheduler, 30 seeds (420 runs of 60 days)", 420 * 2 * 12.9, 0.93, 2 * 31.4, 1.0,
     "W: 12.9 s of wall time a run on 2 threads (docs/performance.md, the 150-run sweep); e: metascheduler --quick "
     "under mpirun -n 2; L: twice one 60-day run (31.4 s), an assumption"),
    ("paper 002: availability, 100 rounds", 20 * 2 * 87.76, 0.93, 10.0, 1.0,
     "W: 20 x the 5-round sweep (87.76 s on 2 threads); e as paper 000's; L: 10 s, an assumption"),
    ("paper 004: federation, 100 seeds (600 runs)", 100 * 2 * 1.44, 0.93, 1.5, 1.0,
     "W: 100 x the 1-seed sweep (1.44 s on 2 threads); e as paper 000's; L: 1.5 s, an assumption"),
]


def minutes(seconds):
    return f"{seconds / 60:.1f} min" if seconds >= 120 else f"{seconds:.1f} s"


def main():
    ranks = [int(r) for r in sys.argv[1:]] or [2, 16, 64, 256]
    print("| workload | W (one core) | " + " | ".join(f"{r} ranks" for r in ranks) + " | inputs |")
    print("| --- | --- | " + " | ".join("---" for _ in ranks) + " | --- |")
    for name, work, eff, longest, start, source in WORKLOADS:
        cells = [minutes(work / (r * eff) + longest + start) for r in ranks]
        print(f"| {name} | {minutes(work)} | " + " | ".join(cells) + f" | {source} |")


if __name__ == "__main__":
    main()
