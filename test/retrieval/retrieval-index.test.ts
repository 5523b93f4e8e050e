import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { RMDX_SESSION } from '../../demo/traces/rmdx-can-session.js';
import { rowsOf } from '../../src/engine/rows.js';
import { ledgerCore } from '../../src/ledger/ledger.js';
import { bm25 } from '../../src/rerank/bm25.js';
import { Bm25Corpus } from '../../src/rerank/bm25-corpus.js';
import { type ExactRow, exactRowsNow } from '../../src/retrieval/exact-channel.js';
import { type RetrievalQuery, resolveRetrievalQuery } from '../../src/retrieval/query.js';
import { RetrievalIndex } from '../../src/retrieval/retrieval-index.js';
import { TermPostings } from '../../src/retrieval/term-postings.js';
import { exactSql } from '../../src/sql/retrieval-sql.js';
import type { Embedder } from '../../src/text/hashed-embedder.js';
import { termCounts, textTerms } from '../../src/text/text-terms.js';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

/** BM25 written the textbook way, over the visible documents only. */
function referenceBm25(docs: string[], visible: boolean[], terms: string[]): Map<number, number> {
  const seen = docs.map((d, i) => (visible[i] ? termCounts(d) : null));
  const live = seen.filter((s) => s !== null);
  const n = live.length;
  const avgdl = n === 0 ? 0 : live.reduce((a, s) => a + s.length, 0) / n;
  const out = new Map<number, number>();
  for (const t of terms) {
    const df = live.filter((s) => s.counts.has(t)).length;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    seen.forEach((s, i) => {
      const tf = s?.counts.get(t) ?? 0;
      if (s === null || tf === 0) return;
      out.set(i, (out.get(i) ?? 0) + (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * s.length) / avgdl)));
    });
  }
  return out;
}

