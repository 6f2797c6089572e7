// offers_chuffed.mjs — the `offers` question (c*(k) per Delta count, docs/policies.md "Paper 000") as a MiniZinc
// model solved by Chuffed (lazy clause generation), single-threaded: an independent peer model, our own, for
// benchmarking only.
// Peer install (not a build dependency): npm install --prefix DIR minizinc; then --modules DIR/node_modules or
// SCHEDCHECK_MINIZINC_MODULES=DIR/node_modules. It runs the package's WebAssembly MiniZinc (Chuffed 0.14 built in) in a
// Node worker thread, one fresh worker per count; limits: integer times only; WebAssembly; --solver gecode also works.
//
// Usage: node bench/offers_chuffed.mjs [--modules DIR] [--time-limit S per count, 60] [--objective quote|finish]
//          [--counts K,K] [--solver chuffed|gecode] [--no-free-search] [--keep DIR for the .mzn/.dzn] FILE...
// One JSON line per instance: {file, objective, counts: [{k, status, c, quote, wall_s, flat_s, solve_s}], wall_s,
// undecided}. wall_s per count includes starting the wasm worker and flattening (flat_s); solve_s is the solver's.
// Model (bench/offers_peer_model.mjs): the same as bench/offers_cpsat.mjs (cumulative over local jobs, accepted BoT
// tasks, running jobs fixed at now, k ordered new tasks; ordered tasks within a BoT part); objective max(D, c) (quote)
// or c (finish).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { countModel, parseArgs, runAll } from './offers_peer_model.mjs';

const opt = parseArgs(process.argv.slice(2),
  { modules: process.env.SCHEDCHECK_MINIZINC_MODULES || '/tmp/ortw/node_modules', solver: 'chuffed', freeSearch: true,
    keep: null },
  { '--solver': ['solver', String], '--no-free-search': ['freeSearch', null, false], '--keep': ['keep', String] },
  fileURLToPath(import.meta.url));
const dist = join(opt.modules, 'minizinc', 'dist');
if (!existsSync(join(dist, 'minizinc-worker.js'))) {
  console.error(`minizinc not found in ${dist}: npm install --prefix DIR minizinc, then --modules DIR/node_modules`,
    '(or SCHEDCHECK_MINIZINC_MODULES)');
  process.exit(2);
}

// The items of countModel in one array (accepted work, then the k new tasks, whose indices are `fresh`).
const MODEL = `
include "cumulative.mzn";
int: P; int: r; int: k; int: H; int: low;
int: n; array[1..n] of int: dur; array[1..n] of int: dem; array[1..n] of int: lo; array[1..n] of int: hi;
array[1..k] of int: fresh;
int: m; array[1..m] of int: before; array[1..m] of int: after;   % s[before[i]] <= s[after[i]]
array[1..n] of var int: s = [let { var lo[i]..hi[i]: x } in x | i in 1..n];
constraint forall(i in 1..m)(s[before[i]] <= s[after[i]]);
constraint cumulative(s, dur, dem, P);
var low..H: obj;
constraint obj >= s[fresh[k]] + r;
solve :: int_search([s[fresh[i]] | i in 1..k] ++ s, smallest, indomain_min) minimize obj;
output ["c=\\(s[fresh[k]] + r)\\n"];
`;

function data(cm) {
  const arr = (a) => `[${a.join(',')}]`;
  const col = (f) => arr(cm.items.map(f));
  return `P=${cm.P}; r=${cm.r}; k=${cm.k}; H=${cm.H}; low=${cm.low};
n=${cm.items.length}; dur=${col((x) => x.dur)}; dem=${col((x) => x.dem)}; lo=${col((x) => x.lo)}; hi=${col((x) => x.hi)};
fresh=${arr(cm.fresh.map((i) => i + 1))};
m=${cm.order.length}; before=${arr(cm.order.map(([a]) => a + 1))}; after=${arr(cm.order.map(([, b]) => b + 1))};
`;
}

// The package's browser worker script, run in a Node worker thread with the two globals it uses.
function startWorker() {
  const code = `
const { parentPort } = require('node:worker_threads');
globalThis.addEventListener = (type, f) => parentPort.on('message', (d) => f({ data: d }));
globalThis.postMessage = (msg) => parentPort.postMessage(msg);
const script = require('node:fs').readFileSync(${JSON.stringify(join(dist, 'minizinc-worker.js'))}, 'utf8');
require('node:vm').runInThisContext(script);
`;
  const w = new Worker(code, { eval: true });
  const request = (msg) => new Promise((resolve, reject) => {
    const h = (x) => { if (x.type === 'ready' || x.type === 'exit') { w.off('message', h); resolve(x); } };
    w.on('message', h);
    w.once('error', reject);
    w.postMessage(msg);
  });
  return { w, request };
}

async function solveCount(inst, k, file) {
  const tag = file.replace(/.*\//, '').replace(/\.json$/, '');
  const cm = countModel(inst, k, opt.objective);
  const t0 = performance.now();
  const { w, request } = startWorker();
  await request({ wasmURL: join(dist, 'minizinc.wasm'), dataURL: join(dist, 'minizinc.data') });
  const t1 = performance.now();
  const dzn = data(cm);
  if (opt.keep) {
    mkdirSync(opt.keep, { recursive: true });
    writeFileSync(join(opt.keep, 'offers.mzn'), MODEL);
    writeFileSync(join(opt.keep, `${tag}_k${k}.dzn`), dzn);
  }
  const ms = String(Math.round(opt.timeLimit * 1000));
  const argv = ['--solver', opt.solver, '-s', '--time-limit', ms, 'offers.mzn', 'd.dzn'];
  if (opt.freeSearch) argv.splice(2, 0, '-f');
  const res = await request({ files: { 'offers.mzn': MODEL, 'd.dzn': dzn }, args: argv });
  const t2 = performance.now();
  await w.terminate();
  const out = res.stdout ?? '';
  const stat = (name) => {
    const m = out.match(new RegExp(`%%%mzn-stat: ${name}=([0-9.eE+-]+)`));
    return m ? Number(m[1]) : null;
  };
  const cs = [...out.matchAll(/^c=(\d+)$/gm)].map((x) => Number(x[1]));
  const c = cs.length ? cs[cs.length - 1] : null;
  let status = 'unknown';
  if (out.includes('==========')) status = 'optimal';
  else if (out.includes('=====UNSATISFIABLE=====')) status = 'infeasible';
  else if (c !== null) status = 'feasible';
  if (res.code !== 0) status = `error(${res.code})`;
  return {
    k, status, c, quote: c === null ? null : Math.max(cm.D, c),
    wall_s: +((t2 - t0) / 1000).toFixed(4),
    start_s: +((t1 - t0) / 1000).toFixed(4),
    flat_s: stat('flatTime'), solve_s: stat('solveTime'), failures: stat('failures'),
    stderr: res.code !== 0 ? (res.stderr ?? '').slice(0, 500) : undefined,
  };
}

await runAll(opt, { solver: `${opt.solver} (minizinc wasm)`, free_search: opt.freeSearch }, solveCount);
process.exit(0);
