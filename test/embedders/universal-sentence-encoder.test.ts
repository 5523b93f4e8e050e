import { afterAll, describe, expect, it, vi } from 'vitest';
import { USE_LITE_PACKAGES, universalSentenceEncoder } from '../../src/embedders/universal-sentence-encoder.js';
import { codeOf, LedgerPool } from '../helpers/ledgers.js';
import { installed as resolves } from '../helpers/peers.js';

// The peers are dev dependencies, so `npm test` runs these; a checkout installed without them
// (npm ci --omit=dev --omit=peer, or a user's clone that removed them) skips instead of failing.
const installed = resolves(USE_LITE_PACKAGES);

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe.skipIf(!installed)('Universal Sentence Encoder lite (optional peer)', () => {
  const pool = new LedgerPool();
  afterAll(() => pool.close());
  const embedder = universalSentenceEncoder();

  it('embeds meaning: a paraphrase sharing no content word is nearer than an unrelated text', async () => {
    const [q, para, other, empty] = await embedder.embed([
      'I bought a new automobile',
      'We purchased a car yesterday',
      'The puppy chewed my shoe',
      '',
    ]);
    expect(embedder.dimensions).toBe(512);
    expect(embedder.lexical).toBeFalsy();
    expect(q).toHaveLength(512);
    expect(dot(q!, q!)).toBeCloseTo(1, 5);
    expect(dot(q!, para!)).toBeGreaterThan(dot(q!, other!) + 0.2);
    // A text without tokens gets the zero vector instead of failing inside the model.
    expect(empty!.every((x) => x === 0)).toBe(true);
  });

  it('gives a text the same bytes alone and in any batch (body vectors are batched by catch-up)', async () => {
    const text = 'Caroline went to the support group on Tuesday';
    const [alone] = await embedder.embed([text]);
    const batch = await embedder.embed(['something else entirely, and rather longer than the rest', text, 'x']);
    expect(Buffer.from(batch[1]!.buffer).equals(Buffer.from(alone!.buffer))).toBe(true);
  });

  it('as the ledger embedder, retrieval finds by meaning what BM25 cannot, byte-identically', async () => {
    const ledger = await pool.open(0, { embedder });
    await ledger.commit({
      epoch: 1,
      nodes: [
        { id: 'm:car', kind: 'message', authority: 'user', body: 'We purchased a car yesterday' },
        { id: 'm:dog', kind: 'message', authority: 'user', body: 'The puppy chewed my shoe' },
        { id: 'm:rain', kind: 'message', authority: 'user', body: 'A storm is coming this evening' },
      ],
    });
    const query = { text: 'new automobile', authority: ['user'], supportThreshold: 0 };
    const lexical = await ledger.retrieve({ ...query, channels: ['lexical'] });
    expect(lexical.explanation.map((e) => e.id)).not.toContain('m:car');
    const first = await ledger.retrieve(query);
    expect(first.explanation[0]!.id).toBe('m:car');
    expect(JSON.stringify(await ledger.retrieve(query))).toBe(JSON.stringify(first));
    await ledger.close();
  });
});

describe('without the optional packages', () => {
  it('embedding is DEPENDENCY_MISSING naming the package; making the embedder is free', async () => {
    vi.resetModules();
    vi.doMock('@energetic-ai/embeddings', () => {
      throw new Error("Cannot find package '@energetic-ai/embeddings'");
    });
    const { universalSentenceEncoder: fresh } = await import('../../src/embedders/universal-sentence-encoder.js');
    const embedder = fresh();
    expect(embedder.name).toBe('universal-sentence-encoder-lite-512');
    await expect(embedder.embed(['hello'])).rejects.toMatchObject({
      code: 'DEPENDENCY_MISSING',
      details: { package: '@energetic-ai/embeddings' },
    });
    expect(await codeOf(() => embedder.embed(['hello']))).toBe('DEPENDENCY_MISSING');
    vi.doUnmock('@energetic-ai/embeddings');
  });
});