describe('retrieval index', () => {
  it('BM25 over the in-memory postings equals the textbook formula over the visible bodies', () => {
    const word = fc.constantFrom('crc', 'frame', 'parse', 'speed', 'motor', 'reply', 'status', 'torque', 'x9');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(word, { minLength: 1, maxLength: 12 }), fc.boolean()), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.uniqueArray(word, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 10 }),
        (rows, query, limit) => {
          const docs = rows.map(([w]) => w.join(' '));
          const visible = rows.map(([, v]) => v);
          const postings = new TermPostings();
          for (const [i, d] of docs.entries()) postings.add(i, d);
          const bodies = Int32Array.from(visible, (v) => (v ? 1 : 0));
          const lens = docs.map((d, i) => (visible[i] ? termCounts(d).length : 0));
          const docCount = visible.filter(Boolean).length;
          const terms = [...new Set(query)].sort();
          const avgdl = docCount === 0 ? 0 : lens.reduce((a, b) => a + b, 0) / docCount;
          const got = bm25({ terms, corpus: new Bm25Corpus(postings, bodies, docCount, avgdl), limit });
          // A corpus kept across queries (its df and length norms cached) ranks the same bits.
          const kept = new Bm25Corpus(postings, bodies, docCount, avgdl);
          bm25({ terms: [...terms, 'crc', 'zz'].sort(), corpus: kept, limit: 3 });
          expect(bm25({ terms, corpus: kept, limit })).toEqual(got);
          const want = [...referenceBm25(docs, visible, terms)].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
          // The same scores in the same order (ties may fall either way: sums differ in the last bit).
          const ref = new Map(want);
          expect(got.ranked.length).toBe(Math.min(limit, want.length));
          for (const [i, r] of got.ranked.entries()) {
            expect(r.score).toBeCloseTo(want[i]![1], 9);
            expect(r.score).toBeCloseTo(ref.get(r.bkey)!, 9);
          }
          for (const r of got.ranked)
            expect(r.matched).toEqual(terms.filter((t) => termCounts(docs[r.bkey]!).counts.has(t)));
          // Invisible bodies neither score nor count.
          for (const r of got.ranked) expect(visible[r.bkey]).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('postings hold exactly termCounts of every body, however the word table is bounded', () => {
    // Digits-only words take wordTerms' one-part path: the same single term as the general split.
    expect(textTerms('0042 x9 parseStatus2 1234567')).toEqual([
      '0042',
      'x',
      '9',
      'x9',
      'pars',
      'status',
      '2',
      'parsestatus2',
      '1234567',
    ]);
    const piece = fc.oneof(
      fc.constantFrom(
        'parseStatus2',
        'REPLY_BASE',
        'src/can/parser.ts',
        'the',
        'camping',
        'crc8',
        'é',
        '日本',
        '\n',
        ' ',
      ),
      fc.string({ maxLength: 12 }),
      fc.stringMatching(/^[A-Za-z0-9_]{60,140}$/),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.array(piece, { maxLength: 30 }).map((p) => p.join(' ')),
          { maxLength: 12 },
        ),
        fc.integer({ min: 1, max: 64 }),
        (texts, maxWords) => {
          for (const postings of [new TermPostings(), new TermPostings(maxWords)]) {
            for (const [i, t] of texts.entries()) expect(postings.add(i, t)).toBe(true);
            let total = 0;
            for (const [i, t] of texts.entries()) {
              const { counts, length } = termCounts(t);
              expect(postings.docLen[i]).toBe(length);
              expect(postings.chars[i]).toBe(t.length);
              total += counts.size;
              for (const [term, tf] of counts) {
                const list = postings.list(term)!;
                const at = [...list.bkeys.subarray(0, list.length)].indexOf(i);
                expect(list.tfs[at]).toBe(tf);
              }
            }
            expect(postings.size).toBe(total);
            expect(postings.add(texts.length + 1, 'x')).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a word of any length is indexed like termCounts has it (a megabyte of base64 is one word)', () => {
    const postings = new TermPostings();
    const text = `blob ${'QUJD'.repeat(300_000)}x9 end`;
    expect(postings.add(0, text)).toBe(true);
    const { counts, length } = termCounts(text);
    expect(postings.docLen[0]).toBe(length);
    for (const [term, tf] of counts) expect(postings.list(term)?.tfs[0]).toBe(tf);
    expect(postings.size).toBe(counts.size);
  });

  it('a restored ledger retrieves exactly what the original did, before and after a further commit', async () => {
    const queries: RetrievalQuery[] = [
      { text: 'crc8 frame bytes' },
      { text: 'speed dps per LSB scaling', supportThreshold: 0.3 },
      { text: 'parse status reply', authority: ['agent'] },
      { artifacts: [{ path: 'rmdx/driver.py', range: [41, 70] }] },
      { task: 'task:rmdx', text: 'status decoding' },
      { text: 'crc8 frame bytes', epoch: 3 },
      { task: 'task:rmdx', text: 'speed scaling', epoch: 6 },
    ];
    const original = await pool.ledger(0);
    for (const tx of RMDX_SESSION) await original.commit(tx);
    const before = await Promise.all(queries.map((q) => original.retrieve(q)));
    const restored = await pool.ledger(1, await original.snapshot());
    // Commits to the restored ledger happen before its first retrieval: the index catches up
    // from the tables, then takes the commit's bodies and edges in order.
    const more = {
      epoch: 20,
      nodes: [{ id: 'note:crc', kind: 'message' as const, body: 'the crc8 covers frame bytes 0..6 now' }],
      edges: [{ from: 'note:crc', to: 'task:rmdx', kind: 'depends_on' as const }],
    };
    expect(JSON.stringify(await Promise.all(queries.map((q) => restored.retrieve(q))))).toBe(JSON.stringify(before));
    await original.commit(more);
    await restored.commit(more);
    const after = await Promise.all(queries.map((q) => original.retrieve(q)));
    expect(after[0]!.explanation.map((e) => e.id)).toContain('note:crc');
    expect(JSON.stringify(await Promise.all(queries.map((q) => restored.retrieve(q))))).toBe(JSON.stringify(after));
  });

  it('the vector channel ranks by a semantic embedder and sees only what is visible', async () => {
    // A toy "semantic" embedder: synonyms share a dimension, so it finds what BM25 cannot.
    const topics = [/car|automobile|vehicle/, /dog|puppy|hound/, /rain|storm|weather/];
    const embedder: Embedder = {
      dimensions: 3,
      name: 'toy-topics',
      async embed(texts) {
        return texts.map((t) => Float32Array.from(topics, (re) => (re.test(t.toLowerCase()) ? 1 : 0.01)));
      },
    };
    const l = await pool.open(2, { embedder });
    await l.commit({
      epoch: 1,
      nodes: [
        { id: 'm:car', kind: 'message', authority: 'user', body: 'I bought an automobile today' },
        { id: 'm:dog', kind: 'message', authority: 'user', body: 'The puppy chewed my shoe' },
        { id: 'm:dog2', kind: 'message', authority: 'agent', body: 'A hound barked all night' },
      ],
    });
    await l.commit({
      epoch: 2,
      nodes: [{ id: 'm:storm', kind: 'message', authority: 'user', body: 'A storm is coming' }],
    });
    const r = await l.retrieve({ text: 'my dog', authority: ['user'], channels: ['vector'], supportThreshold: 0 });
    expect(r.explanation[0]!.id).toBe('m:dog');
    expect(r.explanation.map((e) => e.id)).not.toContain('m:dog2');
    const early = await l.retrieve({ text: 'bad weather', epoch: 1, channels: ['vector'], supportThreshold: 0 });
    expect(early.explanation.map((e) => e.id)).not.toContain('m:storm');
    const late = await l.retrieve({ text: 'bad weather', channels: ['vector'], supportThreshold: 0 });
    expect(late.explanation[0]!.id).toBe('m:storm');
    await l.close();
  });

  it('exact lookups at the last epoch read from the index what the SQL reads from the tables', async () => {
    const l = await pool.ledger(3);
    for (const tx of RMDX_SESSION) await l.commit(tx);
    const core = ledgerCore(l);
    const index = new RetrievalIndex();
    await index.catchUp(core.config.engine, core.index);
    const view = await l.asOf({ epoch: l.lastEpoch });
    const some = view.nodes.find((n) => n.path !== undefined && n.bodyHash !== undefined)!;
    for (const authority of [undefined, ['agent'], ['repo', 'user']]) {
      const q = resolveRetrievalQuery(
        {
          ...(authority ? { authority } : {}),
          artifacts: [
            { path: 'rmdx/driver.py', range: [41, 70] },
            { path: 'rmdx/driver.py' },
            { path: 'rmdx/driver.py', revision: 'r2', range: [1, 20] },
            { path: some.path!, hash: some.bodyHash! },
            { path: 'rmdx/cli.py', range: [1, 20] },
          ],
        },
        l.lastEpoch,
      );
      const visible = await index.visible(core.config.engine, core.index, q.epoch, q.authority);
      const sql = rowsOf<ExactRow>(await core.config.engine.query(exactSql(q.epoch, q.authority, q.artifacts)));
      const now = exactRowsNow(q, index, visible, core.index);
      if (authority === undefined) expect(now.some((r) => r.old !== null && r.old > 0)).toBe(true);
      expect(now).toEqual(sql.map((r) => ({ ...r })));
    }
  });
});
