/// <reference types="vite/client" />
/**
 * Test hooks on `window.harness` for the storage and asset specs, over the *built* bundle. The
 * spec drives them with `page.evaluate`, reloading the page between calls to test persistence.
 */

import duckdbWorkerUrl from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import duckdbWasmUrl from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import * as built from 'context-ledger';
import cl100kRanksUrl from 'tiktoken/encoders/cl100k_base.json?url';
import tiktokenWasmUrl from 'tiktoken/lite/tiktoken_bg.wasm?url';
import { RMDX_SESSION } from '../../demo/traces/rmdx-can-session.js';
import type * as BrowserEntry from '../../src/entries/browser.js';
import { type LedgerState, ledgerState, type WorkerOutcome } from './ledger-state.js';

// Typed from the source entry, run from the built one (`context-ledger` is aliased to dist).
const lib = built as unknown as typeof BrowserEntry;
type Ledger = BrowserEntry.Ledger;

export interface Failure {
  code: string;
  field?: unknown;
  cause?: string;
  ms: number;
}

const open = new Map<string, { ledger: Ledger; storage: BrowserEntry.BrowserStorage; failAppends: boolean }>();

function failure(e: unknown, started: number): Failure {
  const err = e as { code?: string; details?: { field?: unknown }; cause?: { name?: string } };
  return {
    code: err.code ?? String(e),
    field: err.details?.field,
    cause: err.cause?.name,
    ms: performance.now() - started,
  };
}

/** Commits `tx`, which must fail; reports how, and the state after. */
async function refused(name: string, tx: BrowserEntry.Transaction): Promise<{ failure: Failure; after: LedgerState }> {
  const { ledger, storage } = entry(name);
  const started = performance.now();
  const error = await ledger.commit(tx).then(
    () => new Error('the commit succeeded'),
    (e: unknown) => e,
  );
  return { failure: failure(error, started), after: await ledgerState(ledger, storage.kind) };
}

function entry(name: string) {
  const e = open.get(name);
  if (!e) throw new Error(`ledger ${name} is not open`);
  return e;
}

const harness = {
  assetUrls: { duckdbWasmUrl, duckdbWorkerUrl, tiktokenWasmUrl, cl100kRanksUrl },

  /**
   * Opens the durable ledger `name` (`browser`: OPFS with the IndexedDB fallback; `indexeddb`:
   * forced). Its storage is wrapped so `failAppends` can make every append reject the way a full
   * quota does.
   */
  async open(name: string, kind: 'browser' | 'indexeddb'): Promise<LedgerState> {
    const storage = await (kind === 'browser' ? lib.browserStorage(name) : lib.indexedDbStorage(name));
    const slot = { failAppends: false };
    const faulty: BrowserEntry.StorageAdapter = {
      load: () => storage.load(),
      append: (record) =>
        slot.failAppends
          ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'))
          : storage.append(record),
      compact: (snapshot) => storage.compact(snapshot),
      close: () => storage.close(),
    };
    const ledger = await lib.openLedger({ storage: faulty }).catch(async (e: unknown) => {
      await storage.close();
      throw e;
    });
    open.set(name, Object.assign(slot, { ledger, storage }));
    return ledgerState(ledger, storage.kind);
  },

  /** Commits the next `n` transactions of the RMD-X session. */
  async commit(name: string, n: number): Promise<LedgerState> {
    const { ledger, storage } = entry(name);
    for (const tx of RMDX_SESSION.slice(ledger.lastTx, ledger.lastTx + n)) await ledger.commit(tx);
    return ledgerState(ledger, storage.kind);
  },

  /** Makes appends fail, commits the next transaction, and reports the error and the state after. */
  async commitWithFailingStorage(name: string): Promise<{ failure: Failure; after: LedgerState }> {
    const e = entry(name);
    e.failAppends = true;
    try {
      return await refused(name, RMDX_SESSION[e.ledger.lastTx]!);
    } finally {
      e.failAppends = false;
    }
  },

  /** Commits a message with a `chars`-character body, expecting the storage (e.g. a full quota) to refuse it. */
  commitLargeBody(name: string, chars: number): Promise<{ failure: Failure; after: LedgerState }> {
    const epoch = entry(name).ledger.lastEpoch;
    return refused(name, {
      epoch,
      nodes: [{ id: `large:${chars}`, kind: 'message', role: 'user', body: 'data '.repeat(chars / 5) }],
    });
  },

  /** Compacts through `ledger.compact()`; reports the log's record count before and after. */
  async compact(name: string): Promise<{ before: number; compacted: boolean; after: number }> {
    const { ledger, storage } = entry(name);
    const before = storage.logRecords;
    const compacted = await ledger.compact();
    return { before, compacted, after: storage.logRecords };
  },

  async close(name: string): Promise<void> {
    await entry(name).ledger.close();
    open.delete(name);
  },

  remove: (name: string): Promise<void> => lib.deleteBrowserStorage(name),

  /** An in-memory ledger holding the first `n` transactions, for comparison. */
  async reference(n: number): Promise<LedgerState> {
    const ledger = await lib.openLedger();
    try {
      for (const tx of RMDX_SESSION.slice(0, n)) await ledger.commit(tx);
      return await ledgerState(ledger, null);
    } finally {
      await ledger.close();
    }
  },

  /** Runs a durable ledger in a dedicated worker (sync access handles); see opfs-worker.ts. */
  async inWorker(name: string, commits: number): Promise<WorkerOutcome> {
    const worker = new Worker(new URL('./opfs-worker.ts', import.meta.url), { type: 'module' });
    try {
      return await new Promise<WorkerOutcome>((resolve) => {
        worker.onmessage = (e: MessageEvent<WorkerOutcome>) => resolve(e.data);
        worker.onerror = (e) => resolve({ error: e.message });
        worker.postMessage({ name, commits });
      });
    } finally {
      worker.terminate();
    }
  },

  /** Opens an in-memory ledger with the given options; resolves to how it failed, or code 'OK'. */
  async tryOpen(options: BrowserEntry.BrowserLedgerOptions): Promise<Failure> {
    const started = performance.now();
    try {
      const ledger = await lib.openLedger(options);
      await ledger.commit(RMDX_SESSION[0]!);
      await ledger.close();
      return { code: 'OK', ms: performance.now() - started };
    } catch (e) {
      return failure(e, started);
    }
  },
};

export type Harness = typeof harness;
(window as unknown as { harness: Harness }).harness = harness;
