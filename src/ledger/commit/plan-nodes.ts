import { LedgerError } from '../../errors.js';
import { STATUS_RULES } from '../../schema/kinds.js';
import type { NodeRow } from '../../schema/rows.js';
import type { NodeInput } from '../../schema/types.js';
import type { CommitDraft } from './commit-draft.js';

/** Content hash of each node's body, by the node's position in the transaction (undefined when
 * the node has none). Positional, so no Map keyed by body text: hashing every 500-character text
 * for Set/Map keys cost ~4 µs a body. */
export type BodyHashes = ReadonlyArray<string | undefined>;

/**
 * The first version of each new node, and a body row per content hash not yet stored. Rejects an
 * id the ledger or the transaction already holds.
 */
export function planNodes(
  draft: CommitDraft,
  nodesIn: readonly NodeInput[],
  bodyHashes: BodyHashes,
  countTokens: (text: string, node: number) => number,
): void {
  const { index, newNodes } = draft;
  nodesIn.forEach((n, i) => {
    if (index.nodes.has(n.id) || newNodes.has(n.id))
      throw new LedgerError('DUPLICATE_ID', { field: `nodes[${i}].id`, id: n.id });
    const bkey = n.body === undefined ? null : bodyKeyOf(draft, n.body, i, bodyHashes, countTokens);
    const row = nodeRow(n, draft.nextNid++, draft.nextVkey++, draft.tx, draft.epoch, bkey);
    newNodes.set(n.id, row);
    draft.nodes.push(row);
  });
}

/** The key of node `i`'s body: the stored one when its hash is known, else a new body row's. */
function bodyKeyOf(
  draft: CommitDraft,
  text: string,
  i: number,
  bodyHashes: BodyHashes,
  countTokens: (text: string, node: number) => number,
): number {
  const hash = bodyHashes[i];
  if (hash === undefined) throw new Error('body not hashed');
  const known = draft.index.bodyKeys.get(hash) ?? draft.newBodyKeys.get(hash);
  if (known !== undefined) return known;
  const bkey = draft.nextBkey++;
  draft.newBodyKeys.set(hash, bkey);
  draft.bodies.push({
    bkey,
    hash,
    text,
    tokens: countTokens(text, i),
    chars: text.length,
    tx: draft.tx,
  });
  return bkey;
}

function nodeRow(n: NodeInput, nid: number, vkey: number, tx: number, epoch: number, bkey: number | null): NodeRow {
  return {
    vkey,
    nid,
    id: n.id,
    kind: n.kind,
    status: n.status ?? STATUS_RULES[n.kind].default,
    authority: n.authority ?? 'agent',
    bkey,
    path: n.path ?? null,
    revision: n.revision ?? null,
    range_start: n.range?.[0] ?? null,
    range_end: n.range?.[1] ?? null,
    verifier: n.verifier ?? null,
    tool: n.tool ?? null,
    role: n.role ?? null,
    changed: n.changed === undefined ? null : JSON.stringify(n.changed),
    meta: n.meta === undefined ? null : stableJson(n.meta),
    tx,
    valid_from: epoch,
    valid_to: null,
  };
}

/** JSON with keys sorted, so equal metadata serialises to equal bytes. */
function stableJson(o: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    ),
  );
}
