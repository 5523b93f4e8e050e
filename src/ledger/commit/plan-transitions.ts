import { LedgerError } from '../../errors.js';
import { STATUS_RULES } from '../../schema/kinds.js';
import type { TransitionInput } from '../../schema/types.js';
import { type CommitDraft, closeNode } from './commit-draft.js';

/**
 * Status changes. A node of this commit takes the new status in its first version; a stored
 * node's current version is closed and a new version written. A node transitions once per
 * commit, only while valid (supersession of this commit counts), and only to a status its kind
 * allows.
 */
export function planTransitions(draft: CommitDraft, transitionsIn: readonly TransitionInput[]): void {
  const transitioned = new Set<string>();
  transitionsIn.forEach((t, i) => {
    const at = `transitions[${i}]`;
    if (transitioned.has(t.id))
      throw new LedgerError('DUPLICATE_ID', { field: `${at}.id`, id: t.id, reason: 'transitioned twice' });
    transitioned.add(t.id);
    const fresh = draft.newNodes.get(t.id);
    const current = fresh ?? draft.index.nodes.get(t.id);
    if (!current) throw new LedgerError('UNKNOWN_NODE', { field: `${at}.id`, id: t.id });
    if (current.valid_to !== null || draft.closedSet.has(current)) {
      throw new LedgerError('UNKNOWN_NODE', { field: `${at}.id`, id: t.id, reason: 'the node is no longer valid' });
    }
    if (!STATUS_RULES[current.kind].allowed.includes(t.status)) {
      throw new LedgerError('INVALID_STATUS', { field: `${at}.status`, value: t.status, kind: current.kind });
    }
    if (fresh) {
      fresh.status = t.status;
      return;
    }
    closeNode(draft, current, 'status-change', null);
    draft.nodes.push({
      ...current,
      vkey: draft.nextVkey++,
      status: t.status,
      tx: draft.tx,
      valid_from: draft.epoch,
      valid_to: null,
    });
  });
}
