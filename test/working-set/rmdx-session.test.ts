import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RMDX_SESSION } from '../../demo/traces/rmdx-can-session.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { validateAnthropicMessages, validateOpenAIMessages } from '../../src/working-set/validate-messages.js';
import { codeOf, LedgerPool } from '../helpers/ledgers.js';

/**
 * Acceptance tests on the bundled session of an agent fixing an RMD-X servo's CAN driver
 * (demo/traces/rmdx-can-session.ts): the working set at several epochs and budgets.
 */
const pool = new LedgerPool();
let ledger: Ledger;
beforeAll(async () => {
  ledger = await pool.ledger(0);
  for (const tx of RMDX_SESSION) await ledger.commit(tx);
});
afterAll(() => pool.close());

const ids = (ws: { items: Array<{ id: string }> }) => ws.items.map((i) => i.id);

describe('the RMD-X session', () => {
  it('at every budget, no tool call is split from its result and both message shapes validate', async () => {
    const produces = (await ledger.asOf({ epoch: 11 })).edges.filter((e) => e.kind === 'produces');
    for (let tokens = 0; tokens <= 2600; tokens += 50) {
      const ws = await ledger.materialize({ mode: 'session', budget: { tokens } });
      const inSet = new Set(ids(ws));
      for (const e of produces) expect(inSet.has(e.from), `${e.from}/${e.to} at ${tokens}`).toBe(inSet.has(e.to));
      expect(ws.tokens).toBeLessThanOrEqual(tokens);
      expect(validateOpenAIMessages(ws.toMessages('openai'))).toEqual([]);
      expect(validateAnthropicMessages(ws.toMessages('anthropic'))).toEqual([]);
    }
  });

  it('ranks steering, the task, unresolved claims, the current action and the range it cites above recency', async () => {
    const ws = await ledger.materialize({ mode: 'fresh', budget: { tokens: 400 } });
    expect(ids(ws)).toEqual([
      'steer:api',
      'task:rmdx',
      'claim:speed-dps',
      'claim:speed-tenths',
      // The file's current revision, a unit of its own once its finished action may be cut (the
      // task only plans that action), ranks above the last outcome, which no longer fits.
      'rev:driver:r2',
      'ev:tests:25-40',
      'act:12',
    ]);
    expect(ws.items.map((i) => i.tier)).toEqual([0, 0, 1, 1, 5, 3, 2]);
    expect(ws.explanation.find((e) => e.id === 'ev:tests:25-40')).toEqual({
      id: 'ev:tests:25-40',
      included: true,
      tier: 3,
      reason: 'cited by open edit',
      code: 'selected',
    });
    expect(ws.explanation.find((e) => e.id === 'claim:speed-dps')?.reason).toBe('unresolved claim');
  });

  it('keeps an exact file range while an open edit cites it, and stops protecting it once the edit is done', async () => {
    const own = await pool.ledger(1);
    for (const tx of RMDX_SESSION) await own.commit(tx);
    const open = await own.materialize({ mode: 'session', budget: { tokens: 400 } });
    expect(ids(open)).toContain('ev:tests:25-40');
    expect(open.explanation.find((e) => e.id === 'ev:tests:25-40')).toMatchObject({
      tier: 3,
      reason: 'cited by open edit',
    });
    await own.commit({ epoch: 12, transitions: [{ id: 'act:12', status: 'resolved' }] });
    const done = await own.materialize({ mode: 'session', budget: { tokens: 400 } });
    // Still a valid view of the file, so still ranked as current evidence — but below open work;
    // the session keeps it where the previous request showed it until a re-pack.
    expect(done.explanation.find((e) => e.id === 'ev:tests:25-40')).toMatchObject({
      tier: 4,
      reason: 'current evidence; kept from the previous request (prompt cache)',
    });
    const fresh = await own.materialize({ mode: 'fresh', budget: { tokens: 400 } });
    expect(fresh.explanation.find((e) => e.id === 'ev:tests:25-40')).toMatchObject({
      tier: 4,
      reason: 'current evidence',
    });
  });

  it('keeps the range a failing verifier cites (epoch 8: the second test run failed citing driver.py 1-40)', async () => {
    const ws = await ledger.materialize({ mode: 'fresh', epoch: 8, budget: { tokens: 800 } });
    expect(ids(ws)).toContain('ev:driver:1-40');
    expect(ws.explanation.find((e) => e.id === 'ev:driver:1-40')?.reason).toBe('cited by open verifier');
    expect(ids(ws)).toContain('ver:status:2');
  });

  it('explains superseded revisions, views and outcomes as superseded, by what and when', async () => {
    const ws = await ledger.materialize({ mode: 'fresh', budget: { tokens: 1000 } });
    const why = new Map(ws.explanation.map((e) => [e.id, e.reason]));
    expect(why.get('rev:driver:r1')).toBe('superseded by rev:driver:r2 at epoch 9');
    expect(why.get('ev:driver:41-70')).toBe('superseded by rev:driver:r1 at epoch 7');
    expect(why.get('ver:status:2')).toBe('superseded by ver:status:3 at epoch 10');
    // Every valid node the walk reached has a record, in or out.
    const valid = (await ledger.asOf({ epoch: 11 })).nodes.map((n) => n.id);
    for (const id of valid) expect(why.has(id), id).toBe(true);
  });

  it('materializes the expected working sets at several epochs and budgets, with no recap text', async () => {
    const cases: Array<[number, number, string[]]> = [
      // Epoch 3: the current action's call and output (reading driver.py 41-70) cost more than the
      // budget left; the same lines as evidence fit, and so does the current action's thought (a
      // unit of its own, packed after the ranked evidence and ahead of the recency fill, where the
      // first action's thought is).
      [3, 400, ['steer:api', 'task:rmdx', 'ev:driver:41-70', 'act:3']],
      // Epoch 4: the failing test, the claim it supports and the range it cites come first.
      // (act:3's result is the same text as that range, so it costs only a reference and fits too.)
      [
        4,
        700,
        [
          'steer:api',
          'task:rmdx',
          'claim:speed-unsigned',
          'ver:status:1',
          'ev:driver:41-70',
          'call:4',
          'result:4',
          'call:3',
          'result:3',
          // The first look at the driver, placed by relevance to the task, takes what is left: the
          // current action's thought (act:4) comes after the ranked evidence, and the earlier
          // actions' thoughts (the recency fill) after it.
          'call:1',
          'result:1',
        ],
      ],
      // Epoch 8: tight; the claims, the failing outcome and the edit it checks (its call and
      // result with the revision; its thought, cut from them, is placed by recency only); the
      // current action's 211-token test log does not fit. What is left goes by relevance to the
      // task, not recency: the first look at the driver (call:1, its output) before the rest.
      [
        8,
        300,
        [
          'steer:api',
          'task:rmdx',
          'claim:reply-id',
          'claim:speed-dps',
          'claim:speed-tenths',
          'claim:speed-unsigned',
          'ver:status:2',
          'call:7',
          'result:7',
          'rev:driver:r1',
          'call:1',
          'result:1',
          'act:3',
        ],
      ],
      [11, 1000, []],
    ];
    for (const [epoch, tokens, expected] of cases) {
      const ws = await ledger.materialize({ mode: 'fresh', epoch, budget: { tokens } });
      if (expected.length > 0) expect([...ids(ws)].sort()).toEqual([...expected].sort());
      const bodies = new Map((await ledger.asOf({ epoch })).nodes.map((n) => [n.id, n.body]));
      for (const item of ws.items) {
        expect(bodies.has(item.id), `${item.id} is valid at ${epoch}`).toBe(true);
        if (item.body !== undefined) expect(item.body).toBe(bodies.get(item.id));
      }
    }
  });

  it('renders bodies once, and references elsewhere', async () => {
    const ws = await ledger.materialize({ mode: 'fresh', budget: { tokens: 4000 } });
    const result11 = ws.items.find((i) => i.id === 'result:11');
    expect(result11).toMatchObject({ ref: 'ev:tests:25-40' });
    expect(result11?.body).toBeUndefined();
    const text = JSON.stringify(ws.toMessages('openai'));
    expect(text.split('def test_positive_speed').length - 1).toBe(1);
    expect(text).toContain('[same content as ev:tests:25-40]');
  });

  it('archives a completed, unreferenced discovery transaction without changing the active set', async () => {
    const own = await pool.ledger(1);
    for (const tx of RMDX_SESSION) await own.commit(tx);
    const before = await own.materialize({ mode: 'fresh', budget: { tokens: 600 } });
    const receipt = await own.archive({ tx: 2 }); // epoch 1: `find . -name ...` listing
    expect(receipt.superseded).toEqual(['act:1', 'call:1', 'result:1']);
    const after = await own.materialize({ mode: 'fresh', budget: { tokens: 600 } });
    const active = (ws: typeof before) => ws.items.filter((i) => i.tier <= 4).map((i) => i.id);
    expect(active(after)).toEqual(active(before));
    expect(after.explanation.find((e) => e.id === 'act:1')?.reason).toBe('archived');
    expect((await own.asOf({ epoch: 0 })).nodes.map((n) => n.id)).toEqual(['task:rmdx', 'steer:api']);
    expect((await own.asOf({ epoch: 10 })).nodes.map((n) => n.id)).toContain('act:1');
  });

  it('refuses to archive what is open, depended on, not discovery, or unknown', async () => {
    const own = await pool.ledger(1);
    for (const tx of RMDX_SESSION) await own.commit(tx);
    const refusal = async (tx: number) => {
      try {
        await own.archive({ tx });
      } catch (e) {
        return `${(e as { code: string }).code}: ${(e as { details: { reason: string } }).details.reason}`;
      }
      return 'archived';
    };
    expect(await refusal(1)).toMatch(/^ARCHIVE_REFUSED: not a discovery transaction/);
    expect(await refusal(6)).toMatch(
      /^ARCHIVE_REFUSED: not a discovery transaction: it records evidence|^ARCHIVE_REFUSED: not a discovery transaction: it records claim/,
    );
    expect(await refusal(7)).toMatch(/^ARCHIVE_REFUSED: referenced: claim:reply-id supported_by result:6/);
    expect(await refusal(12)).toMatch(/^ARCHIVE_REFUSED: not completed: act:12 is open/);
    expect(await refusal(99)).toMatch(/^ARCHIVE_REFUSED: no such committed transaction/);
    expect(await codeOf(() => own.archive({ tx: 2, epoch: 3 }))).toBe('EPOCH_REGRESSION');
  });

  it('keeps a failed verifier eligible for rerun after a source it depends on changes', async () => {
    expect(await ledger.rerunCandidates({ epoch: 6 })).toEqual([]);
    const at7 = await ledger.rerunCandidates({ epoch: 7 });
    expect(at7.map((c) => c.id)).toEqual(['ver:status:1']);
    expect(at7[0]!.changed).toEqual([
      { path: 'rmdx/driver.py', checkedRevision: 'r0', newerRevision: 'r1', newerId: 'rev:driver:r1' },
    ]);
    const at9 = await ledger.rerunCandidates({ epoch: 9 });
    expect(at9.map((c) => c.id)).toEqual(['ver:status:2']);
    expect(at9[0]!.changed.map((c) => c.newerId)).toEqual(['rev:driver:r2']);
    expect(await ledger.rerunCandidates({ epoch: 10 })).toEqual([]);
  });

  it('records the audit and projection records it offers as ordinary transactions', async () => {
    const own = await pool.ledger(1);
    for (const tx of RMDX_SESSION) await own.commit(tx);
    const ws = await own.materialize({ mode: 'fresh', budget: { tokens: 1000 } });
    const audit = await own.commit(ws.toAuditTransaction({ id: 'audit:1' }));
    expect(audit.counts.nodes).toBe(1);
    const stored = (await own.asOf({ epoch: 11 })).nodes.find((n) => n.id === 'audit:1');
    expect(JSON.parse(stored!.body!).explanation.length).toBe(ws.explanation.length);
    // A projection of what a host rendered protects it in later working sets until resolved.
    const rendered = await own.materialize({ mode: 'fresh', roots: ['ev:doc:status2'], budget: { tokens: 200 } });
    expect(ids(rendered)).toEqual(['ev:doc:status2']);
    await own.commit({ epoch: 12, transitions: [{ id: 'act:12', status: 'resolved' }] });
    await own.commit(rendered.toProjectionTransaction({ id: 'req:1', epoch: 12 }));
    const later = await own.materialize({ mode: 'fresh', budget: { tokens: 500 } });
    expect(later.explanation.find((e) => e.id === 'ev:doc:status2')?.reason).toBe('cited by open request');
    expect(ids(later)).toContain('ev:doc:status2');
    // The audit and projection records never come back as recaps.
    expect(ids(later)).not.toContain('audit:1');
    expect(ids(later)).not.toContain('req:1');
    await own.commit({ epoch: 13, transitions: [{ id: 'req:1', status: 'resolved' }] });
    const released = await own.materialize({ mode: 'fresh', budget: { tokens: 500 } });
    expect(ids(released)).not.toContain('ev:doc:status2');
  });

  it('rejects bad requests with INVALID_REQUEST or UNKNOWN_NODE naming the field', async () => {
    const err = async (r: unknown) => {
      try {
        await ledger.materialize(r as never);
      } catch (e) {
        return [(e as { code: string }).code, (e as { details: { field: string } }).details.field];
      }
      return null;
    };
    expect(await err({})).toEqual(['INVALID_REQUEST', 'budget']);
    expect(await err({ budget: { tokens: -1 } })).toEqual(['INVALID_REQUEST', 'budget.tokens']);
    expect(await err({ budget: { tokens: 10 }, hops: 1.5 })).toEqual(['INVALID_REQUEST', 'hops']);
    expect(await err({ budget: { tokens: 10 }, authority: 'user' })).toEqual(['INVALID_REQUEST', 'authority']);
    expect(await err({ budget: { tokens: 10 }, roots: ['nope'] })).toEqual(['UNKNOWN_NODE', 'roots[0]']);
  });

  it('never shows records outside the authority scopes', async () => {
    const ws = await ledger.materialize({ mode: 'session', budget: { tokens: 100_000 }, authority: ['user', 'agent'] });
    expect(ws.items.every((i) => i.authority === 'user' || i.authority === 'agent')).toBe(true);
    const all = new Map((await ledger.asOf({ epoch: 11 })).nodes.map((n) => [n.id, n.authority]));
    for (const e of ws.explanation) expect(['user', 'agent']).toContain(all.get(e.id) ?? 'agent');
  });

  it('reports a cut by the node bound', async () => {
    const ws = await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 }, maxNodes: 5 });
    expect(ws.graphTruncated).toBe(true);
    expect(ws.explanation.some((e) => e.reason === 'beyond the bound')).toBe(true);
    const full = await ledger.materialize({ mode: 'fresh', budget: { tokens: 100_000 } });
    expect(full.graphTruncated).toBe(false);
  });
});
