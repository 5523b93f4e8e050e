import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_VIEW_MAX_CHARS, readGraphView } from '../../src/ledger/graph-view.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import type { NodeInput, Transaction } from '../../src/schema/types.js';
import { engineOf, indexOf, LedgerPool } from '../helpers/ledgers.js';

/**
 * `asOf` at the last epoch answers from the current view kept in step with commits
 * (CurrentGraphView): after every kind of commit its answer must be, byte for byte, what the
 * engine's statements answer.
 */
const pool = new LedgerPool();
let ledger: Ledger;
let queries = 0;
beforeAll(async () => {
  ledger = await pool.ledger();
  const engine = engineOf(ledger);
  const query = engine.query.bind(engine);
  engine.query = (sql) => {
    queries++;
    return query(sql);
  };
});
afterAll(() => pool.close());

/** The current view through the statements, as before the kept view existed. */
const fromEngine = async (epoch: number) =>
  JSON.stringify(await readGraphView(engineOf(ledger), epoch, indexOf(ledger)));

async function expectSameAsEngine(): Promise<void> {
  const epoch = ledger.lastEpoch;
  for (const at of [epoch, epoch + 3])
    expect(JSON.stringify(await ledger.asOf({ epoch: at }))).toBe(await fromEngine(at));
}

async function commitAndCompare(tx: Transaction): Promise<void> {
  await ledger.commit(tx);
  await expectSameAsEngine();
}

describe('the current graph view kept across commits', () => {
  it('is read once from the engine, then answers without a query', async () => {
    await ledger.commit({
      epoch: 1,
      nodes: [
        { id: 'task', kind: 'task', authority: 'user', body: 'Fix the CAN driver', meta: { priority: 2 } },
        { id: 'act:1', kind: 'action', body: 'read the driver' },
        { id: 'call:1', kind: 'tool_call', tool: 'bash', body: 'cat driver.c' },
        { id: 'res:1', kind: 'tool_result', body: 'int main() {}' },
        { id: 'msg:1', kind: 'message', role: 'user', body: 'int main() {}' },
      ],
      edges: [
        { from: 'task', to: 'act:1', kind: 'plans' },
        { from: 'act:1', to: 'call:1', kind: 'invokes' },
        { from: 'call:1', to: 'res:1', kind: 'produces' },
      ],
    });
    await expectSameAsEngine();
    await ledger.commit({ epoch: 2, nodes: [{ id: 'claim:1', kind: 'claim', status: 'open', body: 'byte 4' }] });
    const before = queries;
    const view = await ledger.asOf({ epoch: 2 });
    expect(queries).toBe(before);
    expect(view.nodes.map((n) => n.id)).toEqual(['task', 'act:1', 'call:1', 'res:1', 'msg:1', 'claim:1']);
    await expectSameAsEngine();
  });

  it('gives fresh records each time: changing one changes no later answer', async () => {
    const first = await ledger.asOf({ epoch: ledger.lastEpoch });
    (first.nodes[0]!.meta as Record<string, unknown>).priority = 99;
    first.nodes.pop();
    first.edges.length = 0;
    await expectSameAsEngine();
  });

  it('follows supersession by revisions, with and without changed ranges', async () => {
    await commitAndCompare({
      epoch: 3,
      nodes: [
        { id: 'rev:a1', kind: 'artifact_revision', path: 'src/can.c', revision: 'a1', body: 'v1' },
        { id: 'ev:a1:1-10', kind: 'evidence', path: 'src/can.c', revision: 'a1', range: [1, 10], body: 'head' },
        { id: 'ev:a1:50-60', kind: 'evidence', path: 'src/can.c', revision: 'a1', range: [50, 60], body: 'crc' },
      ],
      edges: [{ from: 'res:1', to: 'ev:a1:1-10', kind: 'cites' }],
    });
    await commitAndCompare({
      epoch: 4,
      nodes: [
        { id: 'rev:a2', kind: 'artifact_revision', path: 'src/can.c', revision: 'a2', changed: [[55, 56]], body: 'v2' },
      ],
    });
    await commitAndCompare({
      epoch: 4,
      nodes: [{ id: 'rev:a3', kind: 'artifact_revision', path: 'src/can.c', revision: 'a3', body: 'v3' }],
    });
  });

  it('follows transitions, explicit supersedes edges and outcomes of the same verifier', async () => {
    await commitAndCompare({ epoch: 5, transitions: [{ id: 'act:1', status: 'resolved' }] });
    await commitAndCompare({
      epoch: 6,
      nodes: [
        { id: 'claim:2', kind: 'claim', status: 'open', body: 'byte 5' },
        { id: 'ver:1', kind: 'verifier_outcome', verifier: 'pytest', status: 'failed', body: '1 failed' },
      ],
      edges: [
        { from: 'claim:2', to: 'claim:1', kind: 'supersedes' },
        { from: 'claim:2', to: 'ver:1', kind: 'verified_by' },
        { from: 'task', to: 'claim:1', kind: 'requires' },
      ],
      transitions: [{ id: 'claim:2', status: 'resolved' }],
    });
    await commitAndCompare({
      epoch: 7,
      nodes: [{ id: 'ver:2', kind: 'verifier_outcome', verifier: 'pytest', status: 'passed', body: '1 passed' }],
    });
  });

  it('finds a body stored earlier, whether a current node still holds it or not', async () => {
    // 'int main() {}' is held by current nodes; 'head' only by a closed evidence version.
    await commitAndCompare({
      epoch: 8,
      nodes: [
        { id: 'res:2', kind: 'tool_result', body: 'int main() {}' },
        { id: 'res:3', kind: 'tool_result', body: 'head' },
        { id: 'res:4', kind: 'tool_result' },
      ],
    });
    await expectSameAsEngine();
  });

  it('follows an archive', async () => {
    await ledger.commit({ epoch: 9, nodes: [{ id: 'res:x', kind: 'tool_result', body: 'looked only' }] });
    await ledger.asOf({ epoch: 9 });
    const { tx } = await ledger.commit({ epoch: 9, nodes: [{ id: 'res:y', kind: 'tool_result', body: 'looked too' }] });
    await ledger.asOf({ epoch: 9 });
    await ledger.archive({ tx, epoch: 10 });
    await expectSameAsEngine();
    expect((await ledger.asOf({ epoch: 10 })).nodes.map((n) => n.id)).not.toContain('res:y');
  });

  it('answers the same past its size bound, and again once a read refills it', async () => {
    // Words, not one long run of a letter (BPE over a run is quadratic in its length).
    const words = Array.from({ length: CURRENT_VIEW_MAX_CHARS / 8 }, (_, i) => `w${i % 9973} `).join('');
    const half = words.slice(0, CURRENT_VIEW_MAX_CHARS / 2 + 1);
    await commitAndCompare({
      epoch: 11,
      nodes: [
        { id: 'big:1', kind: 'tool_result', body: half },
        { id: 'big:2', kind: 'tool_result', body: `${half}y` },
      ],
    });
    await commitAndCompare({ epoch: 12, nodes: [{ id: 'res:5', kind: 'tool_result', body: 'small' }] });
  });
});

