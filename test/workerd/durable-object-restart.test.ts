import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RMDX_SESSION } from '../../demo/traces/rmdx-can-session.js';
import type { Transaction } from '../../src/schema/types.js';
import { persistentWorker } from './persistent-worker.js';
import { EXAMPLE_CONFIG, ROOT, type RunningWorker } from './worker-harness.js';

/**
 * The example Worker (demo/worker, bundled with its own wrangler.jsonc from the built dist/):
 * a session's ledger survives a workerd restart through Durable Object storage persisted on disk.
 */

const BUILD_TIMEOUT_MS = 180_000;
const START_TIMEOUT_MS = 120_000;
const REQUEST_TIMEOUT_MS = 60_000;
/** Compacting after every second record leaves, after five commits, a snapshot and a log record. */
const COMPACT_EVERY = '2';
const COMMITTED = RMDX_SESSION.slice(0, 5);

const worker = persistentWorker({
  configPath: EXAMPLE_CONFIG,
  name: 'example',
  buildTimeoutMs: BUILD_TIMEOUT_MS,
  startTimeoutMs: START_TIMEOUT_MS,
  vars: { COMPACT_EVERY },
});
const start = () => worker.start();

async function snapshotOf(w: RunningWorker): Promise<Buffer> {
  const response = await w.fetch('/sessions/rmdx/snapshot', {}, REQUEST_TIMEOUT_MS);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

const commit = (w: RunningWorker, tx: unknown) =>
  w.fetch('/sessions/rmdx/commit', { method: 'POST', body: JSON.stringify(tx) }, REQUEST_TIMEOUT_MS);

/** The snapshot of a Node ledger (built dist/) holding exactly `txs`. */
async function nodeSnapshot(txs: readonly Transaction[]): Promise<Buffer> {
  const entry = (await import(
    pathToFileURL(join(ROOT, 'dist/entries/node.js')).href
  )) as typeof import('../../src/entries/node.js');
  const ledger = await entry.openLedger();
  try {
    for (const tx of txs) await ledger.commit(tx);
    return Buffer.from(await ledger.snapshot());
  } finally {
    await ledger.close();
  }
}

describe('the example Worker', () => {
  it(
    'reopens a session after workerd restarts with exactly the transactions it committed',
    async () => {
      const expected = nodeSnapshot(COMMITTED);
      const first = await start();
      for (const [i, tx] of COMMITTED.entries()) {
        const response = await commit(first, tx);
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ tx: i + 1 });
        // A rejected transaction must leave no trace in storage either.
        if (i === 2)
          expect((await commit(first, { epoch: 99, nodes: [{ id: 'x', kind: 'thought' }] })).status).toBe(400);
      }
      const before = await snapshotOf(first);
      await worker.stop();

      const second = await start();
      const after = await snapshotOf(second);
      expect(after.equals(before)).toBe(true);
      expect(after.equals(await expected)).toBe(true);

      // The reopened session goes on from there.
      const next = await commit(second, RMDX_SESSION[5]);
      expect(next.status).toBe(200);
      expect(await next.json()).toMatchObject({ tx: COMMITTED.length + 1 });
    },
    START_TIMEOUT_MS * 2 + REQUEST_TIMEOUT_MS * 4,
  );
});
