import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { locomoTransactions, parseLocomo } from '../../scripts/eval/locomo.js';
import { parseMusique } from '../../scripts/eval/musique.js';
import { createOramaBaseline } from '../../scripts/eval/orama-baseline.js';
import {
  abstainAt,
  curveThresholds,
  DEFAULT_THRESHOLDS,
  evaluateLocomo,
  evaluateMusique,
  LEDGER_THRESHOLD,
  type OpenLedger,
  percentile,
  recallAt,
} from '../../scripts/eval/retrieval-eval.js';
import { renderRetrievalMarkdown, stableJson } from '../../scripts/eval/retrieval-report.js';
import { runEvalRetrieval } from '../../scripts/eval-retrieval.js';
import { hashedTrigramEmbedder } from '../../src/text/hashed-embedder.js';
import { LedgerPool } from '../helpers/ledgers.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/retrieval/${name}`, import.meta.url));
const json = async (name: string) => JSON.parse(await readFile(fixture(name), 'utf8'));

const pool = new LedgerPool();
afterAll(() => pool.close());
const pooled: OpenLedger = (embedder) => pool.ledger(0, undefined, embedder);

/** A report without its wall-clock measurements. */
const withoutTimes = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (k, v) => (['p50', 'p95', 'buildMs', 'seconds'].includes(k) ? 0 : v)));

describe('metrics', () => {
  it('recall@k is the share of gold ids among the first k', () => {
    expect(recallAt(['a', 'b', 'c'], ['c', 'x'], 2)).toBe(0);
    expect(recallAt(['a', 'b', 'c'], ['c', 'x'], 3)).toBe(0.5);
    expect(recallAt([], [], 5)).toBe(0);
  });

  it('percentiles are nearest-rank', () => {
    const xs = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10];
    expect(percentile(xs, 50)).toBe(5);
    expect(percentile(xs, 95)).toBe(10);
    expect(percentile([], 50)).toBe(0);
  });

  it("the curve's thresholds: each once, ascending, the ledger's default among them", () => {
    expect(curveThresholds([0.7, 0.6, 0.6000000001, 0.2])).toEqual(
      [0.2, 0.6, 0.7, LEDGER_THRESHOLD].sort((a, b) => a - b),
    );
    const t = curveThresholds(DEFAULT_THRESHOLDS);
    expect(new Set(t).size).toBe(t.length);
    expect(t).toContain(LEDGER_THRESHOLD);
    expect([...t].sort((a, b) => a - b)).toEqual(t);
  });

  it("the threshold curve's rule is the ledger's own: abstain exactly when raw support < threshold", async () => {
    const conv = parseLocomo(await json('locomo-mini.json')).conversations[0]!;
    const ledger = await pool.ledger();
    for (const tx of locomoTransactions(conv)) await ledger.commit(tx);
    const statuses: string[] = [];
    for (const q of conv.questions) {
      const raw = await ledger.retrieve({ text: q.question, authority: ['user'], supportThreshold: 0 });
      const r = await ledger.retrieve({ text: q.question, authority: ['user'], supportThreshold: LEDGER_THRESHOLD });
      expect(r.status === 'abstain').toBe(abstainAt(raw.support, LEDGER_THRESHOLD));
      statuses.push(r.status);
    }
    // Both outcomes occur, so the check is not vacuous.
    expect(new Set(statuses)).toEqual(new Set(['supported', 'abstain']));
  }, 180_000);
});

describe('Orama baselines', () => {
  it('rank by BM25 and hybrid over the given bodies, filtered by scope', async () => {
    const orama = await createOramaBaseline(
      [
        { id: 'a', body: 'Alice: I play the cello', scope: 'speaker:Alice' },
        { id: 'b', body: 'Bob: my puppy chewed a shoe', scope: 'speaker:Bob' },
        { id: 'c', body: 'Bob: the cello concert was loud', scope: 'speaker:Bob' },
      ],
      hashedTrigramEmbedder(),
    );
    expect((await orama.bm25('puppy shoe', 2))[0]).toBe('b');
    expect((await orama.hybrid('puppy shoe', 2))[0]).toBe('b');
    expect(await orama.bm25('cello', 3, ['speaker:Bob'])).toEqual(['c']);
    expect((await orama.hybrid('cello', 3, ['speaker:Alice']))[0]).toBe('a');
  });

  it("use the ledger's terms by default (stop words out, identifiers split), Orama's own on request", async () => {
    const docs = [
      { id: 'a', body: 'the parse_status of the frame' },
      { id: 'b', body: 'what a day' },
    ];
    const ledgerTerms = await createOramaBaseline(docs, hashedTrigramEmbedder());
    const shipped = await createOramaBaseline(docs, hashedTrigramEmbedder(), 'orama');
    expect(await ledgerTerms.bm25('what the', 2)).toEqual([]);
    expect(await shipped.bm25('what the', 2)).toContain('b');
    expect(await ledgerTerms.bm25('status', 2)).toEqual(['a']);
  });
});

