import { LedgerError } from '../../errors.js';
import type { BodyRow, ClosureRow, EdgeRow, NodeRow, TransactionRow } from '../../schema/rows.js';
import type { Receipt, Transaction } from '../../schema/types.js';
import type { LedgerIndex } from '../ledger-index.js';
import { type CommitDraft, newDraft } from './commit-draft.js';
import { planEdges } from './plan-edges.js';
import { type BodyHashes, planNodes } from './plan-nodes.js';
import { planTransitions } from './plan-transitions.js';
import { planSupersession } from './supersession.js';

export type { BodyHashes } from './plan-nodes.js';

/** Everything one commit writes, decided before the engine is touched. */
export interface CommitPlan {
  bodies: BodyRow[];
  nodes: NodeRow[];
  edges: EdgeRow[];
  closures: ClosureRow[];
  /** Index rows whose validity the commit closes (applied to the index after the engine commit). */
  closedNodes: NodeRow[];
  transaction: TransactionRow;
  receipt: Receipt;
}

/**
 * Validates a shape-checked transaction against the ledger and decides every row it writes, phase
 * by phase: the epoch, the new nodes and their bodies, the edges, the supersession the rules
 * imply (supersession.ts), the status transitions. Each phase may reject the transaction with a
 * typed error naming the field. Pure with respect to the index: nothing is mutated, so a rejected
 * transaction changes nothing.
 */
export function planCommit(
  tx: Transaction,
  index: LedgerIndex,
  bodyHashes: BodyHashes,
  countTokens: (text: string, node: number) => number,
): CommitPlan {
  checkEpoch(tx.epoch, index);
  const nodesIn = tx.nodes ?? [];
  const edgesIn = tx.edges ?? [];
  const transitionsIn = tx.transitions ?? [];
  const draft = newDraft(index, tx.epoch, edgesIn.length);
  planNodes(draft, nodesIn, bodyHashes, countTokens);
  planEdges(draft, edgesIn);
  planSupersession(draft, edgesIn);
  planTransitions(draft, transitionsIn);
  return planOf(draft, { nodes: nodesIn.length, edges: edgesIn.length, transitions: transitionsIn.length });
}

/** The ledger's epochs never go back: a commit is at the last epoch or later. */
function checkEpoch(epoch: number, index: LedgerIndex): void {
  if (epoch < index.lastEpoch) {
    throw new LedgerError('EPOCH_REGRESSION', { field: 'epoch', epoch, lastEpoch: index.lastEpoch });
  }
}

/** The finished draft as a plan: its rows, the transaction's row and the receipt. The counts are
 * of the input, except the receipt's edges, which include the rule-made `supersedes` edges. */
function planOf(draft: CommitDraft, input: { nodes: number; edges: number; transitions: number }): CommitPlan {
  const { tx, epoch } = draft;
  return {
    bodies: draft.bodies,
    nodes: draft.nodes,
    edges: draft.edges,
    closures: draft.closures,
    closedNodes: draft.closedNodes,
    transaction: {
      tx,
      epoch,
      kind: 'commit',
      nodes: input.nodes,
      edges: input.edges,
      transitions: input.transitions,
      archived_tx: null,
    },
    receipt: {
      tx,
      epoch,
      counts: {
        nodes: input.nodes,
        edges: draft.edges.length,
        bodies: draft.bodies.length,
        transitions: input.transitions,
      },
      superseded: draft.superseded,
      contradictions: draft.contradictions,
    },
  };
}
