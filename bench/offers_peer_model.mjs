// offers_peer_model.mjs — what bench/offers_cpsat.mjs and bench/offers_chuffed.mjs share: the command line, the Delta
// counts (docs/policies.md "Paper 000", genOffer step 1) and one reading of an `offers` instance as a cumulative
// scheduling model per count. Our own, for benchmarking only (not schedcheck's code). Limits: integer times only.
import { readFileSync } from 'node:fs';

// Options common to both peers; `extra` maps further flags to [key, parse] or, for a switch, [key, null, value].
export function parseArgs(argv, defaults, extra, usageFile) {
  const opt = { timeLimit: 60, objective: 'quote', counts: null, files: [], ...defaults };
  const flags = {
    '--modules': ['modules', String],
    '--time-limit': ['timeLimit', Number],
    '--objective': ['objective', String],
    '--counts': ['counts', (s) => s.split(',').map(Number)], // only these Delta counts (--counts 2,3)
    ...extra,
  };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '-h' || a === '--help') {
      const lines = readFileSync(usageFile, 'utf8').split('\n');
      const end = lines.findIndex((l) => !l.startsWith('//'));
      console.log(lines.slice(0, end < 0 ? lines.length : end).join('\n')); // the file's opening comment
      process.exit(0);
    } else if (flags[a]) {
      const [key, parse, value = true] = flags[a];
      opt[key] = parse ? parse(argv[++i]) : value;
    } else if (a.startsWith('--')) {
      console.error(`unknown option ${a} (--help lists them)`);
      process.exit(2);
    } else opt.files.push(a);
  }
  if (!['quote', 'finish'].includes(opt.objective)) {
    console.error(`--objective: quote or finish, not ${opt.objective}`);
    process.exit(2);
  }
  return opt;
}

function integer(x, what) {
  if (!Number.isInteger(x)) throw new Error(`${what} = ${x} is not an integer (this model needs integer times)`);
  return x;
}

// Delta: shares of n rounded half away from zero (n > 0, so Math.round is the same), at least 1, duplicates dropped.
export function deltaCounts(n) {
  const s = new Set();
  for (const share of [0.1, 0.25, 0.5, 0.75, 1.0]) s.add(Math.max(1, Math.round(share * n)));
  return [...s].sort((a, b) => a - b);
}

// The model of count k: items {name, dur, dem, lo, hi} (start in [lo, hi]) on one cumulative of capacity P:
// running jobs fixed at now, one item per local job, one per task of a BoT part, then the k new tasks (their
// indices in `fresh`); `order` lists [a, b] for "start of a <= start of b" (identical tasks: BoT parts, new tasks).
// H: a horizon by which every accepted item has ended and the k new tasks, one after another, always fit.
export function countModel(inst, k, objective) {
  const P = integer(inst.provider.processors, 'processors');
  const now = integer(inst.provider.now ?? 0, 'now');
  const r = integer(inst.bot.task_runtime, 'bot.task_runtime');
  const D = integer(inst.bot.deadline, 'bot.deadline');
  const items = [];
  const order = [];
  let latest = Math.max(now, D);
  for (const job of inst.running ?? []) {
    const rem = integer(job.remaining, `${job.id}.remaining`);
    items.push({ name: `run_${job.id}`, dur: rem, dem: integer(job.procs, `${job.id}.procs`), lo: now, hi: now });
    latest = Math.max(latest, now + rem);
  }
  for (const job of inst.waiting ?? []) {
    const dl = integer(job.deadline, `${job.id}.deadline`);
    latest = Math.max(latest, dl);
    if (job.type === 'local') {
      const p = integer(job.runtime, `${job.id}.runtime`);
      items.push({ name: job.id, dur: p, dem: integer(job.procs, `${job.id}.procs`), lo: now, hi: dl - p });
    } else if (job.type === 'bot') {
      const p = integer(job.task_runtime, `${job.id}.task_runtime`);
      for (let t = 0; t < job.tasks; ++t) {
        if (t > 0) order.push([items.length - 1, items.length]);
        items.push({ name: `${job.id}_${t}`, dur: p, dem: 1, lo: now, hi: dl - p });
      }
    } else throw new Error(`${job.id}: unknown type ${job.type}`);
  }
  const H = latest + k * r;
  const fresh = [];
  for (let t = 0; t < k; ++t) {
    if (t > 0) order.push([items.length - 1, items.length]);
    fresh.push(items.length);
    items.push({ name: `new_${t}`, dur: r, dem: 1, lo: now, hi: H - r });
  }
  // The objective's least value: max(D, c) for the quote, c for finish.
  const low = objective === 'quote' ? Math.max(D, now + r) : now + r;
  return { P, now, D, r, k, H, items, order, fresh, low };
}

// Reads each instance file and prints one JSON line per instance: the counts solved by `solveCount(inst, k)`.
export async function runAll(opt, fields, solveCount) {
  for (const file of opt.files) {
    let inst;
    try {
      inst = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      console.error(`${file}: ${e.message}`);
      process.exit(2);
    }
    const counts = [];
    for (const k of deltaCounts(inst.bot.tasks).filter((x) => !opt.counts || opt.counts.includes(x))) {
      counts.push(await solveCount(inst, k, file));
    }
    console.log(JSON.stringify({
      file, ...fields, objective: opt.objective, time_limit_s: opt.timeLimit, counts,
      wall_s: +counts.reduce((a, x) => a + x.wall_s, 0).toFixed(4),
      undecided: counts.filter((x) => x.status !== 'optimal').length,
    }));
  }
}
