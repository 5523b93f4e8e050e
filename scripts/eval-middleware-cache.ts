/**
 * `npm run eval:middleware-cache -- [<file|dir>...] [--budget N,N] [--limit N] [--out DIR]` (not
 * part of the published package): replays mini-swe-agent trajectories as AI SDK tool loops through
 * `ledgerMiddleware` and reports what the prompt cache makes of the prompts the model receives,
 * against the untrimmed prompts the SDK would have sent (see scripts/eval/middleware-cache.ts).
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type LoopRun, runLoop, toolLoopOf } from './eval/middleware-cache.js';
import { addTally, costOf, DEFAULT_PRICING, emptyTally } from './eval/request-cost.js';

const DEFAULT_TRAJECTORIES = '../shared/data/trajectories/mini-swe-agent-gemini3pro/';
const DEFAULT_BUDGETS = [4000, 16000];

const USAGE = `Usage: tsx scripts/eval-middleware-cache.ts [<file|dir>...] [--budget N,N,...] [--limit N] [--out DIR]

  <file|dir>     mini-swe-agent trajectories (default ${DEFAULT_TRAJECTORIES})
  --budget LIST  the middleware's budgets (default ${DEFAULT_BUDGETS.join(',')})
  --limit N      the first N trajectories (in name order)
  --out DIR      also write DIR/middleware-cache.json and DIR/middleware-cache.md
`;

async function trajectoryFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const full = resolve(p);
    const info = await stat(full).catch(() => null);
    if (info === null) throw new Error(`no such file or directory: ${p}`);
    if (!info.isDirectory()) out.push(full);
    else
      out.push(
        ...(await readdir(full))
          .filter((n) => n.endsWith('.traj.json'))
          .sort()
          .map((n) => join(full, n)),
      );
  }
  return out;
}

/** One budget's runs summed over the trajectories. */
type BudgetSummary = Omit<LoopRun, 'calls' | 'perCall'>;

const pct = (a: number, b: number) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)}%`);
const int = (n: number) => Math.round(n).toLocaleString('en-US');

export function renderMarkdown(
  summaries: readonly BudgetSummary[],
  meta: { trajectories: number; skippedTurns: number; seconds: number },
): string {
  const p = DEFAULT_PRICING;
  const lines = [
    `# ledgerMiddleware on replayed AI SDK tool loops`,
    '',
    `${meta.trajectories} mini-swe-agent trajectories replayed as \`generateText\` tool loops (${meta.skippedTurns} turns without a single command skipped) in ${meta.seconds.toFixed(0)} s. ` +
      `Cost: ${p.model} input at $${p.inputPerMillion}/Mtok, cache reads ${p.cacheRead}×, writes ${p.cacheWrite}×.`,
    '',
    '| budget | calls | cached share | tokens sent / call | cost | untrimmed: cached share | untrimmed: sent / call | untrimmed: cost | × untrimmed | max prompt tokens | unpaired tool calls | re-pack calls | their share of the writes | budget-change calls | their share of the writes |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of summaries) {
    const c = costOf(s.ledger, p);
    const u = costOf(s.untrimmed, p);
    lines.push(
      `| ${int(s.budget)} | ${int(s.ledger.requests)} | ${pct(s.ledger.cached, s.ledger.sent)} | ${int(s.ledger.sent / s.ledger.requests)} | $${c.toFixed(4)} | ` +
        `${pct(s.untrimmed.cached, s.untrimmed.sent)} | ${int(s.untrimmed.sent / s.untrimmed.requests)} | $${u.toFixed(4)} | ${(c / u).toFixed(2)}× | ` +
        `${int(s.maxPromptTokens)} | ${s.unpaired} | ${pct(s.repacks.requests, s.ledger.requests)} | ${pct(s.repacks.written, s.ledger.written)} | ` +
        `${pct(s.budgetChanges.requests, s.ledger.requests)} | ${pct(s.budgetChanges.written, s.ledger.written)} |`,
    );
  }
  lines.push(
    '',
    'Cached: the tokens of the parts a prompt shares, from its start, with the previous call’s prompt (same position, same role, same part). ' +
      'Re-pack calls: the working set was a session re-pack. Budget-change calls: the middleware asked the ledger under another ' +
      'budget than at the call before (its reserve for the rendering’s framing grew), which starts another session fold. ' +
      'Writes: tokens not read from the cache. Costs are totals over all trajectories.',
    '',
  );
  return lines.join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      budget: { type: 'string' },
      limit: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const budgets = values.budget === undefined ? DEFAULT_BUDGETS : values.budget.split(',').map((s) => Number(s.trim()));
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (budgets.some((b) => !Number.isSafeInteger(b) || b < 1) || (limit !== undefined && !(limit >= 1))) {
    process.stderr.write(USAGE);
    return 2;
  }
  let files: string[];
  try {
    files = (await trajectoryFiles(positionals.length > 0 ? positionals : [DEFAULT_TRAJECTORIES])).slice(0, limit);
  } catch (e) {
    process.stderr.write(`eval-middleware-cache: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const started = Date.now();
  const summaries: BudgetSummary[] = budgets.map((budget) => ({
    budget,
    ledger: emptyTally(),
    untrimmed: emptyTally(),
    maxPromptTokens: 0,
    unpaired: 0,
    repacks: emptyTally(),
    budgetChanges: emptyTally(),
  }));
  const runs: Array<{ name: string; steps: number; runs: LoopRun[] }> = [];
  let skippedTurns = 0;
  for (const [i, file] of files.entries()) {
    const loop = toolLoopOf(JSON.parse(await readFile(file, 'utf8')));
    skippedTurns += loop.skipped;
    const mine: LoopRun[] = [];
    for (const [b, budget] of budgets.entries()) {
      const r = await runLoop(loop, budget);
      mine.push(r);
      const s = summaries[b]!;
      addTally(s.ledger, r.ledger);
      addTally(s.untrimmed, r.untrimmed);
      s.maxPromptTokens = Math.max(s.maxPromptTokens, r.maxPromptTokens);
      s.unpaired += r.unpaired;
      addTally(s.repacks, r.repacks);
      addTally(s.budgetChanges, r.budgetChanges);
    }
    runs.push({ name: basename(file), steps: loop.steps.length, runs: mine });
    process.stderr.write(
      `${i + 1}/${files.length} ${basename(file)}: ${mine.map((r) => `${r.budget}: ${pct(r.ledger.cached, r.ledger.sent)}`).join(', ')}\n`,
    );
  }
  const seconds = (Date.now() - started) / 1000;
  const markdown = renderMarkdown(summaries, { trajectories: files.length, skippedTurns, seconds });
  process.stdout.write(markdown);
  if (values.out !== undefined) {
    const dir = resolve(values.out);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'middleware-cache.json'), `${JSON.stringify({ summaries, runs }, null, 1)}\n`);
    await writeFile(join(dir, 'middleware-cache.md'), markdown);
  }
  return summaries.some((s) => s.unpaired > 0 || s.maxPromptTokens > s.budget) ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
