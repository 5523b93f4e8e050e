/**
 * `npm run eval:replay -- <files...> [--budget …] [--out DIR]` (the replay evaluation with its
 * baselines; not part of the published package): argument handling, file loading and output.
 * `runCli` takes the argv after the script, starting with `replay`. Returns the exit code: 0 done,
 * 1 a file could not be read or replayed, 2 bad arguments (usage printed).
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type ProgressSink, progressBar } from './eval/progress.js';
import { DEFAULT_BUDGETS, type ReplayInput, replayTrajectories } from './eval/replay.js';
import { renderMarkdown, renderSvg } from './eval/report.js';
import { DEFAULT_PRICING, type Pricing } from './eval/request-cost.js';

export interface CliIO {
  stdout(text: string): void;
  stderr: ProgressSink;
  /** Relative paths (and the default data path) resolve against it. */
  cwd: string;
}

/** Where the evaluation data lives relative to the project root (see ../shared/data/README.md). */
export const DEFAULT_TRAJECTORIES = '../shared/data/trajectories/mini-swe-agent-gemini3pro/';

export const USAGE = `Usage: context-ledger replay [<file|dir>...] [--budget N,N,...] [--out DIR] [--max-nodes N] [--hops N]
         [--mode fresh|session] [--model NAME] [--input-price USD] [--cache-read X] [--cache-write X]

Replays mini-swe-agent trajectories (*.traj.json; a directory stands for every one in it) and
measures, before every edit, how much of the final patch's evidence each method holds in context:
the ledger's working set and the recency, paired-recency, BM25, observation-masking and
compaction baselines; and what an agent loop sending each method's context after every step
costs with a prompt cache on.

  <file|dir>     trajectories (default ${DEFAULT_TRAJECTORIES})
  --budget LIST  comma-separated token budgets (default ${DEFAULT_BUDGETS.join(',')})
  --out DIR      also write DIR/replay.json, DIR/replay.md and DIR/recall.svg
  --max-nodes N  closure bound per hop level for the ledger (diagnosis: default the
                 materializer's own, as a user calling materialize({ budget }) gets it)
  --hops N       closure depth for the ledger (diagnosis; default the materializer's own)
  --mode M       the ledger's materialize mode: session (its default, cache-stable) or fresh
                 (re-ranked at every step)
  --model NAME   the model the cost section prices (default ${DEFAULT_PRICING.model})
  --input-price USD  its input price per million tokens (default ${DEFAULT_PRICING.inputPerMillion})
  --cache-read X     cache reads cost X times the input price (default ${DEFAULT_PRICING.cacheRead})
  --cache-write X    cache writes cost X times the input price (default ${DEFAULT_PRICING.cacheWrite})
  -h, --help     this text
`;

class UsageError extends Error {}

export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const usage = (message: string) => {
    io.stderr.write(`context-ledger: ${message}\n\n${USAGE}`);
    return 2;
  };
  if (argv[0] === '-h' || argv[0] === '--help') {
    io.stdout(USAGE);
    return 0;
  }
  if (argv[0] !== 'replay')
    return usage(argv[0] === undefined ? 'a command is required' : `unknown command ${JSON.stringify(argv[0])}`);
  let args: ReturnType<typeof parse>;
  let files: string[];
  try {
    args = parse(argv.slice(1));
    if (args.help) {
      io.stdout(USAGE);
      return 0;
    }
    files = await trajectoryFiles(args.paths.length > 0 ? args.paths : [DEFAULT_TRAJECTORIES], io.cwd);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
      return usage((e as Error).message);
    throw e;
  }

  const inputs: ReplayInput[] = [];
  for (const file of files) {
    try {
      inputs.push({ name: basename(file), trajectory: JSON.parse(await readFile(file, 'utf8')) });
    } catch (e) {
      io.stderr.write(`context-ledger: cannot read ${file}: ${(e as Error).message}\n`);
      return 1;
    }
  }
  const started = Date.now();
  const report = await replayTrajectories(inputs, {
    budgets: args.budgets,
    onProgress: progressBar(io.stderr),
    ...(args.maxNodes === undefined ? {} : { maxNodes: args.maxNodes }),
    ...(args.hops === undefined ? {} : { hops: args.hops }),
    ...(args.mode === undefined ? {} : { mode: args.mode }),
    pricing: args.pricing,
  });
  const markdown = renderMarkdown(report);
  io.stdout(markdown);
  if (args.out !== undefined) {
    const dir = resolve(io.cwd, args.out);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'replay.json'), `${JSON.stringify(report, null, 2)}\n`);
    await writeFile(join(dir, 'replay.md'), markdown);
    await writeFile(join(dir, 'recall.svg'), renderSvg(report));
    io.stderr.write(`wrote ${join(dir, 'replay.json')}, replay.md and recall.svg\n`);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  io.stderr.write(
    `replayed ${inputs.length} trajectories (${report.events} events) at ${args.budgets.length} budgets in ${seconds} s\n`,
  );
  for (const s of report.trajectories.skipped) io.stderr.write(`skipped ${s.name}: ${s.reason}\n`);
  return report.trajectories.skipped.some((s) => s.reason.startsWith('replay failed')) ? 1 : 0;
}

