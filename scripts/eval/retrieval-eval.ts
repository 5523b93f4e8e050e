/**
 * The retrieval evaluation (issue 6): the ledger's `retrieve` against Orama BM25 and Orama hybrid
 * on LoCoMo (temporal and multi-hop conversation memory, abstention on unanswerable questions)
 * and MuSiQue (multi-hop passage retrieval, with and without graph expansion).
 *
 * Rules every system is held to:
 * - recall@k = share of a question's gold ids among the system's first k results, averaged over
 *   questions with at least one gold id; the ledger's ranking is `evidence` when it answers
 *   `supported`, else `partial` (abstention is scored separately, from its own `status`);
 * - latency = wall time of one query call (for the ledger `retrieve`, for hybrid Orama including
 *   the query's embedding), after a warm-up query per index that builds the ledger's lazy search
 *   tables; nearest-rank p50/p95;
 * - same inputs: every baseline indexes exactly the turn/passage bodies the ledger stores; LoCoMo
 *   goes through the library's `fromConversation` adapter and is queried with a user's default
 *   call (no scoping, no extra records: nothing a user would not get).
 */

import { DEFAULT_MAX_ENTITY_DF } from '../../src/adapters/documents/document-links.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import type { SupportFeatures } from '../../src/rerank/support.js';
import { DEFAULT_SUPPORT_THRESHOLD } from '../../src/rerank/support.js';
import type { RetrievalQuery } from '../../src/retrieval/query.js';
import type { Embedder } from '../../src/text/hashed-embedder.js';
import { hashedTrigramEmbedder } from '../../src/text/hashed-embedder.js';
import { CATEGORY_NAMES, type LocomoCategory, type LocomoData, locomoDocuments, locomoTransactions } from './locomo.js';
import { type MusiqueData, musiqueDocuments, passageBody } from './musique.js';
import { createOramaBaseline, type OramaBaseline, type OramaTokenizer } from './orama-baseline.js';
import { plainBm25 } from './plain-bm25.js';

export type OpenLedger = (embedder: Embedder) => Promise<Ledger>;

export interface Progress {
  corpus: 'locomo' | 'musique';
  done: number;
  total: number;
  /** What is being done: a conversation id, `index`, `queries`. */
  step: string;
}

export interface LocomoOptions {
  /** Orama's term analysis (default the ledger's; see orama-baseline.ts). */
  oramaTokenizer?: OramaTokenizer;
  /** Results per query (the ledger's record budget, Orama's limit). Default 10. */
  k?: number;
  /** Graph hops for the ledger (default: the ledger's default, 2). */
  hops?: number;
  /** Support thresholds for the abstention curve (default 0.2 … 0.7); the ledger's default is always added. */
  thresholds?: readonly number[];
  /** Restrict to some conversations (tests, quick runs). */
  conversations?: readonly string[];
  /**
   * A semantic embedder: adds the same default call on a ledger opened with it (`ledgerSemantic`:
   * `openLedger({ embedder })`, nothing else changed) and gives Orama hybrid the same embedder.
   * Without one, Orama hybrid uses the built-in hashed-trigram embedder.
   */
  semantic?: Embedder;
  onProgress?: (p: Progress) => void;
}

export interface MusiqueOptions {
  k?: number;
  oramaTokenizer?: OramaTokenizer;
  /** Graph hops of the "with expansion" run (default 2). */
  hops?: number;
  /** A semantic embedder (as for LoCoMo): adds `ledgerSemantic` (hops 0) and `ledgerSemanticGraph`. */
  semantic?: Embedder;
  onProgress?: (p: Progress) => void;
}

