import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ledgerCore, materializeContext } from '../../src/ledger/ledger.js';
import type { Transaction } from '../../src/schema/types.js';
import { BodyCache } from '../../src/text/body-cache.js';
import { extendCandidates } from '../../src/working-set/extend-candidates.js';
import { type CandidateGraph, loadCandidates } from '../../src/working-set/load-candidates.js';
import { materialize } from '../../src/working-set/materialize.js';
import type { MaterializeContext } from '../../src/working-set/rank-candidates.js';
import { resolveMaterializeRequest } from '../../src/working-set/request.js';
import { type HashedBody, loadStepDelta, StepLog } from '../../src/working-set/step-delta.js';
import {
  arbitrarySession,
  commitSessionStep,
  type Session,
  sessionTransactions,
} from '../helpers/arbitrary-session.js';
import { LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());

/** A session's transactions, with the claims still open resolved at the steps `resolve` names
 * (status changes: a new version of an older node). */
function withTransitions(session: Session, resolve: readonly boolean[]): Transaction[] {
  const txs = sessionTransactions(session);
  const open: string[] = [];
  txs.forEach((tx, t) => {
    if (t > 0 && resolve[t % resolve.length] && open.length > 0)
      tx.transitions = [{ id: open.shift()!, status: 'resolved' }];
    for (const n of tx.nodes ?? []) if (n.kind === 'claim' && n.status === 'open') open.push(n.id);
  });
  return txs;
}

/** A random session, and at which steps its open claims get resolved. */
const sessions = fc.tuple(arbitrarySession, fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }));

async function freshLedger() {
  const ledger = await pool.ledger(0);
  return { ledger, core: ledgerCore(ledger) };
}

const ids = (g: CandidateGraph, idOf: (nid: number) => string | undefined) =>
  new Set([...g.candidates.keys()].map((nid) => idOf(nid)!));

describe('session steps read as deltas', () => {
  it('gives the same delta from the step log as from the tables, at the last epoch and as of earlier ones', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(sessions, async ([session, resolve]) => {
        const { ledger, core } = await freshLedger();
        const steps = new StepLog();
        const bodies = new BodyCache<HashedBody>();
        core.hooks.push({
          committed: (plan) => {
            steps.add(plan);
            for (const b of plan.bodies) bodies.set(b);
          },
        });
        const engine = core.config.engine;
        const rowOf = (nid: number) => core.index.byNid[nid];
        const epochs: number[] = [];
        const compare = async (from: number, to: number) => {
          const logged = await loadStepDelta(engine, from, to, { rowOf, steps, bodies });
          const read = await loadStepDelta(engine, from, to, { rowOf });
          expect(logged).toEqual(read);
          compared++;
        };
        for (const tx of withTransitions(session, resolve)) {
          if (!(await commitSessionStep(ledger, tx))) continue;
          epochs.push(tx.epoch);
          if (epochs.length > 1) await compare(epochs.at(-2)!, epochs.at(-1)!);
        }
        // As of earlier epochs: later versions hide the ones valid then from the index.
        for (let k = 1; k < epochs.length; k++) await compare(epochs[k - 1]!, epochs[k]!);
      }),
      { numRuns: 20, seed: 2812 },
    );
    expect(compared).toBeGreaterThan(100);
  });

  it('extends a step graph with every node of the step the closure reaches, its status changes and closures', async () => {
    let extended = 0;
    await fc.assert(
      fc.asyncProperty(sessions, async ([session, resolve]) => {
        const { ledger, core } = await freshLedger();
        const { engine } = core.config;
        const idOf = (nid: number) => core.index.byNid[nid]?.id;
        const lookups = {
          nidOf: (id: string) => core.index.nodes.get(id)?.nid,
          idOf,
          rowOf: (nid: number) => core.index.byNid[nid],
        };
        let prev: { graph: CandidateGraph; epoch: number } | null = null;
        for (const tx of withTransitions(session, resolve)) {
          if (!(await commitSessionStep(ledger, tx))) continue;
          const req = resolveMaterializeRequest({ budget: { tokens: 1000 } }, ledger.lastEpoch);
          const full = await loadCandidates(engine, req, lookups, ledger.lastEpoch);
          if (prev !== null) {
            const delta = await loadStepDelta(engine, prev.epoch, tx.epoch, lookups);
            const graph = extendCandidates(prev.graph, delta, {
              from: prev.epoch,
              hops: req.hops,
              authority: req.authority,
              idOf,
            });
            if (graph !== null) {
              extended++;
              const fullIds = ids(full, idOf);
              const extIds = ids(graph, idOf);
              // Every node of the step the closure reaches is in, as the closure reads it.
              for (const [nid, c] of full.candidates)
                if (c.validFrom === tx.epoch)
                  expect(graph.candidates.get(nid)).toEqual({ ...c, hop: graph.candidates.get(nid)!.hop });
              // What else it holds the previous graph held, and it is still valid.
              for (const id of extIds) if (!fullIds.has(id)) expect(ids(prev.graph, idOf).has(id)).toBe(true);
              for (const c of graph.candidates.values()) expect(core.index.byNid[c.nid]!.valid_to).toBeNull();
              // A candidate the step closed is listed as closed.
              const closed = new Set(graph.closed.map((c) => c.id));
              for (const c of prev.graph.candidates.values())
                if (core.index.byNid[c.nid]!.valid_to !== null) expect(closed.has(c.id)).toBe(true);
              // Among the nodes both hold, the same edges and the same open dependants.
              const both = (nid: number) => full.candidates.has(nid) && graph.candidates.has(nid);
              const edgeKeys = (g: CandidateGraph) =>
                g.edges
                  .filter((e) => both(e.src) && both(e.dst))
                  .map((e) => `${e.src} ${e.kind} ${e.dst}`)
                  .sort();
              expect(edgeKeys(graph)).toEqual(edgeKeys(full));
              for (const nid of full.candidates.keys())
                if (both(nid))
                  expect([...(graph.openDependants.get(nid) ?? [])].sort()).toEqual(
                    [...(full.openDependants.get(nid) ?? [])].sort(),
                  );
            }
          }
          prev = { graph: full, epoch: tx.epoch };
        }
      }),
      { numRuns: 25, seed: 2813 },
    );
    expect(extended).toBeGreaterThan(50);
  });
});

describe('an appending step on an extended ranking', () => {
  it('gives the working sets that ranking every step from the closure gives, when no bound cuts the walk', async () => {
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(sessions, fc.integer({ min: 150, max: 1500 }), async ([session, resolve], tokens) => {
        const { ledger, core } = await freshLedger();
        for (const tx of withTransitions(session, resolve)) await commitSessionStep(ledger, tx);
        const { index } = core;
        const context = (extend: boolean): MaterializeContext => ({
          ...materializeContext(core, {}),
          // Every step a bulk load: ranked afresh from the closure.
          txRows: extend ? () => 0 : () => Number.POSITIVE_INFINITY,
        });
        const extended = context(true);
        const closure = context(false);
        for (const epoch of new Set(index.transactions.filter((t) => t !== undefined).map((t) => t.epoch))) {
          const a = await materialize(extended, { budget: { tokens }, epoch });
          const b = await materialize(closure, { budget: { tokens }, epoch });
          expect(JSON.stringify(a.items)).toBe(JSON.stringify(b.items));
          expect(a.session).toEqual(b.session);
          steps++;
        }
      }),
      { numRuns: 20, seed: 2814 },
    );
    expect(steps).toBeGreaterThan(100);
  });
});
