/** `context-ledger ingest <transcript...> --out DIR`: transcripts → one durable ledger. */
import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import {
  TRANSCRIPT_ADAPTERS as ADAPTERS,
  detectFormat,
  TRANSCRIPT_FORMATS as FORMATS,
  type TranscriptFormat,
} from '../adapters/detect-format.js';
import { isLedgerError } from '../errors.js';
import { InputError, parse, requiredString, UsageError } from './args.js';
import type { CliIO } from './io.js';
import { createLedgerDir } from './ledger-dir.js';
import { progressBar } from './progress.js';

export const INGEST_USAGE = `Usage: context-ledger ingest <transcript...> --out DIR [--format F]

Commits agent transcripts into a durable ledger in DIR (created when missing; an existing ledger
is appended to), one transaction per step. The format of each file is detected from its JSON:
mini-swe-agent (*.traj.json), SWE-agent (*.traj), OpenAI chat messages, Anthropic messages, or
a conversation (dated sessions of {speaker, text} turns, written as fromConversation writes them).
Ids are prefixed with the file's name ("<name>/"; with its parent directories when two files share a
name), so several transcripts share one ledger, and
each transcript's epochs follow the ledger's last one. They share its paths too: a later
transcript's write to a path supersedes an earlier one's, so give unrelated repositories their
own directories.

  --out DIR      the ledger directory (required)
  --format F     skip detection: ${FORMATS.join(', ')}
  -h, --help     this text
`;

export interface Adapted {
  file: string;
  name: string;
  format: TranscriptFormat;
  trace: ReturnType<(typeof ADAPTERS)[TranscriptFormat]>;
}

export async function ingest(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, { out: { type: 'string' }, format: { type: 'string' } }, true);
  if (values.help) {
    io.stdout(INGEST_USAGE);
    return 0;
  }
  const out = requiredString(values.out, 'out');
  const forced = values.format as string | undefined;
  if (forced !== undefined && !(FORMATS as readonly string[]).includes(forced)) {
    throw new UsageError(`--format: ${JSON.stringify(forced)} is not one of ${FORMATS.join(', ')}`);
  }
  if (positionals.length === 0) throw new UsageError('at least one transcript file is required');

  // Every file is read and adapted before the ledger is opened: bad input changes nothing.
  const names = transcriptNames(positionals, io.cwd);
  const adapted: Adapted[] = [];
  for (const [i, file] of positionals.entries())
    adapted.push(await loadTranscript(file, io.cwd, forced as TranscriptFormat, names[i]));

  const { ledger } = await createLedgerDir(resolve(io.cwd, out), io);
  try {
    const total = adapted.reduce((n, a) => n + a.trace.transactions.length, 0);
    const progress = progressBar(io.stderr, 'ingest', total);
    let done = 0;
    for (const a of adapted) {
      const offset = ledger.lastTx === 0 ? 0 : ledger.lastEpoch + 1;
      for (const tx of a.trace.transactions) {
        try {
          await ledger.commit({ ...tx, epoch: tx.epoch + offset });
        } catch (e) {
          if (!isLedgerError(e)) throw e;
          const hint = e.code === 'DUPLICATE_ID' ? ` (was ${a.file} ingested into ${out} already?)` : '';
          throw new InputError(`${a.file}: ${e.code} ${JSON.stringify(e.details)}${hint}`);
        }
        progress(++done, a.name);
      }
      const s = a.trace.stats;
      io.stdout(
        `${a.file}: ${a.format}, ${s.steps} steps, ${s.commands} commands (${s.recognised} recognised), ${s.warnings.length} warnings, epochs ${offset}-${ledger.lastEpoch}\n`,
      );
    }
    await ledger.compact();
    io.stdout(`${out}: ${ledger.lastTx} transactions, last epoch ${ledger.lastEpoch}\n`);
    return 0;
  } finally {
    await ledger.close();
  }
}

/** Reads, detects and adapts one transcript file; anything that is not one is an input error. */
export async function loadTranscript(
  file: string,
  cwd: string,
  forced: TranscriptFormat | undefined,
  name = transcriptNames([file], cwd)[0]!,
): Promise<Adapted> {
  const full = resolve(cwd, file);
  let value: unknown;
  try {
    // A byte-order mark is not JSON, but editors on Windows write one.
    value = JSON.parse((await readFile(full, 'utf8')).replace(/^\uFEFF/, ''));
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    throw new InputError(`${file}: cannot read a JSON transcript: ${reason}`);
  }
  const detected = detectFormat(value);
  if (forced !== undefined && detected !== null && detected !== forced) {
    throw new InputError(`${file}: --format ${forced} given, but the file is a ${detected} transcript`);
  }
  const format = forced ?? detected;
  if (format === null) {
    throw new InputError(
      `${file}: not a transcript this tool reads (expected a mini-swe-agent or SWE-agent trajectory, an OpenAI or Anthropic message array, or a conversation: sessions of {speaker, text} turns)`,
    );
  }
  let trace: Adapted['trace'];
  try {
    trace = ADAPTERS[format](value, { idPrefix: `${name}/` });
  } catch (e) {
    throw new InputError(`${file}: not a ${format} transcript: ${(e as Error).message}`);
  }
  if (trace.stats.steps === 0) throw new InputError(`${file}: no agent steps found (read as ${format})`);
  return { file, name, format, trace };
}

/**
 * Each transcript's name, its ids' prefix: the file name without `.traj`/`.json`, extended by its
 * parent directories as far as needed to tell apart files of the same name (`runA/trajectory`,
 * `runB/trajectory`). The same file given twice is refused: its second copy would only collide.
 */
function transcriptNames(files: readonly string[], cwd: string): string[] {
  const paths = files.map((f) => resolve(cwd, f));
  const seen = new Map<string, string>();
  for (const [i, p] of paths.entries()) {
    const earlier = seen.get(p);
    if (earlier !== undefined) throw new InputError(`${files[i]}: given twice (also as ${earlier})`);
    seen.set(p, files[i]!);
  }
  const parts = paths.map((p) => {
    const segments = p.split(sep).filter(Boolean);
    segments[segments.length - 1] = segments.at(-1)!.replace(/(\.traj)?(\.json)?$/, '');
    return segments;
  });
  const names = parts.map((s) => s.at(-1)!);
  for (let depth = 2; ; depth++) {
    const count = new Map<string, number>();
    for (const n of names) count.set(n, (count.get(n) ?? 0) + 1);
    const clashing = names.map((n) => count.get(n)! > 1);
    if (!clashing.includes(true)) return names;
    for (const [i, clash] of clashing.entries())
      if (clash && depth <= parts[i]!.length) names[i] = parts[i]!.slice(-depth).join('/');
    if (clashing.every((c, i) => !c || depth > parts[i]!.length)) return names;
  }
}
