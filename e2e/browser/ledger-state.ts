import type { Ledger } from '../../src/entries/browser.js';

/** What the storage specs compare: equal states mean the same ledger. */
export interface LedgerState {
  kind: string | null;
  lastTx: number;
  lastEpoch: number;
  /** The whole graph as of the last epoch, and the snapshot bytes' SHA-256. */
  view: string;
  snapshotSha256: string;
}

export async function ledgerState(ledger: Ledger, kind: string | null): Promise<LedgerState> {
  const digest = await crypto.subtle.digest('SHA-256', (await ledger.snapshot()).slice());
  return {
    kind,
    lastTx: ledger.lastTx,
    lastEpoch: ledger.lastEpoch,
    view: JSON.stringify(await ledger.asOf({ epoch: ledger.lastEpoch })),
    snapshotSha256: Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join(''),
  };
}

/** What opfs-worker.ts answers. */
export interface WorkerOutcome {
  state?: LedgerState;
  /** Whether the worker had sync access handles (the path under test). */
  syncAccess?: boolean;
  error?: string;
}