interface Args {
  paths: string[];
  budgets: number[];
  out?: string;
  maxNodes?: number;
  hops?: number;
  mode?: 'fresh' | 'session';
  pricing: Pricing;
  help: boolean;
}

function parse(args: readonly string[]): Args {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      budget: { type: 'string' },
      out: { type: 'string' },
      'max-nodes': { type: 'string' },
      hops: { type: 'string' },
      mode: { type: 'string' },
      model: { type: 'string' },
      'input-price': { type: 'string' },
      'cache-read': { type: 'string' },
      'cache-write': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  const budgets =
    values.budget === undefined ? DEFAULT_BUDGETS.map(String) : values.budget.split(',').map((s) => s.trim());
  for (const b of budgets) {
    if (!/^[1-9]\d*$/.test(b) || !Number.isSafeInteger(Number(b))) {
      throw new UsageError(`--budget: ${JSON.stringify(b)} is not a positive integer`);
    }
  }
  if (values.out === '') throw new UsageError('--out needs a directory');
  const maxNodes = positiveInteger('--max-nodes', values['max-nodes']);
  const hops = positiveInteger('--hops', values.hops);
  const mode = values.mode;
  if (mode !== undefined && mode !== 'fresh' && mode !== 'session')
    throw new UsageError(`--mode: ${JSON.stringify(mode)} is not fresh or session`);
  if (values.model === '') throw new UsageError('--model needs a name');
  const pricing: Pricing = {
    model: values.model ?? DEFAULT_PRICING.model,
    inputPerMillion: nonNegative('--input-price', values['input-price']) ?? DEFAULT_PRICING.inputPerMillion,
    cacheRead: nonNegative('--cache-read', values['cache-read']) ?? DEFAULT_PRICING.cacheRead,
    cacheWrite: nonNegative('--cache-write', values['cache-write']) ?? DEFAULT_PRICING.cacheWrite,
  };
  return {
    paths: positionals,
    budgets: budgets.map(Number),
    ...(values.out === undefined ? {} : { out: values.out }),
    ...(maxNodes === undefined ? {} : { maxNodes }),
    ...(hops === undefined ? {} : { hops }),
    ...(mode === undefined ? {} : { mode }),
    pricing,
    help: values.help === true,
  };
}

function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new UsageError(`${flag}: ${JSON.stringify(value)} is not a positive integer`);
  return Number(value);
}

function nonNegative(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new UsageError(`${flag}: ${JSON.stringify(value)} is not a non-negative number`);
  return n;
}

/** Files as given; a directory contributes its `*.traj.json` files in name order. */
async function trajectoryFiles(paths: readonly string[], cwd: string): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const full = resolve(cwd, p);
    const info = await stat(full).catch(() => null);
    if (!info) throw new UsageError(`no such file or directory: ${p}`);
    if (!info.isDirectory()) {
      out.push(full);
      continue;
    }
    const names = (await readdir(full)).filter((n) => n.endsWith('.traj.json')).sort();
    if (names.length === 0) throw new UsageError(`no *.traj.json files in ${p}`);
    out.push(...names.map((n) => join(full, n)));
  }
  return out;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runCli(['replay', ...process.argv.slice(2)], {
    stdout: (s) => process.stdout.write(s),
    stderr: { write: (s) => process.stderr.write(s), isTTY: process.stderr.isTTY === true },
    cwd: process.cwd(),
  });
}
