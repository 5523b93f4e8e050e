import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import { LIMITS } from '../../src/schema/limits.js';
import type { Transaction } from '../../src/schema/types.js';
import { bytesEqual, codeOf, LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
let ledger: Ledger;

beforeAll(async () => {
  ledger = await pool.ledger();
  await ledger.commit({
    epoch: 3,
    nodes: [
      { id: 'task:can', kind: 'task', authority: 'user', body: 'Fix the CAN frame parser' },
      { id: 'claim:crc', kind: 'claim', body: 'The CRC is computed over the wrong bytes' },
      {
        id: 'ev:parser',
        kind: 'evidence',
        authority: 'repo',
        path: 'src/can/parser.ts',
        revision: 'a1',
        range: [10, 40],
        body: 'lines',
      },
      { id: 'act:1', kind: 'action' },
      { id: 'call:1', kind: 'tool_call', tool: 'bash', body: 'cat parser.ts' },
    ],
    edges: [
      { from: 'task:can', to: 'claim:crc', kind: 'requires' },
      { from: 'claim:crc', to: 'ev:parser', kind: 'supported_by' },
      { from: 'act:1', to: 'call:1', kind: 'invokes' },
    ],
  });
});
afterAll(() => pool.close());

/** Every rejected transaction must leave the ledger byte-identical. */
async function rejects(tx: unknown): Promise<{ code: string; field: unknown }> {
  const before = await ledger.snapshot();
  let error: { code?: string; details?: { field?: unknown } } | undefined;
  try {
    await ledger.commit(tx as Transaction);
  } catch (e) {
    error = e as typeof error;
  }
  expect(error, 'the transaction should have been rejected').toBeDefined();
  expect(bytesEqual(before, await ledger.snapshot())).toBe(true);
  return { code: error!.code ?? String(error), field: error!.details?.field };
}

const node = (over: Record<string, unknown> = {}) => ({ id: 'n:new', kind: 'message', body: 'hi', ...over });

describe('transaction validation', () => {
  it.each([
    ['not an object', 'nope', 'INVALID_TRANSACTION', ''],
    ['array', [], 'INVALID_TRANSACTION', ''],
    ['missing epoch', { nodes: [] }, 'INVALID_EPOCH', 'epoch'],
    ['fractional epoch', { epoch: 3.5 }, 'INVALID_EPOCH', 'epoch'],
    ['negative epoch', { epoch: -1 }, 'INVALID_EPOCH', 'epoch'],
    ['string epoch', { epoch: '4' }, 'INVALID_EPOCH', 'epoch'],
    ['epoch going backwards', { epoch: 2, nodes: [node()] }, 'EPOCH_REGRESSION', 'epoch'],
    ['unknown tx field', { epoch: 3, node: [] }, 'INVALID_FIELD', 'node'],
    ['nodes not an array', { epoch: 3, nodes: {} }, 'INVALID_FIELD', 'nodes'],
    ['unknown node kind', { epoch: 3, nodes: [node({ kind: 'thought' })] }, 'INVALID_NODE_KIND', 'nodes[0].kind'],
    ['empty id', { epoch: 3, nodes: [node({ id: '' })] }, 'INVALID_ID', 'nodes[0].id'],
    ['numeric id', { epoch: 3, nodes: [node({ id: 7 })] }, 'INVALID_ID', 'nodes[0].id'],
    ['control character in id', { epoch: 3, nodes: [node({ id: 'a\u0000b' })] }, 'INVALID_ID', 'nodes[0].id'],
    [
      'overlong id',
      { epoch: 3, nodes: [node({ id: 'x'.repeat(LIMITS.maxIdChars + 1) })] },
      'INVALID_ID',
      'nodes[0].id',
    ],
    ['duplicate id (existing)', { epoch: 3, nodes: [node({ id: 'claim:crc' })] }, 'DUPLICATE_ID', 'nodes[0].id'],
    ['duplicate id (in tx)', { epoch: 3, nodes: [node(), node()] }, 'DUPLICATE_ID', 'nodes[1].id'],
    [
      'status not allowed',
      { epoch: 3, nodes: [node({ kind: 'task', status: 'passed' })] },
      'INVALID_STATUS',
      'nodes[0].status',
    ],
    [
      'verifier without status',
      { epoch: 3, nodes: [node({ kind: 'verifier_outcome' })] },
      'INVALID_STATUS',
      'nodes[0].status',
    ],
    ['body not a string', { epoch: 3, nodes: [node({ body: 42 })] }, 'INVALID_FIELD', 'nodes[0].body'],
    [
      'oversize body',
      { epoch: 3, nodes: [node({ body: 'x'.repeat(LIMITS.maxBodyChars + 1) })] },
      'BODY_TOO_LARGE',
      'nodes[0].body',
    ],
    ['evidence without path', { epoch: 3, nodes: [node({ kind: 'evidence' })] }, 'INVALID_PATH', 'nodes[0].path'],
    [
      'path with newline',
      { epoch: 3, nodes: [node({ kind: 'evidence', path: 'a\nb' })] },
      'INVALID_PATH',
      'nodes[0].path',
    ],
    [
      'negative range',
      { epoch: 3, nodes: [node({ kind: 'evidence', path: 'a', range: [-1, 3] })] },
      'INVALID_RANGE',
      'nodes[0].range',
    ],
    [
      'inverted range',
      { epoch: 3, nodes: [node({ kind: 'evidence', path: 'a', range: [9, 3] })] },
      'INVALID_RANGE',
      'nodes[0].range',
    ],
    [
      'range of strings',
      { epoch: 3, nodes: [node({ kind: 'evidence', path: 'a', range: ['1', '2'] })] },
      'INVALID_RANGE',
      'nodes[0].range',
    ],
    [
      'bad changed range',
      { epoch: 3, nodes: [node({ kind: 'artifact_revision', path: 'a', changed: [[0, 1]] })] },
      'INVALID_RANGE',
      'nodes[0].changed[0]',
    ],
    ['unknown node field', { epoch: 3, nodes: [node({ colour: 'red' })] }, 'INVALID_FIELD', 'nodes[0].colour'],
    ['meta with an object', { epoch: 3, nodes: [node({ meta: { a: {} } })] }, 'INVALID_FIELD', 'nodes[0].meta.a'],
    ['bad role', { epoch: 3, nodes: [node({ role: 'robot' })] }, 'INVALID_FIELD', 'nodes[0].role'],
    [
      'unknown edge kind',
      { epoch: 3, edges: [{ from: 'task:can', to: 'claim:crc', kind: 'likes' }] },
      'INVALID_EDGE_KIND',
      'edges[0].kind',
    ],
    [
      'edge joining wrong kinds',
      { epoch: 3, edges: [{ from: 'ev:parser', to: 'task:can', kind: 'requires' }] },
      'EDGE_KIND_MISMATCH',
      'edges[0]',
    ],
    [
      'supersedes across kinds',
      { epoch: 3, edges: [{ from: 'claim:crc', to: 'task:can', kind: 'supersedes' }] },
      'EDGE_KIND_MISMATCH',
      'edges[0]',
    ],
    [
      'self loop',
      { epoch: 3, edges: [{ from: 'claim:crc', to: 'claim:crc', kind: 'depends_on' }] },
      'EDGE_KIND_MISMATCH',
      'edges[0]',
    ],
    [
      'edge to a missing node',
      { epoch: 3, edges: [{ from: 'task:can', to: 'claim:nope', kind: 'requires' }] },
      'DANGLING_EDGE',
      'edges[0].to',
    ],
    [
      'duplicate edge',
      { epoch: 3, edges: [{ from: 'task:can', to: 'claim:crc', kind: 'requires' }] },
      'DUPLICATE_EDGE',
      'edges[0]',
    ],
    [
      'transition of an unknown node',
      { epoch: 3, transitions: [{ id: 'nope', status: 'resolved' }] },
      'UNKNOWN_NODE',
      'transitions[0].id',
    ],
    [
      'transition to a status the kind forbids',
      { epoch: 3, transitions: [{ id: 'claim:crc', status: 'passed' }] },
      'INVALID_STATUS',
      'transitions[0].status',
    ],
  ])('rejects %s', async (_name, tx, code, field) => {
    expect(await rejects(tx)).toEqual({ code, field });
  });

  it('rejects the whole transaction when only its last record is bad', async () => {
    const tx = {
      epoch: 4,
      nodes: [node({ id: 'fine:1' }), node({ id: 'fine:2' })],
      edges: [{ from: 'fine:1', to: 'ghost', kind: 'depends_on' }],
    };
    expect((await rejects(tx)).code).toBe('DANGLING_EDGE');
    const view = await ledger.asOf({ epoch: 10 });
    expect(view.nodes.map((n) => n.id)).not.toContain('fine:1');
  });

  it('stores quotes and SQL in ids, paths and bodies as data', async () => {
    const evil = `x'); DROP TABLE nodes; --"`;
    await ledger.commit({
      epoch: 5,
      nodes: [
        { id: evil, kind: 'evidence', path: `src/it's "odd".ts`, range: [1, 2], body: `'; DELETE FROM edges; --` },
      ],
      edges: [{ from: 'claim:crc', to: evil, kind: 'supported_by' }],
    });
    const view = await ledger.asOf({ epoch: 5 });
    const stored = view.nodes.find((n) => n.id === evil);
    expect(stored?.path).toBe(`src/it's "odd".ts`);
    expect(stored?.body).toBe(`'; DELETE FROM edges; --`);
    expect(view.edges.some((e) => e.to === evil && e.from === 'claim:crc')).toBe(true);
    expect(view.nodes.length).toBeGreaterThan(4);
  });

  it('rejects a second commit after close with LEDGER_CLOSED', async () => {
    const own = await pool.ledger(1);
    await own.close();
    expect(await codeOf(() => own.commit({ epoch: 1 }))).toBe('LEDGER_CLOSED');
  });
});
