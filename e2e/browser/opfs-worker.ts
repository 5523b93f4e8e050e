/**
 * A ledger inside a dedicated worker, where OPFS appends go through a sync access handle (the
 * page cannot have one). Commits the first `commits` transactions of the RMD-X session with a
 * compaction halfway, closes, and answers with the state the page must then find.
 */
import * as built from 'context-ledger';
import { RMDX_SESSION } from '../../demo/traces/rmdx-can-session.js';
import type * as BrowserEntry from '../../src/entries/browser.js';
import { ledgerState, type WorkerOutcome } from './ledger-state.js';

const lib = built as unknown as typeof BrowserEntry;

self.onmessage = async (event: MessageEvent<{ name: string; commits: number }>) => {
  const { name, commits } = event.data;
  try {
    const storage = await lib.opfsStorage(name);
    const ledger = await lib.openLedger({ storage });
    const half = Math.floor(commits / 2);
    for (const tx of RMDX_SESSION.slice(0, half)) await ledger.commit(tx);
    await ledger.compact();
    for (const tx of RMDX_SESSION.slice(half, commits)) await ledger.commit(tx);
    const state = await ledgerState(ledger, storage.kind);
    await ledger.close();
    const outcome: WorkerOutcome = { state, syncAccess: 'createSyncAccessHandle' in FileSystemFileHandle.prototype };
    self.postMessage(outcome);
  } catch (e) {
    self.postMessage({ error: String((e as Error)?.stack ?? e) } satisfies WorkerOutcome);
  }
};
