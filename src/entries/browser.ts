/**
 * Browser entry (package `exports` condition `browser`): DuckDB-WASM's async eh build in a Web
 * Worker, tiktoken's lite WASM in the page, WebCrypto hashing, OPFS/IndexedDB storage.
 *
 * Assets default to URLs resolved from the installed packages with `new URL(specifier,
 * import.meta.url)`, which bundlers (Vite, webpack) turn into emitted files; hosts with their
 * own asset pipeline pass them as `assets` (URLs or bytes).
 */
import { openBrowserEngine } from '../engine/open-browser.js';
import { LedgerError } from '../errors.js';
import type { Ledger } from '../ledger/ledger.js';
import { type OpenLedgerOptions, openLedgerWith } from '../ledger/open-ledger.js';
import { browserAssetUrl, checkAssets } from '../runtime/assets.js';
import { createBrowserTokenCounter } from '../tokenizer/tiktoken-browser.js';

export * from '../index.js';
export type { CompactableStorage } from '../ledger/storage.js';
export { indexedDbStorage } from '../storage/browser-indexeddb.js';
export { browserStorage, deleteBrowserStorage, opfsStorage } from '../storage/browser-opfs.js';
export type { BrowserStorage, BrowserStorageOptions } from '../storage/browser-storage.js';

/** Where the browser entry loads its assets from; each defaults to the installed package's file. */
/**
 * Options of the browser entry's `openLedger`: the common ones; `assets` may hold `duckdbWasm`,
 * `duckdbWorker`, `tiktokenWasm` and `ranks`, each a URL or the file's bytes.
 */
export interface BrowserLedgerOptions extends OpenLedgerOptions {}

const DUCKDB_WASM = new URL('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm', import.meta.url);
const DUCKDB_WORKER = new URL('@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js', import.meta.url);
const TIKTOKEN_WASM = new URL('tiktoken/lite/tiktoken_bg.wasm', import.meta.url);
/** One encoding by default: each adds 1–2 MB to what a page downloads. */
const O200K_RANKS = new URL('tiktoken/encoders/o200k_base.json', import.meta.url);

/**
 * Opens a ledger: in memory by default; `snapshot` restores; `storage` (e.g.
 * `await browserStorage('my-agent')`) makes it durable. A missing or wrong asset fails with
 * ASSET_UNAVAILABLE naming its option within seconds.
 */
export async function openLedger(options: BrowserLedgerOptions = {}): Promise<Ledger> {
  if (typeof options !== 'object' || options === null) throw new LedgerError('INVALID_OPTION', { field: 'options' });
  const { assets, ...common } = options;
  const given = checkAssets(assets, ['duckdbWasm', 'duckdbWorker', 'tiktokenWasm', 'ranks'], 'the browser');
  const url = (name: 'duckdbWasm' | 'duckdbWorker' | 'tiktokenWasm' | 'ranks', type: string) =>
    given[name] === undefined ? undefined : browserAssetUrl(name, given[name], type);
  const duckdbWasmUrl = url('duckdbWasm', 'application/wasm');
  const duckdbWorkerUrl = url('duckdbWorker', 'text/javascript');
  const tiktokenWasmUrl = url('tiktokenWasm', 'application/wasm');
  const ranksUrl = url('ranks', 'application/json');
  return openLedgerWith(
    {
      openEngine: () =>
        openBrowserEngine({
          duckdbWasmUrl: duckdbWasmUrl ?? DUCKDB_WASM,
          duckdbWorkerUrl: duckdbWorkerUrl ?? DUCKDB_WORKER,
        }),
      tokenCounter: (encoding) =>
        createBrowserTokenCounter(encoding, {
          tiktokenWasmUrl: tiktokenWasmUrl ?? TIKTOKEN_WASM,
          ranksUrl: ranksUrl ?? (encoding === 'o200k_base' ? O200K_RANKS : null),
        }),
    },
    common,
  );
}
