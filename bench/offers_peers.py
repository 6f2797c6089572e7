#!/usr/bin/env python3
# offers_peers.py — `schedcheck solve offers` side by side with the peer models of bench/offers_cpsat.mjs (CP-SAT) and
# bench/offers_chuffed.mjs (Chuffed) on `schedcheck generate offers --seed S --size N`: times, undecided counts, ratios,
# and every answer both sides proved compared (a mismatch prints the instance). Our own; the side-by-side bench of docs/performance.md.
# Needs node (Debian's nodejs) and the peers from npm (not build dependencies): npm install --prefix DIR or-tools-wasm minizinc
#
# Usage: bench/offers_peers.py --schedcheck BIN --modules DIR/node_modules [--peer cpsat|chuffed] [--sizes 20,40]
#                              [--seeds 1-10] [--time-limit S] [--pin CPU] [--out DIR]
# Prints one markdown table per size; raw JSON lines go to --out (default: a temporary directory, kept).
import argparse, json, os, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))


def seeds(text):
    out = []
    for part in text.split(','):
        lo, _, hi = part.partition('-')
        out += range(int(lo), int(hi or lo) + 1)
    return out


def run(cmd, pin, out_file, ok=(0,)):
    if pin is not None:
        cmd = ['taskset', '-c', str(pin)] + cmd
    t0 = time.perf_counter()
    with open(out_file, 'w') as out:
        rc = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, text=True).returncode
    wall = time.perf_counter() - t0
    if rc not in ok:
        sys.exit(f'offers_peers: {" ".join(cmd)} exited {rc}')
    return wall


def peer_seconds(peer):
    """The peer's time on an instance: per count, Chuffed's own solve time (not the worker's start or MiniZinc's
    flattening), CP-SAT's model building and solve (after the script's untimed start-up)."""
    return sum(c['solve_s'] if c.get('solve_s') is not None else c['wall_s'] for c in peer['counts'])


def compare(instance, ours, peer):
    """Mismatches between our proven quotes and the peer's: a proven quote that differs, or a peer schedule or
    bound on the wrong side of ours."""
    quotes = {o['tasks']: o['completion'] for o in ours['offers']}
    proven = ours['status'] == 'optimal'
    bad = []
    for c in peer['counts']:
        q = quotes[c['k']]
        if not proven:
            continue
        if c['status'] == 'optimal' and c['quote'] != q:
            bad.append(f'count {c["k"]}: schedcheck proved {q}, the peer proved {c["quote"]}')
        elif c['quote'] is not None and c['quote'] < q:
            bad.append(f'count {c["k"]}: the peer found {c["quote"]} under our proven {q}')
        elif c.get('bound') is not None and c['bound'] > q:
            bad.append(f'count {c["k"]}: the peer bounds {c["bound"]} over our proven {q}')
    if bad:
        print(f'MISMATCH between the two exact sides (schedcheck, peer) on {instance}:', *bad, sep='\n  ')
        print(open(instance).read())
    return bad


def main():
    ap = argparse.ArgumentParser(description='schedcheck solve offers side by side with CP-SAT or Chuffed (WebAssembly builds from npm)')
    ap.add_argument('--schedcheck', required=True)
    ap.add_argument('--modules', required=True, help='node_modules holding or-tools-wasm / minizinc')
    ap.add_argument('--peer', choices=['cpsat', 'chuffed'], default='cpsat')
    ap.add_argument('--sizes', default='20,40')
    ap.add_argument('--seeds', default='1-10')
    ap.add_argument('--time-limit', type=float, default=60, help='seconds, per count on the peer, per instance on ours')
    ap.add_argument('--pin', type=int, default=None, help='taskset CPU for every timed run')
    ap.add_argument('--out', default=None)
    a = ap.parse_args()
    out = a.out or tempfile.mkdtemp(prefix='offers-peers-')
    os.makedirs(out, exist_ok=True)
    script = os.path.join(HERE, f'offers_{a.peer}.mjs')
    mismatches = 0
    for n in [int(x) for x in a.sizes.split(',')]:
        rows = []
        for s in seeds(a.seeds):
            inst = os.path.join(out, f's{s}_{n}.json')
            with open(inst, 'w') as f:
                subprocess.run([a.schedcheck, 'generate', 'offers', '--seed', str(s), '--size', str(n)], stdout=f, check=True)
            ours_file, peer_file = inst.replace('.json', '.schedcheck.json'), inst.replace('.json', f'.{a.peer}.json')
            ours_wall = run([a.schedcheck, 'solve', 'offers', '-i', inst, '--timeout-ms', str(int(a.time_limit * 1000)),
                             '--json'], a.pin, ours_file, ok=(0, 3))  # 3: the time limit, some count unproven
            run(['node', script, '--modules', a.modules, '--time-limit', str(a.time_limit), inst], a.pin, peer_file)
            ours = json.load(open(ours_file))['optimum']
            peer = json.loads(open(peer_file).read().strip().splitlines()[-1])
            mismatches += len(compare(inst, ours, peer))
            rows.append((s, ours_wall, ours['status'], peer_seconds(peer), peer['undecided'], len(peer['counts'])))
            print(f'size {n} seed {s}: schedcheck {ours_wall:.3f} s ({ours["status"]}), {a.peer} {rows[-1][3]:.2f} s '
                  f'({peer["undecided"]} of {len(peer["counts"])} counts undecided)', file=sys.stderr)
        print(f'\n{a.peer} against schedcheck, {n} waiting jobs (peer: sum over counts, per-count limit '
              f'{a.time_limit:g} s; "+": some count undecided)\n')
        print('| seed | schedcheck wall s | status | peer s | peer undecided | peer / schedcheck |')
        print('|---:|---:|---|---:|---:|---:|')
        for s, w, st, p, u, k in rows:
            print(f'| {s} | {w:.3f} | {st} | {p:.2f}{"+" if u else ""} | {u}/{k} | {p / w:.0f}x |')
        ws, ps = [r[1] for r in rows], [r[3] for r in rows]
        print(f'\nmedian / max: schedcheck {statistics.median(ws):.3f} / {max(ws):.3f} s, {a.peer} '
              f'{statistics.median(ps):.2f} / {max(ps):.2f} s; instances with an undecided count: schedcheck '
              f'{sum(r[2] != "optimal" for r in rows)}, {a.peer} {sum(r[4] > 0 for r in rows)}')
    print(f'\nraw output: {out}; mismatches: {mismatches}')
    return 1 if mismatches else 0


if __name__ == '__main__':
    sys.exit(main())
