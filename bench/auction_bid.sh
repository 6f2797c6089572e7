#!/usr/bin/env bash
# The branch and bound of `auction-bid` timed on paper 003's resources (Table 1-2: four 4-PE 1050-MIPS resources
# with bids [5, 500] and one 1-PE 684-MIPS resource with bids [1, 100]; R3 and R4 foreign), others' bids uniform in
# each resource's bid range, task lengths uniform in [700000, 800000] MI, time_left = 3 h x tasks / 50. Our own.
# Usage: bench/auction_bid.sh SCHEDCHECK [SIZES] [SEEDS] [TIMEOUT_MS] (default "50 75 100 150 200", 5 seeds, 10000).
# Prints one CSV row per instance: tasks,seed,status,seconds,detail.
set -uo pipefail
BIN=${1:?usage: auction_bid.sh SCHEDCHECK [SIZES] [SEEDS] [TIMEOUT_MS]}
SIZES=${2:-50 75 100 150 200}
SEEDS=${3:-5}
TIMEOUT=${4:-10000}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
echo "tasks,seed,status,seconds,detail"
for n in $SIZES; do
  for seed in $(seq 1 "$SEEDS"); do
    python3 - "$n" "$seed" >"$DIR/i.json" <<'PY'
import json, random, sys
n, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed * 1000 + n)
resources = []
for r in range(5):
    xeon = r < 4
    lo, hi = (5, 500) if xeon else (1, 100)
    resources.append({"name": f"R{r}", "pes": 4 if xeon else 1, "mips": 1050 if xeon else 684, "min_bid": lo,
                      "max_bid": hi, "others_bid": round(rng.uniform(lo, hi), 2), "foreign": r >= 3})
tasks = [{"id": f"t{i}", "length": rng.randint(700000, 800000)} for i in range(n)]
print(json.dumps({"kind": "auction-bid", "name": f"paper-{n}-{seed}", "time_left": round(10800 * n / 50),
                  "resources": resources, "tasks": tasks}))
PY
    "$BIN" solve auction-bid --instance "$DIR/i.json" --exact bnb --timeout-ms "$TIMEOUT" --json >"$DIR/out.json" 2>/dev/null
    python3 - "$n" "$seed" "$DIR/out.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[3]))
o = r.get("optimum", r)
print(f'{sys.argv[1]},{sys.argv[2]},{o["status"]},{o["seconds"]:.3f},"{o["detail"]}"')
PY
  done
done
