import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLocomo } from '../../scripts/eval/locomo.js';
import { parseMusique } from '../../scripts/eval/musique.js';
import { evaluateLocomo, evaluateMusique, type OpenLedger } from '../../scripts/eval/retrieval-eval.js';
import { renderRetrievalMarkdown } from '../../scripts/eval/retrieval-report.js';
import { cachedEmbedder } from '../../scripts/eval/vector-cache.js';
import type { Embedder } from '../../src/text/hashed-embedder.js';
import { LedgerPool } from '../helpers/ledgers.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/retrieval/${name}`, import.meta.url));
const json = async (name: string) => JSON.parse(await readFile(fixture(name), 'utf8'));

const pool = new LedgerPool();
afterAll(() => pool.close());
// The semantic ledger is open beside the default one: two slots, alternating.
let opened = 0;
const twoSlots: OpenLedger = (embedder) => pool.ledger(1 + (opened++ % 2), undefined, embedder);

/** A toy semantic embedder (word length histogram) that records every text it is asked for. */
function recording(): { embedder: Embedder; seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    embedder: {
      dimensions: 4,
      name: 'toy-semantic-4',
      async embed(texts) {
        seen.push(...texts);
        return texts.map((t) => {
          const v = new Float32Array(4).fill(0.01);
          for (const w of t.split(/\s+/)) v[Math.min(3, Math.floor(w.length / 3))]! += 1;
          return v;
        });
      },
    },
  };
}

describe('the evaluation with a semantic embedder', () => {
  it('LoCoMo adds the default call on a ledger opened with it, and Orama hybrid embeds with it too', async () => {
    const data = parseLocomo(await json('locomo-mini.json'));
    const { embedder, seen } = recording();
    const r = await evaluateLocomo(data, twoSlots, { semantic: embedder });
    expect(Object.keys(r.recall).sort()).toEqual(['ledger', 'ledgerSemantic', 'oramaBm25', 'oramaHybrid', 'plainBm25']);
    expect(r.config.semantic).toBe('toy-semantic-4');
    expect(r.recall.ledgerSemantic!.overall!.questions).toBe(4);
    expect(r.questions[0]!.ranks.ledgerSemantic).toBeDefined();
    // Each question is embedded twice: by the semantic ledger's retrieve and by Orama hybrid.
    for (const q of data.conversations[0]!.questions) expect(seen.filter((t) => t === q.question)).toHaveLength(2);
    expect(renderRetrievalMarkdown({ locomo: r, seconds: 1 })).toContain('ledger + semantic @10');
    // Without one, nothing is added and the toy is never asked.
    const plain = await evaluateLocomo(data, twoSlots);
    expect(Object.keys(plain.recall)).not.toContain('ledgerSemantic');
    expect(plain.config.semantic).toBeNull();
  });

  it('MuSiQue adds the semantic ledger with and without graph expansion', async () => {
    const data = parseMusique(await json('musique-mini.json'), await json('musique-mini_corpus.json'));
    const { embedder } = recording();
    const r = await evaluateMusique(data, twoSlots, { semantic: embedder });
    expect(Object.keys(r.recall).sort()).toEqual([
      'ledger',
      'ledgerGraph',
      'ledgerSemantic',
      'ledgerSemanticGraph',
      'oramaBm25',
      'oramaHybrid',
    ]);
    expect(r.recall.ledgerSemanticGraph!.questions).toBe(2);
    expect(r.latency.ledgerSemantic!.p95).toBeGreaterThanOrEqual(r.latency.ledgerSemantic!.p50);
  });
});

describe('the vector cache', () => {
  it('serves corpus texts from disk on the next run and always embeds queries live', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vector-cache-'));
    try {
      const file = join(dir, 'v.bin');
      const corpus = new Set(['turn a', 'turn b']);
      const first = recording();
      const c1 = await cachedEmbedder(first.embedder, file, corpus);
      const [a1] = await c1.embedder.embed(['turn a', 'a question']);
      expect(c1.stats()).toEqual({ hits: 0, misses: 1, live: 1 });
      await c1.save();
      const second = recording();
      const c2 = await cachedEmbedder(second.embedder, file, corpus);
      const [a2, , q] = await c2.embedder.embed(['turn a', 'turn b', 'a question']);
      expect(second.seen).toEqual(['turn b', 'a question']);
      expect(c2.stats()).toEqual({ hits: 1, misses: 1, live: 1 });
      expect(Buffer.from(a2!.buffer).equals(Buffer.from(a1!.buffer))).toBe(true);
      expect(q).toHaveLength(4);
      expect(c2.embedder.name).toBe('toy-semantic-4');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