describe('the current graph view under random steps', () => {
  it('equals the engine after every step, accepted or refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(1_000_000), { minLength: 20, maxLength: 40 }), async (draws) => {
        const own = await pool.ledger(1);
        const sql = async () => JSON.stringify(await readGraphView(engineOf(own), own.lastEpoch, indexOf(own)));
        const ids: string[] = [];
        const pick = (d: number) => ids[d % ids.length]!;
        let n = 0;
        for (const d of draws) {
          const epoch = own.lastEpoch + (d % 2);
          const op = d % 7;
          const kinds = ['task', 'claim', 'action', 'tool_result', 'evidence', 'artifact_revision'] as const;
          const kind = kinds[(d >> 3) % kinds.length]!;
          const id = `${kind}:${n++}`;
          const node: NodeInput = {
            id,
            kind,
            ...(kind === 'claim' || kind === 'action' ? { status: 'open' } : {}),
            ...(kind === 'evidence' || kind === 'artifact_revision'
              ? { path: `f${d % 3}.c`, revision: `r${n}`, ...(kind === 'evidence' ? { range: [1, 1 + (d % 50)] } : {}) }
              : {}),
            ...(d % 5 === 0 ? {} : { body: `body ${d % 11}` }),
          } as NodeInput;
          const tx: Transaction =
            op === 0 && ids.length > 0
              ? { epoch, transitions: [{ id: pick(d >> 5), status: 'resolved' }] }
              : op === 1 && ids.length > 1
                ? { epoch, nodes: [node], edges: [{ from: id, to: pick(d >> 5), kind: 'supersedes' }] }
                : op === 2 && ids.length > 0
                  ? { epoch, nodes: [node], edges: [{ from: pick(d >> 5), to: id, kind: 'requires' }] }
                  : { epoch, nodes: [node] };
          const accepted = await own.commit(tx).then(
            () => true,
            () => false,
          );
          if (accepted) ids.push(id);
          if (op === 3 && own.lastTx > 1) await own.archive({ tx: 1 + (d % own.lastTx) }).catch(() => undefined);
          expect(JSON.stringify(await own.asOf({ epoch: own.lastEpoch }))).toBe(await sql());
        }
      }),
      { numRuns: 15, seed: 1211 },
    );
  });
});