export const SYSTEMS = ['ledger', 'ledgerSemantic', 'plainBm25', 'oramaBm25', 'oramaHybrid'] as const;
export type SystemName = (typeof SYSTEMS)[number];
/** Per system: `ledgerSemantic` is there only when a semantic embedder was given. */
export type PerSystem<T> = Record<Exclude<SystemName, 'ledgerSemantic'>, T> & { ledgerSemantic?: T };
export const DEFAULT_THRESHOLDS = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7] as const;
/** The ledger's default support threshold (rerank/support.ts): the status it reports. */
export const LEDGER_THRESHOLD = DEFAULT_SUPPORT_THRESHOLD;

export interface Latency {
  p50: number;
  p95: number;
  /** Milliseconds to build the index (ledger: commits + the first, index-building query). */
  buildMs: number;
}

export interface RecallRow {
  questions: number;
  at: Record<string, number>;
}

export interface LocomoReport {
  config: {
    oramaTokenizer: OramaTokenizer;
    k: number;
    hops: number | null;
    embedder: string;
    /** The semantic embedder of `ledgerSemantic` and Orama hybrid, null when none was given. */
    semantic: string | null;
    supportThreshold: number;
  };
  data: {
    conversations: number;
    turns: number;
    questions: number;
    byCategory: Record<string, number>;
    /** Evidence-id repairs (see locomo.ts) and questions left without a gold turn. */
    repairs: { repaired: number; dropped: number; dangling: number; withoutGold: number };
  };
  /** Recall per system: `overall` = categories 1–4 (answerable), then each category. */
  recall: PerSystem<Record<string, RecallRow>>;
  latency: PerSystem<Latency>;
  abstention: {
    /** At the ledger's default threshold: its own `status`. */
    category5: number;
    falseAbstention: number;
    /** Abstention as a function of the threshold, from the raw support (see `abstainAt`). */
    curve: Array<{ threshold: number; category5: number; falseAbstention: number }>;
  };
  questions: Array<{
    id: string;
    category: LocomoCategory;
    gold: string[];
    status: 'supported' | 'abstain';
    /** Calibrated support at threshold 0 (uncapped). */
    support: number;
    rawSupport: number;
    /** The calibration's inputs (see rerank/support.ts; scripts/fit-support.ts refits from them). */
    features: SupportFeatures | null;
    /** 1-based rank of each gold id in each system's list, null when absent. */
    ranks: PerSystem<Array<number | null>>;
  }>;
}

export interface MusiqueReport {
  config: {
    k: number;
    hops: number;
    maxEntityDf: number;
    embedder: string;
    semantic: string | null;
    oramaTokenizer: OramaTokenizer;
  };
  data: { passages: number; questions: number; unmatched: number; links: Record<string, number> };
  /** `ledger` = without graph expansion (hops 0), `ledgerGraph` = with it. */
  recall: Record<string, RecallRow>;
  byHops: Record<string, Record<string, RecallRow>>;
  latency: Record<string, Latency>;
}

export interface RetrievalReport {
  locomo?: LocomoReport;
  musique?: MusiqueReport;
  /**
   * The semantic embedder's eval-only vector cache (scripts/eval/vector-cache.ts): corpus vectors
   * read from it vs embedded in this run, and query texts (always embedded live).
   */
  vectorCache?: { corpusHits: number; corpusEmbedded: number; queriesEmbedded: number };
  /** Wall time of the whole evaluation, seconds. */
  seconds: number;
}

// ----- metrics -------------------------------------------------------------------------------

