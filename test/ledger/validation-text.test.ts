import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import type { NodeInput, Transaction } from '../../src/schema/types.js';
import { bytesEqual, LedgerPool } from '../helpers/ledgers.js';
import { MemoryStorage } from '../helpers/memory-storage.js';

/**
 * The text rule (src/schema/text-rule.ts): a string is accepted only if it reads back exactly,
 * live, restored from a snapshot and replayed from the log; otherwise INVALID_TEXT names the
 * field and nothing changes.
 */
const pool = new LedgerPool();
let ledger: Ledger;

const BASE: Transaction = {
  epoch: 1,
  nodes: [
    { id: 'task:1', kind: 'task', body: 'fix it' },
    { id: 'claim:1', kind: 'claim', body: 'a claim' },
  ],
  edges: [{ from: 'task:1', to: 'claim:1', kind: 'requires' }],
};

beforeAll(async () => {
  ledger = await pool.ledger(0);
  await ledger.commit(BASE);
});
afterAll(() => pool.close());

async function rejection(tx: unknown): Promise<{ code?: string; field?: unknown }> {
  const before = await ledger.snapshot();
  const error = await ledger.commit(tx as Transaction).then(
    () => undefined,
    (e: { code?: string; details?: { field?: unknown } }) => ({ code: e.code, field: e.details?.field }),
  );
  expect(bytesEqual(before, await ledger.snapshot()), 'a rejected commit changed the ledger').toBe(true);
  expect(error, 'the transaction should have been rejected').toBeDefined();
  return error!;
}

const HIGH = 'k\ud800';
const LOW = 'k\udc00x';
const REVERSED = 'k\udc00\ud800';
const LEADING_BOM = '\ufeffk';
const INNER_BOM = 'k\ufeffk';

const msg = (over: Partial<NodeInput> & Record<string, unknown>): NodeInput =>
  ({ id: 'm:new', kind: 'message', body: 'hi', ...over }) as NodeInput;

describe('INVALID_TEXT', () => {
  const bad: Array<[string, string]> = [
    ['lone high surrogate', HIGH],
    ['lone low surrogate', LOW],
    ['reversed pair', REVERSED],
    ['leading U+FEFF', LEADING_BOM],
  ];
  for (const [what, s] of bad) {
    it.each([
      ['node id', { epoch: 1, nodes: [msg({ id: s })] }, 'nodes[0].id'],
      ['authority', { epoch: 1, nodes: [msg({ authority: s })] }, 'nodes[0].authority'],
      ['path', { epoch: 1, nodes: [msg({ path: s })] }, 'nodes[0].path'],
      ['revision', { epoch: 1, nodes: [msg({ revision: s })] }, 'nodes[0].revision'],
      ['tool', { epoch: 1, nodes: [msg({ kind: 'tool_call', tool: s })] }, 'nodes[0].tool'],
      [
        'verifier',
        { epoch: 1, nodes: [msg({ kind: 'verifier_outcome', status: 'passed', verifier: s })] },
        'nodes[0].verifier',
      ],
      ['body', { epoch: 1, nodes: [msg({ body: s })] }, 'nodes[0].body'],
      ['meta value', { epoch: 1, nodes: [msg({ meta: { note: s } })] }, 'nodes[0].meta.note'],
      ['meta key', { epoch: 1, nodes: [msg({ meta: { [s]: 1 } })] }, 'nodes[0].meta'],
      ['edge from', { epoch: 1, edges: [{ from: s, to: 'claim:1', kind: 'requires' }] }, 'edges[0].from'],
      ['edge to', { epoch: 1, edges: [{ from: 'task:1', to: s, kind: 'requires' }] }, 'edges[0].to'],
      ['transition id', { epoch: 1, transitions: [{ id: s, status: 'resolved' }] }, 'transitions[0].id'],
    ])(`${what} in the %s`, async (_name, tx, field) => {
      expect(await rejection(tx)).toEqual({ code: 'INVALID_TEXT', field });
    });
  }

  it.each([
    ['id', { epoch: 1, nodes: [msg({ id: INNER_BOM })] }, 'nodes[0].id'],
    ['authority', { epoch: 1, nodes: [msg({ authority: INNER_BOM })] }, 'nodes[0].authority'],
    ['path', { epoch: 1, nodes: [msg({ path: INNER_BOM })] }, 'nodes[0].path'],
  ])('U+FEFF anywhere in a name (%s)', async (_name, tx, field) => {
    expect(await rejection(tx)).toEqual({ code: 'INVALID_TEXT', field });
  });

  it('two ids differing only in a lone surrogate can no longer collapse into one', async () => {
    expect((await rejection({ epoch: 1, nodes: [msg({ id: 'k\ud800' }), msg({ id: 'k\ud801' })] })).code).toBe(
      'INVALID_TEXT',
    );
  });

  it('a materialize or retrieve request with a lone surrogate is refused, naming the field', async () => {
    const ws = await ledger.materialize({ budget: { tokens: 100 }, authority: ['agent\ud800'] }).catch((e) => e);
    expect(ws).toMatchObject({ code: 'INVALID_TEXT', details: { field: 'authority[0]' } });
    const r = await ledger.retrieve({ text: 'fix \udfff' }).catch((e) => e);
    expect(r).toMatchObject({ code: 'INVALID_TEXT', details: { field: 'text' } });
  });
});

