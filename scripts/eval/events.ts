/**
 * The moments the evaluation measures: every step that edits a file the final patch changes.
 * What the agent needed in view then is that file's gold lines; what it had is decided from the
 * steps before the edit.
 */
import type { Transaction } from '../../src/schema/types.js';
import type { GoldLine } from './metrics.js';

export interface EditEvent {
  /** The editing step; contexts are built from the steps before it (epochs < epoch). */
  epoch: number;
  /** Edited paths that have usable gold lines. */
  paths: string[];
  /** Indices into the trajectory's gold lines: those of every path in `paths`. */
  gold: number[];
}

/**
 * Steps with an `artifact_revision` of a gold path. Revisions the adapter only inferred from a
 * later view (`meta.inferred`) are not edits the step made, so they are not events.
 */
export function editEvents(transactions: readonly Transaction[], gold: readonly GoldLine[]): EditEvent[] {
  const events: EditEvent[] = [];
  for (const tx of transactions) {
    if (tx.epoch < 1) continue;
    const paths = new Set<string>();
    for (const n of tx.nodes ?? []) {
      if (n.kind !== 'artifact_revision' || n.meta?.inferred === true || n.path === undefined) continue;
      if (gold.some((g) => g.path === n.path)) paths.add(n.path);
    }
    if (paths.size === 0) continue;
    const sorted = [...paths].sort();
    const ids = gold.flatMap((g, i) => (paths.has(g.path) ? [i] : []));
    events.push({ epoch: tx.epoch, paths: sorted, gold: ids });
  }
  return events;
}
