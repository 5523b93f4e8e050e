import { type ChannelScores, type FusedCandidate, fuse } from '../rerank/fuse.js';
import { type SelectableRecord, type Selection, selectDiverse } from '../rerank/select.js';
import { type NodeRow, rowRange } from '../schema/rows.js';
import type { ChannelHits } from './channel.js';
import type { RetrievalIndex, VisibleSet } from './retrieval-index.js';

export interface Fusion {
  /** The candidates' rows (the version valid at the epoch), by record key and by id. */
  byNid: Map<number, NodeRow>;
  byId: Map<string, NodeRow>;
  fused: FusedCandidate[];
  selected: FusedCandidate[];
  dropped: Selection['dropped'];
  selectedRows: NodeRow[];
}

const NONE: ChannelScores = { exact: 0, lexical: 0, vector: 0, graph: 0, temporal: 0 };

/**
 * The pool of every channel's visible candidates (the explicit seeds excluded: they are what is
 * asked about, not evidence for it) plus the required claims' support targets at full graph
 * score; fused (rerank/fuse.ts) and selected for diversity, body-once and the budget
 * (rerank/select.ts). Node fields come from the ledger's index (the version valid at the epoch
 * where it differs): no engine call.
 */
export function fuseCandidates(
  channels: Readonly<Record<keyof ChannelScores, ChannelHits>>,
  requiredTargets: Iterable<readonly number[]>,
  seeds: ReadonlySet<number>,
  visible: VisibleSet,
  index: RetrievalIndex,
  nodeOf: (nid: number) => NodeRow | undefined,
  budget: { records: number; chars: number },
): Fusion {
  const pool = new Map<number, ChannelScores>();
  for (const [name, hits] of Object.entries(channels) as Array<[keyof ChannelScores, ChannelHits]>) {
    for (const [nid, hit] of hits) {
      if (seeds.has(nid) || visible.nodes[nid] !== 1) continue;
      const s = pool.get(nid) ?? { ...NONE };
      s[name] = hit.score;
      pool.set(nid, s);
    }
  }
  for (const targets of requiredTargets)
    for (const t of targets) if (!seeds.has(t)) pool.set(t, { ...(pool.get(t) ?? NONE), graph: 1 });

  const rows = [...pool.keys()]
    .filter((n) => nodeOf(n) !== undefined)
    .sort((a, b) => a - b)
    .map((n) => {
      const row = nodeOf(n)!;
      const version = visible.versions.get(n);
      return version === undefined ? row : { ...row, ...version };
    });
  const byNid = new Map(rows.map((r) => [r.nid, r]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const fused = fuse(new Map([...pool].filter(([n]) => byNid.has(n)).map(([n, s]) => [byNid.get(n)!.id, s])));
  const selectable = new Map<string, SelectableRecord>(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        path: r.path,
        range: rowRange(r),
        // Bodies are content-addressed: one key, one content.
        bodyHash: r.bkey === null ? null : `bkey:${r.bkey}`,
        chars: r.bkey === null ? 0 : index.postings.chars[r.bkey]!,
      },
    ]),
  );
  const { selected, dropped } = selectDiverse(fused, selectable, budget);
  return { byNid, byId, fused, selected, dropped, selectedRows: selected.map((f) => byId.get(f.id)!) };
}
