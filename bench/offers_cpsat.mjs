// offers_cpsat.mjs — the `offers` question (c*(k) per Delta count, docs/policies.md "Paper 000") solved by Google's
// CP-SAT, single-threaded, as an independent peer model: our own model, for benchmarking only (not schedcheck's code).
// Peer install (not a build dependency): npm install --prefix DIR or-tools-wasm; then --modules DIR/node_modules or
// SCHEDCHECK_ORTOOLS_MODULES=DIR/node_modules. Limits: integer times only (generated instances); WebAssembly CP-SAT.
//
// Usage: node bench/offers_cpsat.mjs [--modules DIR] [--time-limit S per count, 60] [--objective quote|finish]
//          [--counts K,K] [--search default|lowest-min] [--workers N, 1] [--verbose] FILE...
// One JSON line per instance: {file, objective, counts: [{k, status, c, quote, bound, wall_s, solver_wall_s}],
// wall_s (sum over counts, model building included), undecided (counts not proven within the limit)}.
//
// Model per count k (bench/offers_peer_model.mjs): one interval per local job (demand procs) and per task of an
// accepted BoT part (demand 1), start in [now, deadline - duration]; running jobs as fixed intervals [now, now +
// remaining) of demand procs; k new tasks (demand 1, duration r, starts ordered; the tasks of one BoT part ordered
// too); one cumulative of capacity P.
// --objective finish minimises c = the last end of the new tasks (c*(k) itself); --objective quote (default)
// minimises max(D, c), the quote schedcheck proves (its `finish` is c*(k) only when c*(k) > D).
// --search lowest-min adds a decision strategy (new tasks, then the rest; smallest start first); default: CP-SAT's.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { countModel, parseArgs, runAll } from './offers_peer_model.mjs';

const opt = parseArgs(process.argv.slice(2),
  { modules: process.env.SCHEDCHECK_ORTOOLS_MODULES || '/tmp/ortw/node_modules', workers: 1, search: 'default' },
  { '--search': ['search', String], '--workers': ['workers', Number], '--verbose': ['verbose', null] },
  fileURLToPath(import.meta.url));
if (!['default', 'lowest-min'].includes(opt.search)) {
  console.error(`--search: default or lowest-min, not ${opt.search}`);
  process.exit(2);
}
const entry = join(opt.modules, 'or-tools-wasm', 'build', 'javascript', 'node', 'cp-sat.js');
if (!existsSync(entry)) {
  console.error(`or-tools-wasm not found at ${entry}:`,
    'npm install --prefix DIR or-tools-wasm, then --modules DIR/node_modules (or SCHEDCHECK_ORTOOLS_MODULES)');
  process.exit(2);
}
const { CpModel, CpSolver } = await import(pathToFileURL(entry).href);

async function solveCount(inst, k) {
  const t0 = performance.now();
  const cm = countModel(inst, k, opt.objective);
  const m = new CpModel();
  const starts = cm.items.map((it) => (it.lo === it.hi ? m.newConstant(it.lo) : m.newIntVar(it.lo, it.hi, `s_${it.name}`)));
  const intervals = cm.items.map((it, i) => m.newFixedSizeIntervalVar(starts[i], it.dur, `i_${it.name}`));
  for (const [a, b] of cm.order) m.add(starts[a].le(starts[b]));
  m.addCumulative(intervals, cm.items.map((it) => it.dem), cm.P);
  // The new tasks' starts are ordered, so the last one ends last: c = its start + r.
  const last = starts[cm.fresh[cm.fresh.length - 1]];
  const obj = m.newIntVar(cm.low, cm.H, 'obj');
  m.add(obj.ge(last.plus(cm.r)));
  m.minimize(obj);
  if (opt.search === 'lowest-min') {
    const fresh = new Set(cm.fresh);
    const rest = starts.filter((_, i) => !fresh.has(i) && cm.items[i].lo !== cm.items[i].hi);
    m.addDecisionStrategy([...cm.fresh.map((i) => starts[i]), ...rest], 1 /* CHOOSE_LOWEST_MIN */, 0 /* SELECT_MIN_VALUE */);
  }
  const solver = new CpSolver();
  const params = { numWorkers: opt.workers, maxTimeInSeconds: opt.timeLimit };
  if (opt.verbose) params.logSearchProgress = true;
  const st = await solver.solve(m, params);
  const status = solver.statusName(st);
  const resp = solver.response();
  const t1 = performance.now();
  const have = status === 'OPTIMAL' || status === 'FEASIBLE';
  const c = have ? solver.value(last) + cm.r : null;
  return {
    k,
    status: status === 'OPTIMAL' ? 'optimal' : status === 'FEASIBLE' ? 'feasible' : status.toLowerCase(),
    c, // the last end of the new tasks in the solution (c*(k) when objective = finish and optimal)
    quote: have ? Math.max(cm.D, c) : null,
    bound: have || status === 'UNKNOWN' ? solver.bestObjectiveBound() : null,
    wall_s: +((t1 - t0) / 1000).toFixed(4),
    solver_wall_s: resp?.wallTime ?? null,
    conflicts: resp?.numConflicts ?? null,
    branches: resp?.numBranches ?? null,
  };
}

// The first solve of a process pays a one-off start of the WebAssembly module (about 1-2 s here): pay it on a small
// cumulative model, untimed, so that every count's time is the solver's own.
{
  const m = new CpModel();
  const s = [0, 1, 2].map((i) => m.newIntVar(0, 10, `warm_up_${i}`));
  m.addCumulative(s.map((x, i) => m.newFixedSizeIntervalVar(x, 2 + i, `w_${i}`)), [1, 2, 1], 2);
  m.minimize(s[2]);
  await new CpSolver().solve(m, { numWorkers: 1 });
}

await runAll(opt, { solver: 'cp-sat (or-tools-wasm)', workers: opt.workers }, solveCount);
process.exit(0);
