import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerError } from '../../src/errors.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { LIMITS } from '../../src/schema/limits.js';
import type { EdgeInput, NodeInput } from '../../src/schema/types.js';
import { bytesEqual, LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
let ledger: Ledger;
const CHAIN = 2 * LIMITS.maxHops + 10;

beforeAll(async () => {
  ledger = await pool.ledger();
  // A depends_on chain longer than the hop ceiling: a walk of `hops: 1e9` used to follow it to
  // its end, blocking the event loop for the whole walk (407 s at 100k nodes).
  const nodes: NodeInput[] = [{ id: 'task:t', kind: 'task', status: 'open', body: 'the task' }];
  const edges: EdgeInput[] = [];
  for (let i = 0; i < CHAIN; i++) {
    nodes.push({ id: `c:${i}`, kind: 'claim', body: `claim ${i}` });
    edges.push({ from: i === 0 ? 'task:t' : `c:${i - 1}`, to: `c:${i}`, kind: 'depends_on' });
  }
  await ledger.commit({ epoch: 1, nodes, edges });
});
afterAll(() => pool.close());

/** The LedgerError a call rejects with, with the ledger checked unchanged. */
async function refusal(call: () => Promise<unknown>): Promise<LedgerError> {
  const before = await ledger.snapshot();
  const error = await call().then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LedgerError);
  expect(bytesEqual(before, await ledger.snapshot())).toBe(true);
  return error as LedgerError;
}

const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const budget = { tokens: 10_000 };

describe('every request dimension is bounded (LIMIT_EXCEEDED names the field and its LIMITS entry)', () => {
  it.each([
    [
      'hops: 1e9 on a long chain',
      () => ledger.materialize({ roots: ['task:t'], budget, hops: 1e9 }),
      'hops',
      'maxHops',
    ],
    ['hops one over the ceiling', () => ledger.materialize({ budget, hops: LIMITS.maxHops + 1 }), 'hops', 'maxHops'],
    [
      'maxNodes over the ceiling',
      () => ledger.materialize({ budget, maxNodes: LIMITS.maxClosureNodes + 1 }),
      'maxNodes',
      'maxClosureNodes',
    ],
    [
      'too many roots',
      () => ledger.materialize({ budget, roots: many(LIMITS.maxRoots + 1, 'c:') }),
      'roots',
      'maxRoots',
    ],
    [
      'materialize with 100k authority scopes',
      () => ledger.materialize({ budget, authority: many(100_000, 'scope:') }),
      'authority',
      'maxAuthorityScopes',
    ],
    [
      'a materialize epoch over the ceiling',
      () => ledger.materialize({ budget, epoch: LIMITS.maxEpoch + 1 }),
      'epoch',
      'maxEpoch',
    ],
    [
      'retrieve with 100k artifact constraints',
      () => ledger.retrieve({ text: 'claim', artifacts: many(100_000, 'p').map((path) => ({ path })) }),
      'artifacts',
      'maxArtifacts',
    ],
    ['too many claims', () => ledger.retrieve({ claims: many(LIMITS.maxClaims + 1, 'c:') }), 'claims', 'maxClaims'],
    [
      'retrieve with too many authority scopes',
      () => ledger.retrieve({ text: 'claim', authority: many(LIMITS.maxAuthorityScopes + 1, 's') }),
      'authority',
      'maxAuthorityScopes',
    ],
    ['retrieve hops', () => ledger.retrieve({ text: 'claim', hops: 1e9 }), 'hops', 'maxHops'],
    [
      'retrieve perChannel',
      () => ledger.retrieve({ text: 'claim', perChannel: LIMITS.maxPerChannel + 1 }),
      'perChannel',
      'maxPerChannel',
    ],
    [
      'a query text longer than the ceiling',
      () => ledger.retrieve({ text: 'x '.repeat(LIMITS.maxQueryChars) }),
      'text',
      'maxQueryChars',
    ],
    [
      'too many host scores',
      () =>
        ledger.retrieve({
          text: 'claim',
          scores: Object.fromEntries(many(LIMITS.maxScores + 1, 'n').map((id) => [id, 1])),
        }),
      'scores',
      'maxScores',
    ],
    [
      'a retrieve epoch over the ceiling',
      () => ledger.retrieve({ text: 'claim', epoch: 2 ** 40 }),
      'epoch',
      'maxEpoch',
    ],
    ['asOf over the epoch ceiling', () => ledger.asOf({ epoch: LIMITS.maxEpoch + 1 }), 'epoch', 'maxEpoch'],
    [
      'rerunCandidates with too many scopes',
      () => ledger.rerunCandidates({ epoch: 1, authority: many(LIMITS.maxAuthorityScopes + 1, 's') }),
      'authority',
      'maxAuthorityScopes',
    ],
  ])('%s', async (_name, call, field, limit) => {
    const e = await refusal(call);
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.details).toMatchObject({ field, limit, max: LIMITS[limit as keyof typeof LIMITS] });
    expect(e.message).toContain(`LIMITS.${limit}`);
  });

  it('requests at the limits are answered, and the hop bound cuts the walk (graphTruncated)', async () => {
    const set = await ledger.materialize({
      roots: ['task:t'],
      budget,
      hops: LIMITS.maxHops,
      maxNodes: LIMITS.maxClosureNodes,
      authority: many(LIMITS.maxAuthorityScopes - 1, 's').concat(['agent']),
    });
    expect(set.graphTruncated).toBe(true);
    // The walk reaches c:0 at hop 1, so c:(maxHops − 1) at the last hop; the next is cut.
    const ids = new Set(set.items.map((i) => i.id));
    expect(ids.has(`c:${LIMITS.maxHops - 1}`)).toBe(true);
    expect(ids.has(`c:${LIMITS.maxHops}`)).toBe(false);
    const found = await ledger.retrieve({
      text: 'claim',
      hops: LIMITS.maxHops,
      perChannel: LIMITS.maxPerChannel,
      claims: many(LIMITS.maxClaims, 'c:').slice(0, CHAIN),
      artifacts: many(LIMITS.maxArtifacts, 'p').map((path) => ({ path })),
    });
    expect(['supported', 'abstain']).toContain(found.status);
  });
});

describe('epochs and meta (smaller items of issue 24)', () => {
  it('an epoch above 2^31 - 1 is INVALID_EPOCH saying the ceiling, not "non-negative safe integer"', async () => {
    const e = await refusal(() => ledger.commit({ epoch: LIMITS.maxEpoch + 1 }));
    expect(e.code).toBe('INVALID_EPOCH');
    expect(e.details).toMatchObject({ field: 'epoch', limit: 'maxEpoch', max: 2_147_483_647 });
    expect(e.message).toContain('2147483647');
    expect(e.message).not.toContain('safe integer');
  });

  it('meta of more than LIMITS.maxMetaChars characters is refused like an oversize body', async () => {
    const huge = { out: 'm'.repeat(LIMITS.maxMetaChars) };
    const e = await refusal(() =>
      ledger.commit({ epoch: 2, nodes: [{ id: 'n:meta', kind: 'message', role: 'user', meta: huge }] }),
    );
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.details).toMatchObject({ field: 'nodes[0].meta', limit: 'maxMetaChars' });
    // At the limit (keys and string values together), it commits.
    const fits = { o: 'm'.repeat(LIMITS.maxMetaChars - 1) };
    await expect(
      ledger.commit({ epoch: 2, nodes: [{ id: 'n:meta', kind: 'message', role: 'user', meta: fits }] }),
    ).resolves.toMatchObject({ epoch: 2 });
  });
});
