import type { Transaction } from '../../schema/types.js';
import type { LedgerIndex } from '../ledger-index.js';
import type { BodyHashes } from './plan-commit.js';

/** The longest stretch of token counting between two turns of the event loop. */
const SLICE_MS = 50;

/**
 * Token counts of the bodies a transaction adds (the first node with each content hash not yet
 * stored), by node position, counted before planning so that a large commit lets the event loop
 * turn every ~50 ms: counting is the commit's longest synchronous part (100k bodies of 500
 * characters take about a second), and a host's timers and I/O would otherwise wait for all of
 * it. A small commit never yields. The counts are the counter's own; only the time they are
 * taken at moves.
 */
export async function countNewBodies(
  tx: Transaction,
  index: LedgerIndex,
  hashes: BodyHashes,
  count: (text: string) => number,
): Promise<Array<number | undefined>> {
  const nodes = tx.nodes ?? [];
  const out = new Array<number | undefined>(nodes.length);
  const seen = new Set<string>();
  let sliceStart = performance.now();
  for (let i = 0; i < nodes.length; i++) {
    const body = nodes[i]!.body;
    const hash = hashes[i];
    if (body === undefined || hash === undefined || seen.has(hash) || index.bodyKeys.get(hash) !== undefined) continue;
    seen.add(hash);
    out[i] = count(body);
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = performance.now();
    }
  }
  return out;
}
