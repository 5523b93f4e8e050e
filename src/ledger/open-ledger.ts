import type { Engine } from '../engine/engine.js';
import { asLedgerError, LedgerError } from '../errors.js';
import type { LedgerAssets } from '../runtime/assets.js';
import type { Embedder } from '../text/hashed-embedder.js';
import { DEFAULT_ENCODING, type Encoding, isEncoding, type TokenCounter } from '../tokenizer/token-counter.js';
import type { HashTexts } from './content-hash.js';
import { type Ledger, restoreLedger } from './ledger.js';
import { decodeSnapshot } from './snapshot/snapshot-format.js';
import type { StorageAdapter } from './storage.js';

/** Options every runtime's `openLedger` accepts. */
export interface OpenLedgerOptions {
  /** Snapshot bytes (from `ledger.snapshot()`) to restore. */
  snapshot?: Uint8Array;
  /** Token encoding for bodies; defaults to the snapshot's, else `o200k_base`. */
  encoding?: Encoding;
  /** Durable storage; without it the ledger lives in memory only. */
  storage?: StorageAdapter;
  /** Embedder for retrieval's vector channel; default: the built-in hashed-trigram stand-in. */
  embedder?: Embedder;
  /**
   * Prepared plans kept on the DuckDB instance this ledger opens on, for all its ledgers
   * together (each pins DuckDB memory; the least recently used is freed past the cap and
   * prepared again on its next use). Instance-wide, like DuckDB's own settings: the last ledger
   * opened with it sets it. Default 4 (2 in workerd); 0 keeps none.
   */
  keptPlans?: number;
  /**
   * The files the ledger loads (DuckDB's and tiktoken's wasm, …), for hosts with their own asset
   * pipeline; each defaults to the installed package's. See `LedgerAssets` for what each runtime
   * loads and in which forms.
   */
  assets?: LedgerAssets;
}

/** What a runtime entry supplies: how to start DuckDB and tiktoken there. */
export interface RuntimeBindings {
  openEngine(): Promise<Engine>;
  tokenCounter(encoding: Encoding): Promise<TokenCounter>;
  /** Body hashing; WebCrypto when the runtime has nothing faster. */
  hashTexts?: HashTexts;
}

/**
 * Storages a ledger was opened with: each belongs to that one ledger for good (it is closed with
 * it). A second ledger on the same storage would write to it behind the first one's back.
 */
const bound = new WeakSet<object>();

/**
 * Opens a ledger with a runtime's bindings. Options are resolved once here; the core never
 * re-checks defaults.
 */
export async function openLedgerWith(runtime: RuntimeBindings, options: OpenLedgerOptions = {}): Promise<Ledger> {
  try {
    return await openNow(runtime, options);
  } catch (e) {
    // Asset loading, a runtime's engine start-up or a bug: whatever it was leaves coded.
    throw asLedgerError(e);
  }
}

async function openNow(runtime: RuntimeBindings, options: OpenLedgerOptions): Promise<Ledger> {
  if (typeof options !== 'object' || options === null) throw new LedgerError('INVALID_OPTION', { field: 'options' });
  if (options.encoding !== undefined && !isEncoding(options.encoding)) {
    throw new LedgerError('INVALID_OPTION', { field: 'encoding', value: options.encoding });
  }
  if (options.snapshot !== undefined && !(options.snapshot instanceof Uint8Array)) {
    throw new LedgerError('INVALID_OPTION', { field: 'snapshot', reason: 'snapshot bytes (a Uint8Array)' });
  }
  const { keptPlans } = options;
  if (keptPlans !== undefined && !(Number.isInteger(keptPlans) && keptPlans >= 0)) {
    throw new LedgerError('INVALID_OPTION', { field: 'keptPlans', value: keptPlans, reason: 'a whole number ≥ 0' });
  }
  const storage = options.storage ?? null;
  const snapshot = options.snapshot ?? null;
  if (storage) {
    if (snapshot)
      throw new LedgerError('INVALID_OPTION', { field: 'snapshot', reason: 'give a snapshot or a storage, not both' });
    if (typeof storage !== 'object' || typeof storage.load !== 'function')
      throw new LedgerError('INVALID_OPTION', { field: 'storage', reason: 'a storage adapter' });
    if (bound.has(storage))
      throw new LedgerError('STORAGE_IN_USE', {
        field: 'storage',
        reason: 'this storage object already belongs to another ledger; open a new storage for each ledger',
      });
    bound.add(storage);
  }
  try {
    return await openBound(runtime, options, storage, snapshot);
  } catch (e) {
    // A refused open leaves the storage free for the caller to close, or to open again.
    if (storage) bound.delete(storage);
    throw e;
  }
}

async function openBound(
  runtime: RuntimeBindings,
  options: OpenLedgerOptions,
  storage: StorageAdapter | null,
  given: Uint8Array | null,
): Promise<Ledger> {
  const { keptPlans } = options;
  let snapshot = given;
  let log: Uint8Array[] = [];
  if (storage) {
    try {
      ({ snapshot, log } = await storage.load());
    } catch (e) {
      throw asLedgerError(e, 'STORAGE_FAILED', 'storage');
    }
  }
  // Verified once here (a SHA-256 over every byte) and handed to restore as decoded.
  const decoded = snapshot ? await decodeSnapshot(snapshot) : null;
  const encoding = options.encoding ?? decoded?.manifest.encoding ?? DEFAULT_ENCODING;
  if (!isEncoding(encoding))
    throw new LedgerError('SNAPSHOT_CORRUPT', { field: 'snapshot', reason: 'unknown encoding' });
  const counter = await runtime.tokenCounter(encoding);
  const engine = await runtime.openEngine();
  if (keptPlans !== undefined) engine.plans?.setLimit(keptPlans);
  try {
    return await restoreLedger(
      {
        engine,
        counter,
        storage,
        hashTexts: runtime.hashTexts,
        embedder: options.embedder,
      },
      decoded,
      log,
    );
  } catch (e) {
    await engine.close().catch(() => undefined);
    throw e;
  }
}