describe('LoCoMo evaluation', () => {
  it('reports recall per category for every system, abstention and the repairs', async () => {
    const data = parseLocomo(await json('locomo-mini.json'));
    const r = await evaluateLocomo(data, pooled);
    expect(r.config).toMatchObject({ oramaTokenizer: 'ledger', k: 10, supportThreshold: LEDGER_THRESHOLD });
    expect(r.data).toMatchObject({
      conversations: 1,
      turns: 8,
      questions: 6,
      repairs: { repaired: 2, dropped: 1, dangling: 1, withoutGold: 1 },
    });
    expect(Object.keys(r.recall).sort()).toEqual(['ledger', 'oramaBm25', 'oramaHybrid', 'plainBm25']);
    // Categories 1–4 with gold (the open-domain question has none).
    expect(r.recall.ledger.overall!.questions).toBe(4);
    expect(r.recall.ledger['5-adversarial']!.questions).toBe(1);
    expect(r.recall.ledger['4-single-hop']!.at['5']).toBe(1);
    // The adversarial question asks Bob's turns about Alice's cello: nothing there supports it.
    const adversarial = r.questions.find((q) => q.category === 5)!;
    expect(adversarial.features!.subjectCoverage).toBeLessThan(adversarial.features!.coverage);
    expect(adversarial.status).toBe('abstain');
    expect(r.abstention.category5).toBe(1);
    expect(r.abstention.curve.map((c) => c.threshold)).toEqual(curveThresholds(DEFAULT_THRESHOLDS));
    // The default threshold's row is the status the ledger reported.
    const atDefault = r.abstention.curve.find((c) => c.threshold === LEDGER_THRESHOLD)!;
    expect(atDefault.category5).toBe(r.abstention.category5);
    expect(atDefault.falseAbstention).toBe(r.abstention.falseAbstention);
    expect(r.questions.find((q) => q.id === 'conv-mini#0')!.ranks.ledger).toEqual([1]);
    for (const s of ['ledger', 'plainBm25', 'oramaBm25', 'oramaHybrid'] as const)
      expect(r.latency[s].p95).toBeGreaterThanOrEqual(r.latency[s].p50);
  });

  it('is deterministic apart from wall-clock times', async () => {
    const data = parseLocomo(await json('locomo-mini.json'));
    const a = await evaluateLocomo(data, pooled);
    const b = await evaluateLocomo(data, pooled);
    expect(withoutTimes(a)).toEqual(withoutTimes(b));
  });
});

describe('MuSiQue evaluation', () => {
  it('reports recall@2 and @5 with and without graph expansion, by hop count', async () => {
    const data = parseMusique(await json('musique-mini.json'), await json('musique-mini_corpus.json'));
    const r = await evaluateMusique(data, pooled);
    expect(Object.keys(r.recall).sort()).toEqual(['ledger', 'ledgerGraph', 'oramaBm25', 'oramaHybrid']);
    expect(r.recall.ledger!.questions).toBe(2);
    expect(Object.keys(r.byHops.ledger!)).toEqual(['2-hop']);
    for (const row of Object.values(r.recall))
      for (const v of Object.values(row.at)) expect(v).toBeGreaterThanOrEqual(0);
    expect(r.data.links).toEqual({ 'same-title': 1, title: 5 });
    expect(r.config).toMatchObject({ k: 5, hops: 2, maxEntityDf: 8 });
  });
});

describe('report and command line', () => {
  it('writes retrieval.json with sorted keys and a Markdown table', async () => {
    const out = await mkdtemp(join(tmpdir(), 'retrieval-eval-'));
    let stdout = '';
    let stderr = '';
    try {
      const code = await runEvalRetrieval(
        [
          '--locomo',
          fixture('locomo-mini.json'),
          '--musique',
          fixture('musique-mini.json'),
          '--out',
          out,
          '--semantic',
          'none',
        ],
        { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd: process.cwd(), openLedger: pooled },
      );
      expect(code).toBe(0);
      const md = await readFile(join(out, 'retrieval.md'), 'utf8');
      expect(md).toBe(stdout);
      expect(md).toContain('| overall | 4 |');
      expect(md).toContain('## MuSiQue (2 questions, 8 passages)');
      const text = await readFile(join(out, 'retrieval.json'), 'utf8');
      const report = JSON.parse(text);
      expect(stableJson(report)).toBe(text);
      expect(Object.keys(report)).toEqual(['locomo', 'musique', 'seconds']);
      expect(renderRetrievalMarkdown(report)).toBe(md);
      expect(stderr).toContain('locomo: 6/6 questions');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it('rejects bad arguments with the usage, and unreadable files with 1', async () => {
    const io = () => {
      const err: string[] = [];
      return {
        err,
        io: {
          stdout: () => undefined,
          stderr: (s: string) => void err.push(s),
          cwd: process.cwd(),
          openLedger: pooled,
        },
      };
    };
    const a = io();
    expect(await runEvalRetrieval(['--hops', 'two'], a.io)).toBe(2);
    expect(await runEvalRetrieval(['--orama-tokenizer', 'spacy'], a.io)).toBe(2);
    expect(await runEvalRetrieval(['stray'], a.io)).toBe(2);
    expect(await runEvalRetrieval(['--semantic', 'glove'], a.io)).toBe(2);
    expect(a.err.join('')).toContain('Usage: npm run eval:retrieval');
    const b = io();
    expect(await runEvalRetrieval(['--only', 'locomo', '--locomo', 'no/such/file.json'], b.io)).toBe(1);
    expect(b.err.join('')).toContain('cannot read');
  });
});
