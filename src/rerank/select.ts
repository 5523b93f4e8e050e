import type { FusedCandidate } from './fuse.js';

export interface SelectableRecord {
  id: string;
  path: string | null;
  range: readonly [number, number] | null;
  bodyHash: string | null;
  chars: number;
}

/** Why selection left a candidate out, as a code. */
export type DropCode = 'duplicate-body' | 'near-duplicate-range' | 'budget';

export interface Selection {
  selected: FusedCandidate[];
  /** Dropped, with why: 'duplicate body of <id>', 'near-duplicate range of <id>', 'budget'. */
  dropped: Array<{ id: string; reason: string; code: DropCode }>;
}

/**
 * Walks the fused list in order and keeps what fits: each body once (a later record with the
 * same content is dropped in favour of the higher-ranked one), no near-duplicate ranges of one
 * file (overlap above `maxOverlap` of the smaller range with an already kept range), within the
 * record and character budget. Pure.
 */
export function selectDiverse(
  fused: readonly FusedCandidate[],
  records: ReadonlyMap<string, SelectableRecord>,
  budget: { records: number; chars: number },
  maxOverlap = 0.5,
): Selection {
  const selected: FusedCandidate[] = [];
  const dropped: Selection['dropped'] = [];
  const bodies = new Map<string, string>();
  const ranges = new Map<string, Array<{ id: string; range: readonly [number, number] }>>();
  let chars = 0;
  for (const f of fused) {
    const r = records.get(f.id);
    if (!r) continue;
    if (r.bodyHash !== null && bodies.has(r.bodyHash)) {
      dropped.push({ id: f.id, reason: `duplicate body of ${bodies.get(r.bodyHash)}`, code: 'duplicate-body' });
      continue;
    }
    if (r.path !== null && r.range !== null) {
      const near = (ranges.get(r.path) ?? []).find((k) => overlapShare(k.range, r.range!) > maxOverlap);
      if (near) {
        dropped.push({ id: f.id, reason: `near-duplicate range of ${near.id}`, code: 'near-duplicate-range' });
        continue;
      }
    }
    if (selected.length + 1 > budget.records || chars + r.chars > budget.chars) {
      dropped.push({ id: f.id, reason: 'budget', code: 'budget' });
      continue;
    }
    selected.push(f);
    chars += r.chars;
    if (r.bodyHash !== null) bodies.set(r.bodyHash, f.id);
    if (r.path !== null && r.range !== null)
      ranges.set(r.path, [...(ranges.get(r.path) ?? []), { id: f.id, range: r.range }]);
  }
  return { selected, dropped };
}

/** Overlap of two inclusive ranges as a share of the smaller one. */
function overlapShare(a: readonly [number, number], b: readonly [number, number]): number {
  const overlap = Math.min(a[1], b[1]) - Math.max(a[0], b[0]) + 1;
  if (overlap <= 0) return 0;
  return overlap / Math.min(a[1] - a[0] + 1, b[1] - b[0] + 1);
}
