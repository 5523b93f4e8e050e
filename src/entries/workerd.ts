/**
 * Cloudflare Workers entry (package `exports` condition `workerd`): DuckDB-WASM's
 * browser-blocking build and tiktoken's lite WASM, instantiated from modules the Worker's bundle
 * compiled (Workers may not compile wasm at run time). Hashing is WebCrypto, the core default.
 * No Node APIs, so the bundle works with or without `nodejs_compat`.
 *
 * The package ships this entry pre-bundled (`dist/workerd/index.js`, built by
 * scripts/bundle-workerd.mjs at `npm run build`): DuckDB's browser-blocking build, which
 * duckdb-wasm leaves out of its `exports`, is inlined, and the three `.wasm` imports below stay
 * imports, so wrangler's default rules compile them at upload. A Worker needs no alias, no
 * module rule and no options.
 */

import defaultDuckdbModule from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm';
import defaultTiktokenModule from 'tiktoken/lite/tiktoken_bg.wasm';
import defaultTrampolineModule from '../../wasm/trampolines/trampolines.wasm';
import { openWorkerdEngine } from '../engine/open-workerd.js';
import { LedgerError } from '../errors.js';
import type { Ledger } from '../ledger/ledger.js';
import { type OpenLedgerOptions, openLedgerWith } from '../ledger/open-ledger.js';
import { assetError, checkAssets, kindOfAsset, type LedgerAssets } from '../runtime/assets.js';
import { checkWorkerdModules } from '../runtime/workerd-assets.js';
import { createWorkerdTokenCounter } from '../tokenizer/tiktoken-workerd.js';
import type { EncodingRanks } from '../tokenizer/token-counter.js';

export * from '../index.js';
export type { CompactableStorage } from '../ledger/storage.js';
export {
  type DurableObjectKvStorage,
  type DurableObjectKvTransaction,
  type DurableObjectLedgerStorage,
  type DurableObjectStorageOptions,
  durableObjectStorage,
} from '../storage/durable-object.js';
export type { EncodingRanks } from '../tokenizer/token-counter.js';

/**
 * Options of the Workers entry's `openLedger`: the common ones; `assets` may hold `duckdbWasm`,
 * `trampolines` and `tiktokenWasm` (compiled modules) and `ranks` (only o200k_base's are
 * bundled: pass them for cl100k_base, parsed or as bytes).
 */
export interface WorkerdLedgerOptions extends OpenLedgerOptions {}

/**
 * Opens a ledger: in memory by default; `snapshot` restores; `storage` (e.g.
 * `durableObjectStorage(ctx.storage)`) makes it durable. The wasm modules default to the ones this
 * entry imports; a host with its own pipeline passes `duckdbModule`, `trampolineModule` and
 * `tiktokenModule`. A wrong module fails at once with ASSET_UNAVAILABLE naming the option.
 */
export async function openLedger(options: WorkerdLedgerOptions = {}): Promise<Ledger> {
  if (typeof options !== 'object' || options === null) throw new LedgerError('INVALID_OPTION', { field: 'options' });
  const { assets, ...common } = options;
  const given = checkAssets(assets, ['duckdbWasm', 'trampolines', 'tiktokenWasm', 'ranks'], 'Workers');
  // Only an absent asset takes the default: null or a wrong value is named by the check below.
  const or = (value: unknown, fallback: WebAssembly.Module) => (value === undefined ? fallback : value);
  const duckdbModule = or(given.duckdbWasm, defaultDuckdbModule) as WebAssembly.Module;
  const trampolineModule = or(given.trampolines, defaultTrampolineModule) as WebAssembly.Module;
  const tiktokenModule = or(given.tiktokenWasm, defaultTiktokenModule) as WebAssembly.Module;
  checkWorkerdModules({ duckdbModule, trampolineModule, tiktokenModule });
  const ranks = workerdRanks(given.ranks);
  return openLedgerWith(
    {
      openEngine: () => openWorkerdEngine({ duckdbModule, trampolineModule }),
      tokenCounter: (encoding) => createWorkerdTokenCounter(tiktokenModule, encoding, ranks),
    },
    common,
  );
}

/** The ranks handed over: parsed JSON as is, bytes parsed; ASSET_UNAVAILABLE naming `assets.ranks` otherwise. */
function workerdRanks(value: LedgerAssets['ranks']): EncodingRanks | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Uint8Array) {
    try {
      return JSON.parse(new TextDecoder().decode(value)) as EncodingRanks;
    } catch (cause) {
      throw assetError('ranks', 'the bytes are not JSON', cause);
    }
  }
  if (typeof value === 'object' && value !== null && 'bpe_ranks' in value) return value as EncodingRanks;
  throw assetError('ranks', `Workers take the ranks parsed or as bytes, got ${kindOfAsset(value)}`);
}
