import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import { codeOf, LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
let ledger: Ledger;
beforeAll(async () => {
  ledger = await pool.ledger();
  await ledger.commit({
    epoch: 2,
    nodes: [
      { id: 'task', kind: 'task', authority: 'user', body: 'Fix the RMD-X CAN driver' },
      { id: 'act:1', kind: 'action', body: 'read the driver' },
      { id: 'call:1', kind: 'tool_call', tool: 'bash', body: 'cat driver.c' },
      { id: 'res:1', kind: 'tool_result', body: 'int main() {}' },
    ],
    edges: [
      { from: 'task', to: 'act:1', kind: 'plans' },
      { from: 'act:1', to: 'call:1', kind: 'invokes' },
      { from: 'call:1', to: 'res:1', kind: 'produces' },
    ],
  });
  await ledger.commit({
    epoch: 4,
    nodes: [{ id: 'rev:1', kind: 'artifact_revision', path: 'driver.c', revision: 'r1' }],
  });
  await ledger.commit({
    epoch: 4,
    nodes: [{ id: 'rev:2', kind: 'artifact_revision', path: 'driver.c', revision: 'r2' }],
  });
  await ledger.commit({ epoch: 6, transitions: [{ id: 'act:1', status: 'resolved' }] });
});
afterAll(() => pool.close());

describe('as-of views', () => {
  it('is empty before the first epoch', async () => {
    expect(await ledger.asOf({ epoch: 1 })).toEqual({ nodes: [], edges: [] });
  });

  it('returns records in the commit shape plus validity, in recording order', async () => {
    const v = await ledger.asOf({ epoch: 2 });
    expect(v.nodes.map((n) => n.id)).toEqual(['task', 'act:1', 'call:1', 'res:1']);
    expect(v.nodes[0]).toEqual({
      id: 'task',
      kind: 'task',
      status: 'open',
      authority: 'user',
      body: 'Fix the RMD-X CAN driver',
      tx: 1,
      validFrom: 2,
      tokens: expect.any(Number),
      bodyHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(v.nodes[0]!.tokens).toBeGreaterThan(3);
    expect(v.edges.map((e) => `${e.from}-${e.kind}-${e.to}`)).toEqual([
      'task-plans-act:1',
      'act:1-invokes-call:1',
      'call:1-produces-res:1',
    ]);
  });

  it('a revision superseded within its own epoch never shows, the later one does', async () => {
    const ids = (await ledger.asOf({ epoch: 4 })).nodes.map((n) => n.id);
    expect(ids).toContain('rev:2');
    expect(ids).not.toContain('rev:1');
  });

  it('shows the version of a node valid at each epoch', async () => {
    expect((await ledger.asOf({ epoch: 5 })).nodes.find((n) => n.id === 'act:1')?.status).toBe('open');
    expect((await ledger.asOf({ epoch: 6 })).nodes.find((n) => n.id === 'act:1')?.status).toBe('resolved');
    expect((await ledger.asOf({ epoch: 100 })).nodes.find((n) => n.id === 'act:1')?.status).toBe('resolved');
  });

  it('is stable: the same epoch gives byte-identical output', async () => {
    expect(JSON.stringify(await ledger.asOf({ epoch: 6 }))).toBe(JSON.stringify(await ledger.asOf({ epoch: 6 })));
  });

  it('rejects a bad epoch with INVALID_REQUEST', async () => {
    expect(await codeOf(() => ledger.asOf({ epoch: -1 }))).toBe('INVALID_REQUEST');
    expect(await codeOf(() => ledger.asOf({ epoch: 1.5 }))).toBe('INVALID_REQUEST');
    // The 0.1 signature, a bare epoch, is not a request object.
    expect(await codeOf(() => ledger.asOf(6 as never))).toBe('INVALID_REQUEST');
    expect(await codeOf(() => ledger.asOf({ authority: 'user' as never }))).toBe('INVALID_REQUEST');
  });

  it('reads the last epoch by default, and within authority scopes: their nodes and the edges between them', async () => {
    expect(JSON.stringify(await ledger.asOf())).toBe(JSON.stringify(await ledger.asOf({ epoch: ledger.lastEpoch })));
    const all = await ledger.asOf({ epoch: 6 });
    const scopes = [...new Set(all.nodes.map((n) => n.authority))].sort();
    expect(scopes.length).toBeGreaterThan(1);
    const kept = scopes.slice(0, 1);
    const within = await ledger.asOf({ epoch: 6, authority: kept });
    expect(within.nodes.map((n) => n.id)).toEqual(all.nodes.filter((n) => kept.includes(n.authority)).map((n) => n.id));
    const ids = new Set(within.nodes.map((n) => n.id));
    expect(within.edges).toEqual(all.edges.filter((e) => ids.has(e.from) && ids.has(e.to)));
    expect((await ledger.asOf({ epoch: 6, authority: [] })).nodes).toEqual([]);
    expect(JSON.stringify(await ledger.asOf({ epoch: 6, authority: scopes }))).toBe(JSON.stringify(all));
  });

  it('stores each body once, content-addressed', async () => {
    const r = await ledger.commit({
      epoch: 7,
      nodes: [
        { id: 'm:1', kind: 'message', body: 'same text' },
        { id: 'm:2', kind: 'message', body: 'same text' },
        { id: 'm:3', kind: 'message', body: 'int main() {}' },
      ],
    });
    expect(r.counts.bodies).toBe(1);
    const v = await ledger.asOf({ epoch: 7 });
    const hashes = v.nodes.filter((n) => n.id.startsWith('m:')).map((n) => n.bodyHash);
    expect(hashes[0]).toBe(hashes[1]);
    expect(hashes[2]).toBe(v.nodes.find((n) => n.id === 'res:1')?.bodyHash);
  });
});
