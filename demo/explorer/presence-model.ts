import type { NodeKind } from '../../src/schema/kinds.js';
import { naturalCompare } from './natural-order.js';
import { LANES } from './view-model.js';

/**
 * The presence matrix: one row per record the trace ever held (grouped by the step that recorded
 * it, then by kind), one column per epoch, each cell saying whether the record was in the working
 * set, left out, superseded, or not recorded yet. Pure (unit-tested); the view draws it on a
 * canvas.
 */

export const CELL = { unrecorded: 0, in: 1, out: 2, superseded: 3, pending: 4 } as const;
export type CellState = keyof typeof CELL;

export interface PresenceRow {
  id: string;
  kind: NodeKind;
  /** First epoch any version of it was valid. */
  from: number;
  /** Epoch it stopped being valid (every version closed), if it did. */
  to?: number;
}

/** Rows from every version the history holds (a source at the last epoch), by step, kind, id. */
export function presenceRows(
  records: ReadonlyArray<{ id: string; kind: NodeKind; validFrom: number; validTo?: number }>,
): PresenceRow[] {
  const byId = new Map<string, PresenceRow & { open: boolean }>();
  for (const r of records) {
    const row = byId.get(r.id);
    const open = r.validTo === undefined;
    if (!row) {
      byId.set(r.id, { id: r.id, kind: r.kind, from: r.validFrom, ...(open ? {} : { to: r.validTo }), open });
      continue;
    }
    row.from = Math.min(row.from, r.validFrom);
    row.open ||= open;
    if (row.open) delete row.to;
    else row.to = Math.max(row.to ?? 0, r.validTo ?? 0);
  }
  const lane = (k: NodeKind) => LANES.indexOf(k);
  return [...byId.values()]
    .map(({ open: _open, ...row }) => row)
    .sort((a, b) => a.from - b.from || lane(a.kind) - lane(b.kind) || naturalCompare(a.id, b.id));
}

/**
 * The cells, row-major (`rows × epochs` bytes of CELL values). `included[e]` is the working set
 * at epoch e, or undefined while not materialized yet (those cells are `pending`).
 */
export function presenceCells(
  rows: readonly PresenceRow[],
  epochs: number,
  included: ReadonlyArray<ReadonlySet<string> | undefined>,
): Uint8Array {
  const cells = new Uint8Array(rows.length * epochs);
  rows.forEach((r, i) => {
    for (let e = 0; e < epochs; e++) {
      const ws = included[e];
      cells[i * epochs + e] =
        e < r.from
          ? CELL.unrecorded
          : r.to !== undefined && e >= r.to
            ? CELL.superseded
            : ws === undefined
              ? CELL.pending
              : ws.has(r.id)
                ? CELL.in
                : CELL.out;
    }
  });
  return cells;
}

/** How often each row entered or left the working set (its churn), from its cells. */
export function churn(cells: Uint8Array, row: number, epochs: number): number {
  let n = 0;
  for (let e = 1; e < epochs; e++) {
    const a = cells[row * epochs + e - 1];
    const b = cells[row * epochs + e];
    if ((a === CELL.in) !== (b === CELL.in) && a !== CELL.unrecorded) n++;
  }
  return n;
}