export function recallAt(ranked: readonly string[], gold: readonly string[], k: number): number {
  if (gold.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return gold.filter((g) => top.has(g)).length / gold.length;
}

/** Nearest-rank percentile (p in (0, 100]); 0 for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const round = (x: number, digits = 4): number => Number(x.toFixed(digits));

function recallRow(
  items: ReadonlyArray<{ ranked: readonly string[]; gold: readonly string[] }>,
  ks: readonly number[],
): RecallRow {
  const scored = items.filter((i) => i.gold.length > 0);
  const at: Record<string, number> = {};
  for (const k of ks) at[String(k)] = round(mean(scored.map((i) => recallAt(i.ranked, i.gold, k))));
  return { questions: scored.length, at };
}

/**
 * Abstention at threshold t from a query's raw support (its support at threshold 0): for a text
 * query without artifact or claim constraints, `retrieve` abstains exactly when support < t
 * (retrieve.ts adds a `missing` entry only then), so one raw support value gives the whole curve.
 */
export const abstainAt = (rawSupport: number, threshold: number): boolean => rawSupport < threshold;

/**
 * The curve's thresholds: the given ones and the ledger's default, rounded to 3 decimals, each
 * once, ascending (so the status row is on the curve and no threshold prints twice).
 */
export function curveThresholds(given: readonly number[]): number[] {
  const rounded = [...given, LEDGER_THRESHOLD].map((t) => Math.round(t * 1000) / 1000);
  return [...new Set(rounded)].sort((a, b) => a - b);
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

const latencyOf = (ms: readonly number[], buildMs: number): Latency => ({
  p50: round(percentile(ms, 50), 2),
  p95: round(percentile(ms, 95), 2),
  buildMs: round(buildMs, 0),
});

async function retrieveRanked(
  ledger: Ledger,
  query: RetrievalQuery,
): Promise<{
  ids: string[];
  status: 'supported' | 'abstain';
  support: number;
  rawSupport: number;
  features: SupportFeatures | null;
}> {
  const r = await ledger.retrieve(query);
  return {
    ids: (r.status === 'supported' ? r.evidence : r.partial).map((e) => e.id),
    status: r.status,
    support: r.support,
    rawSupport: r.rawSupport,
    features: r.supportFeatures ?? null,
  };
}

// ----- LoCoMo --------------------------------------------------------------------------------

export async function evaluateLocomo(
  data: LocomoData,
  openLedger: OpenLedger,
  options: LocomoOptions = {},
): Promise<LocomoReport> {
  const oramaTokenizer = options.oramaTokenizer ?? 'ledger';
  const k = options.k ?? 10;
  const ks = [5, 10].filter((x) => x <= k);
  const thresholds = curveThresholds(options.thresholds ?? DEFAULT_THRESHOLDS);
  const embedder = hashedTrigramEmbedder();
  const semantic = options.semantic ?? null;
  const systems = SYSTEMS.filter((s) => s !== 'ledgerSemantic' || semantic !== null);
  const conversations = data.conversations.filter(
    (c) => !options.conversations || options.conversations.includes(c.id),
  );
  const total = conversations.reduce((a, c) => a + c.questions.length, 0);
  const latencies = Object.fromEntries(systems.map((s) => [s, [] as number[]])) as Record<SystemName, number[]>;
  const build = Object.fromEntries(systems.map((s) => [s, 0])) as Record<SystemName, number>;
  const questions: LocomoReport['questions'] = [];
  const ranked: Array<{ category: LocomoCategory; gold: string[]; lists: Partial<Record<SystemName, string[]>> }> = [];
  let done = 0;
  for (const conv of conversations) {
    options.onProgress?.({ corpus: 'locomo', done, total, step: conv.id });
    const ledgerBuild = await timed(async () => {
      const ledger = await openLedger(embedder);
      for (const tx of locomoTransactions(conv)) await ledger.commit(tx);
      // The first retrieve builds the search tables: part of the build, not of a query's latency.
      await ledger.retrieve({ text: 'warm up the index' });
      return ledger;
    });
    const ledger = ledgerBuild.value;
    build.ledger += ledgerBuild.ms;
    // The same default call on a ledger opened with the semantic embedder: its first retrieve
    // embeds every body, so that is part of its build.
    const semanticBuild =
      semantic === null
        ? null
        : await timed(async () => {
            const l = await openLedger(semantic);
            for (const tx of locomoTransactions(conv)) await l.commit(tx);
            await l.retrieve({ text: 'warm up the index' });
            return l;
          });
    if (semanticBuild) build.ledgerSemantic += semanticBuild.ms;
    const docs = locomoDocuments(conv);
    const plainBuild = await timed(async () => plainBm25(docs));
    build.plainBm25 += plainBuild.ms;
    const oramaBuild = await timed(() => createOramaBaseline(docs, semantic ?? embedder, oramaTokenizer));
    build.oramaBm25 += oramaBuild.ms;
    build.oramaHybrid += oramaBuild.ms;
    const orama: OramaBaseline = oramaBuild.value;
    const epoch = conv.sessions.length;
    try {
      for (const q of conv.questions) {
        // A user's default call: the final epoch, the `user` scope, the question, ten records.
        const query: RetrievalQuery = {
          epoch,
          authority: ['user'],
          text: q.question,
          budget: { records: k },
          ...(options.hops === undefined ? {} : { hops: options.hops }),
        };
        const main = await timed(() => retrieveRanked(ledger, query));
        // Calibrated support for the threshold curve: an abstention caps it below the threshold,
        // so ask again at threshold 0 (untimed).
        const raw =
          main.value.status === 'supported'
            ? main.value
            : await retrieveRanked(ledger, { ...query, supportThreshold: 0 });
        const sem = semanticBuild ? await timed(() => retrieveRanked(semanticBuild.value, query)) : null;
        const plain = await timed(async () => plainBuild.value(q.question, k));
        const bm25 = await timed(() => orama.bm25(q.question, k));
        const hybrid = await timed(() => orama.hybrid(q.question, k));
        latencies.ledger.push(main.ms);
        if (sem) latencies.ledgerSemantic.push(sem.ms);
        latencies.plainBm25.push(plain.ms);
        latencies.oramaBm25.push(bm25.ms);
        latencies.oramaHybrid.push(hybrid.ms);
        const lists: Partial<Record<SystemName, string[]>> = {
          ledger: main.value.ids,
          ...(sem ? { ledgerSemantic: sem.value.ids } : {}),
          plainBm25: plain.value,
          oramaBm25: bm25.value,
          oramaHybrid: hybrid.value,
        };
        ranked.push({ category: q.category, gold: q.evidence, lists });
        questions.push({
          id: q.id,
          category: q.category,
          gold: q.evidence,
          status: main.value.status,
          support: round(raw.support),
          rawSupport: round(raw.rawSupport),
          features:
            raw.features === null
              ? null
              : {
                  coverage: round(raw.features.coverage),
                  subjectCoverage: round(raw.features.subjectCoverage),
                  otherCoverage: round(raw.features.otherCoverage),
                  unseen: round(raw.features.unseen),
                  inference: raw.features.inference ?? 0,
                },
          ranks: Object.fromEntries(
            systems.map((s) => [s, q.evidence.map((g) => lists[s]!.indexOf(g) + 1 || null)]),
          ) as PerSystem<Array<number | null>>,
        });
        done++;
        if (done % 50 === 0) options.onProgress?.({ corpus: 'locomo', done, total, step: conv.id });
      }
    } finally {
      await ledger.close();
      await semanticBuild?.value.close();
    }
  }
  options.onProgress?.({ corpus: 'locomo', done, total, step: 'done' });

  const recall = Object.fromEntries(
    systems.map((s) => {
      const rows: Record<string, RecallRow> = {
        overall: recallRow(
          ranked.filter((r) => r.category !== 5).map((r) => ({ ranked: r.lists[s]!, gold: r.gold })),
          ks,
        ),
      };
      for (const c of [1, 2, 3, 4, 5] as const) {
        rows[`${c}-${CATEGORY_NAMES[c]}`] = recallRow(
          ranked.filter((r) => r.category === c).map((r) => ({ ranked: r.lists[s]!, gold: r.gold })),
          ks,
        );
      }
      return [s, rows];
    }),
  ) as PerSystem<Record<string, RecallRow>>;
  const adversarial = questions.filter((q) => q.category === 5);
  const answerable = questions.filter((q) => q.category !== 5);
  const share = (qs: typeof questions, pred: (q: (typeof questions)[number]) => boolean) =>
    round(qs.length === 0 ? 0 : qs.filter(pred).length / qs.length);
  const byCategory: Record<string, number> = {};
  for (const q of questions)
    byCategory[`${q.category}-${CATEGORY_NAMES[q.category]}`] =
      (byCategory[`${q.category}-${CATEGORY_NAMES[q.category]}`] ?? 0) + 1;
  return {
    config: {
      oramaTokenizer,
      k,
      hops: options.hops ?? null,
      embedder: embedder.name,
      semantic: semantic?.name ?? null,
      supportThreshold: LEDGER_THRESHOLD,
    },
    data: {
      conversations: conversations.length,
      turns: conversations.reduce((a, c) => a + c.sessions.reduce((b, s) => b + s.turns.length, 0), 0),
      questions: questions.length,
      byCategory,
      repairs: {
        repaired: data.repairs.repaired.length,
        dropped: data.repairs.dropped.length,
        dangling: data.repairs.dangling.length,
        withoutGold: questions.filter((q) => q.gold.length === 0).length,
      },
    },
    recall,
    latency: Object.fromEntries(systems.map((s) => [s, latencyOf(latencies[s], build[s])])) as PerSystem<Latency>,
    abstention: {
      category5: share(adversarial, (q) => q.status === 'abstain'),
      falseAbstention: share(answerable, (q) => q.status === 'abstain'),
      curve: thresholds.map((t) => ({
        threshold: t,
        category5: share(adversarial, (q) => abstainAt(q.support, t)),
        falseAbstention: share(answerable, (q) => abstainAt(q.support, t)),
      })),
    },
    questions,
  };
}

// ----- MuSiQue -------------------------------------------------------------------------------

export async function evaluateMusique(
  data: MusiqueData,
  openLedger: OpenLedger,
  options: MusiqueOptions = {},
): Promise<MusiqueReport> {
  const k = options.k ?? 5;
  const ks = [2, 5].filter((x) => x <= k);
  const hops = options.hops ?? 2;
  const oramaTokenizer = options.oramaTokenizer ?? 'ledger';
  const embedder = hashedTrigramEmbedder();
  const semantic = options.semantic ?? null;
  const total = data.questions.length;
  options.onProgress?.({ corpus: 'musique', done: 0, total, step: 'index' });
  const corpus = musiqueDocuments(data.passages);
  const linkCounts = corpus.linkCounts;
  const ledgerBuild = await timed(async () => {
    const ledger = await openLedger(embedder);
    for (const tx of corpus.transactions) await ledger.commit(tx);
    await ledger.retrieve({ text: 'warm up the index' });
    return ledger;
  });
  const ledger = ledgerBuild.value;
  const semanticBuild =
    semantic === null
      ? null
      : await timed(async () => {
          const l = await openLedger(semantic);
          for (const tx of corpus.transactions) await l.commit(tx);
          await l.retrieve({ text: 'warm up the index' });
          return l;
        });
  const oramaBuild = await timed(() =>
    createOramaBaseline(
      data.passages.map((p) => ({ id: p.id, body: passageBody(p) })),
      semantic ?? embedder,
      oramaTokenizer,
    ),
  );
  const orama = oramaBuild.value;
  type Name = 'ledger' | 'ledgerGraph' | 'ledgerSemantic' | 'ledgerSemanticGraph' | 'oramaBm25' | 'oramaHybrid';
  const names: Name[] = [
    'ledger',
    'ledgerGraph',
    ...(semantic === null ? [] : (['ledgerSemantic', 'ledgerSemanticGraph'] as const)),
    'oramaBm25',
    'oramaHybrid',
  ];
  const latencies = Object.fromEntries(names.map((s) => [s, [] as number[]])) as Record<Name, number[]>;
  const rows: Array<{ hops: number; gold: string[]; lists: Partial<Record<Name, string[]>> }> = [];
  try {
    for (const [i, q] of data.questions.entries()) {
      const base = { text: q.question, budget: { records: k } };
      const lists: Partial<Record<Name, string[]>> = {};
      const run = async (name: Name, fn: () => Promise<string[]>) => {
        const r = await timed(fn);
        latencies[name].push(r.ms);
        lists[name] = r.value;
      };
      await run('ledger', async () => (await retrieveRanked(ledger, { ...base, hops: 0 })).ids);
      await run('ledgerGraph', async () => (await retrieveRanked(ledger, { ...base, hops })).ids);
      if (semanticBuild) {
        const l = semanticBuild.value;
        await run('ledgerSemantic', async () => (await retrieveRanked(l, { ...base, hops: 0 })).ids);
        await run('ledgerSemanticGraph', async () => (await retrieveRanked(l, { ...base, hops })).ids);
      }
      await run('oramaBm25', () => orama.bm25(q.question, k));
      await run('oramaHybrid', () => orama.hybrid(q.question, k));
      rows.push({ hops: q.hops, gold: q.supporting, lists });
      if ((i + 1) % 10 === 0) options.onProgress?.({ corpus: 'musique', done: i + 1, total, step: 'queries' });
    }
  } finally {
    await ledger.close();
    await semanticBuild?.value.close();
  }
  const recall: Record<string, RecallRow> = {};
  const byHops: Record<string, Record<string, RecallRow>> = {};
  const hopCounts = [...new Set(rows.map((r) => r.hops))].sort((a, b) => a - b);
  for (const s of names) {
    recall[s] = recallRow(
      rows.map((r) => ({ ranked: r.lists[s]!, gold: r.gold })),
      ks,
    );
    byHops[s] = Object.fromEntries(
      hopCounts.map((h) => [
        `${h}-hop`,
        recallRow(
          rows.filter((r) => r.hops === h).map((r) => ({ ranked: r.lists[s]!, gold: r.gold })),
          ks,
        ),
      ]),
    );
  }
  const buildMs: Record<Name, number> = {
    ledger: ledgerBuild.ms,
    ledgerGraph: ledgerBuild.ms,
    ledgerSemantic: semanticBuild?.ms ?? 0,
    ledgerSemanticGraph: semanticBuild?.ms ?? 0,
    oramaBm25: oramaBuild.ms,
    oramaHybrid: oramaBuild.ms,
  };
  return {
    config: {
      k,
      hops,
      maxEntityDf: DEFAULT_MAX_ENTITY_DF,
      embedder: embedder.name,
      semantic: semantic?.name ?? null,
      oramaTokenizer,
    },
    data: { passages: data.passages.length, questions: total, unmatched: data.unmatched, links: linkCounts },
    recall,
    byHops,
    latency: Object.fromEntries(names.map((s) => [s, latencyOf(latencies[s], buildMs[s])])),
  };
}

// ----- both ----------------------------------------------------------------------------------

export interface RetrievalEvalInput {
  locomo?: LocomoData;
  musique?: MusiqueData;
}

/** Runs what it is given, LoCoMo first, and times the whole. */
export async function runRetrievalEval(
  input: RetrievalEvalInput,
  openLedger: OpenLedger,
  options: { locomo?: LocomoOptions; musique?: MusiqueOptions } = {},
): Promise<RetrievalReport> {
  const start = performance.now();
  const report: RetrievalReport = { seconds: 0 };
  if (input.locomo) report.locomo = await evaluateLocomo(input.locomo, openLedger, options.locomo);
  if (input.musique) report.musique = await evaluateMusique(input.musique, openLedger, options.musique);
  report.seconds = round((performance.now() - start) / 1000, 1);
  return report;
}
