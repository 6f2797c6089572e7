#!/usr/bin/env bash
# Seed corpora of the fuzz targets, written under OUT/TARGET/ in each target's input format (docs/fuzzing.md):
# instance-PROBLEM: examples/*.json, the problem's corpus files and generated instances (several seeds and sizes);
# swf: examples and corpus traces and the head of each shared trace (first byte: read options); jobs-csv: per-job
# CSVs of simulated runs (first byte: submit column required); corpus: every corpus file (first byte: .json or .swf);
# protocol: real answer lines for the instances that target generates (first three bytes: problem, instance, arrival).
# Our own. Usage: fuzz/seeds.sh OUT SCHEDCHECK [SOURCE_DIR]
set -euo pipefail
out=${1:?usage: seeds.sh OUT SCHEDCHECK [SOURCE_DIR]}
schedcheck=${2:?usage: seeds.sh OUT SCHEDCHECK [SOURCE_DIR]}
src=${3:-$(cd "$(dirname "$0")/.." && pwd)}
traces=${SCHEDCHECK_TRACES:-$src/../shared/traces}

# prefixed BYTE FILE DEST: DEST holds the byte (octal escape) then FILE's content.
prefixed() { { printf "$1"; cat "$2"; } >"$3"; }

problems=$("$schedcheck" list --json | python3 -c 'import json,sys; print(" ".join(p["problem"] for p in json.load(sys.stdin)))')
for problem in $problems; do
  d="$out/instance-$problem"
  mkdir -p "$d"
  cp "$src"/examples/*.json "$d/"
  { grep -l "\"problem\": \"$problem\"" "$src"/counterexamples/corpus/*.json || true; } | xargs -r cp -t "$d/"
  for size in 1 3 6 10; do
    for seed in 1 2 3; do "$schedcheck" generate "$problem" --seed "$seed" --size "$size" >"$d/gen-$size-$seed.json"; done
  done
done

mkdir -p "$out/swf" "$out/jobs-csv" "$out/corpus"
n=0
for f in "$src"/examples/*.swf "$src"/counterexamples/corpus/*.swf; do
  n=$((n + 1))
  prefixed '\000' "$f" "$out/swf/trace-$n-default"
  prefixed '\011' "$f" "$out/swf/trace-$n-lenient-p8"
done
for f in "$traces"/*.swf; do
  [ -e "$f" ] || continue
  n=$((n + 1))
  head -n 60 "$f" >"$out/swf.tmp"
  prefixed '\000' "$out/swf.tmp" "$out/swf/trace-$n-head"
  prefixed '\006' "$out/swf.tmp" "$out/swf/trace-$n-runtime-requested"
done
rm -f "$out/swf.tmp"

for policy in fcfs easy conservative; do
  "$schedcheck" simulate --trace "$src/examples/small-cluster.swf" --policy "$policy" -q --jobs-csv "$out/jobs.tmp" >/dev/null
  prefixed '\001' "$out/jobs.tmp" "$out/jobs-csv/small-cluster-$policy"
done
rm -f "$out/jobs.tmp"

for f in "$src"/counterexamples/corpus/*.json; do prefixed '\000' "$f" "$out/corpus/$(basename "$f")"; done
for f in "$src"/counterexamples/corpus/*.swf; do prefixed '\001' "$f" "$out/corpus/$(basename "$f")"; done

# protocol (fuzz/fuzz_protocol.cpp): for each problem (byte 0: its index in `list`) and three of the instances the
# target generates (byte 1: size index | (seed - 1) << 2), the decisions of every built-in policy as `check --json`
# writes them, one line each, and the lines the example policies (examples/policies/) write, recorded as they answer
# (cluster-run: one per scheduling pass); byte 2: the bytes arrive all at once, or 7 a read with CRLF line ends.
mkdir -p "$out/protocol"
python3 - "$out/protocol" "$schedcheck" "$src" <<'PY'
import json, os, shlex, subprocess, sys, tempfile
out, schedcheck, src = sys.argv[1:4]
side = {"name", "status", "objective", "seconds", "detail", "metrics", "chain", "phases", "core"}
examples = {"sla-admission": "sla_first_fit.py", "cluster-run": "cluster_fcfs.py"}
def run(*args):
    return subprocess.run([schedcheck, *map(str, args)], capture_output=True, text=True, check=False).stdout
with tempfile.TemporaryDirectory() as tmp:
    instance, recorded = os.path.join(tmp, "instance.json"), os.path.join(tmp, "answers")
    for index, problem in enumerate(json.loads(run("list", "--json"))):
        name = problem["problem"]
        for size_index, size, seed in ((1, 3, 1), (2, 6, 2), (3, 10, 3)):
            with open(instance, "w") as f:
                f.write(run("generate", name, "--seed", seed, "--size", size))
            lines = []
            if name != "cluster-run":  # its decision is a whole run; a policy answers pass by pass
                for policy in problem["policies"]:
                    if "only_with" in policy:  # it answers only an instance that records a decision
                        continue
                    report = json.loads(run("check", name, "--policy", policy["name"], "-i", instance, "--json",
                                            "--exact", "none"))
                    lines.append(json.dumps({k: v for k, v in report["heuristic"].items() if k not in side}))
            if name in examples:
                open(recorded, "w").close()
                policy = os.path.join(src, "examples", "policies", examples[name])
                command = "python3 %s | tee -a %s" % (shlex.quote(policy), shlex.quote(recorded))
                run("check", name, "--policy-cmd", command, "-i", instance, "--exact", "none")
                lines += open(recorded).read().splitlines()
            choice = size_index | (seed - 1) << 2
            for arrival, end in ((0, "\n"), (7, "\r\n")):
                with open(os.path.join(out, "%s-%d-%d-%d" % (name, size, seed, arrival)), "wb") as f:
                    f.write(bytes([index, choice, arrival]) + "".join(l + end for l in lines).encode())
PY