describe('strings that round-trip are kept exactly', () => {
  const KEPT = [
    'NUL \u0000 inside',
    '\u0000 leading NUL',
    'inner \ufeff BOM',
    'RTL \u202eevil\u202c \u05e9\u05dc\u05d5\u05dd \u0627\u0644\u0639\u0631\u0628\u064a\u0629',
    'combining e\u0301 and NFD \u0041\u030a vs NFC \u00c5',
    'noncharacters \ufffe \uffff and U+FFFD \ufffd',
    'astral \ud83d\ude00 \ud834\udd1e pair',
    'line\r\nbreaks\ttabs',
  ];
  const names = ['repo:caf\u00e9', 'repo:cafe\u0301', 'scope:\u202eltr', 'tool:\ud83d\ude00'];

  it('live, restored from a snapshot, and replayed from the log: asOf, materialize and retrieve agree', async () => {
    const storage = new MemoryStorage();
    const live = await pool.open(1, { storage });
    const nodes: NodeInput[] = [{ id: 'task:t', kind: 'task', body: 'the task', authority: 'user' }];
    KEPT.forEach((body, i) => {
      nodes.push({ id: `claim:${i}`, kind: 'claim', body, meta: { [body]: body } });
    });
    names.forEach((name, i) => {
      nodes.push({
        id: `${name}#${i}`,
        kind: 'evidence',
        authority: name,
        path: `src/${name}`,
        revision: name,
        body: name,
      });
    });
    const edges = nodes
      .slice(1)
      .map((n) => ({ from: 'task:t', to: n.id, kind: n.kind === 'claim' ? 'requires' : 'cites' }));
    await live.commit({ epoch: 1, nodes, edges: edges.filter((e) => e.kind === 'requires') } as Transaction);
    const view = await live.asOf({ epoch: 1 });
    for (const n of nodes) {
      const got = view.nodes.find((r) => r.id === n.id);
      expect(got, `node ${JSON.stringify(n.id)} lost`).toBeDefined();
      for (const key of ['body', 'authority', 'path', 'revision', 'meta'] as const) {
        if (n[key] !== undefined) expect(got![key]).toEqual(n[key]);
      }
    }
    const reads = async (l: Ledger) =>
      JSON.stringify([
        await l.asOf({ epoch: 1 }),
        await l.materialize({ budget: { tokens: 5000 } }),
        await l.retrieve({ text: 'combining NUL RTL astral', authority: [...names, 'agent', 'user'] }),
      ]);
    const expected = await reads(live);
    const snapshot = await live.snapshot();
    const restored = await pool.ledger(2, snapshot);
    expect(await reads(restored)).toBe(expected);
    expect(bytesEqual(await restored.snapshot(), snapshot)).toBe(true);
    const replayed = await pool.open(2, { storage: storage.reopen() });
    expect(await reads(replayed)).toBe(expected);
    expect(bytesEqual(await replayed.snapshot(), snapshot)).toBe(true);
  });
});
