/**
 * Cloudflare Workers entry (package `exports` condition `workerd`): DuckDB-WASM's
 * browser-blocking build and tiktoken's lite WASM, instantiated from modules the Worker's bundle
 * compiled (Workers may not compile wasm at run time). Hashing is WebCrypto, the core default.
 * No Node APIs, so the bundle works with or without `nodejs_compat`.
 *
 * The package ships this entry pre-bundled (`dist/workerd/index.js`, built by
 * scripts/bundle-workerd.mjs at `npm run build`): DuckDB's browser-blocking build, which
 * duckdb-wasm leaves out of its `exports`, is inlined, and the four `.wasm` imports below stay
 * imports, so wrangler's default rules compile them at upload. A Worker needs no alias, no
 * module rule and no options.
 */

import defaultDuckdbModule from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm';
import defaultTiktokenModule from 'tiktoken/lite/tiktoken_bg.wasm';
import defaultTrampolineModule from '../../wasm/trampolines/trampolines.wasm';
import defaultVectorKernelModule from '../../wasm/vector-kernel/cosine-top.wasm';
import { openWorkerdEngine } from '../engine/open-workerd.js';
import { LedgerError } from '../errors.js';
import type { Ledger } from '../ledger/ledger.js';
import { type OpenLedgerOptions, openLedgerWith } from '../ledger/open-ledger.js';
import { checkWorkerdModules, type WorkerdWasmModules } from '../runtime/workerd-assets.js';
import { createWorkerdTokenCounter } from '../tokenizer/tiktoken-workerd.js';
import type { EncodingRanks } from '../tokenizer/token-counter.js';

export * from '../index.js';
export type { WorkerdWasmModules } from '../runtime/workerd-assets.js';
export { type CompactableStorage, compactLedger } from '../storage/compact-ledger.js';
export {
  type DurableObjectKvStorage,
  type DurableObjectKvTransaction,
  type DurableObjectLedgerStorage,
  type DurableObjectStorageOptions,
  durableObjectStorage,
} from '../storage/durable-object.js';
export type { EncodingRanks } from '../tokenizer/token-counter.js';

export interface WorkerdLedgerOptions extends OpenLedgerOptions, Partial<WorkerdWasmModules> {
  /**
   * Ranks of the ledger's encoding (`tiktoken/encoders/<encoding>.json`). Only o200k_base is
   * bundled; pass these for cl100k_base, and only for the encoding the ledger uses.
   */
  ranks?: EncodingRanks;
}

/**
 * Opens a ledger: in memory by default; `snapshot` restores; `storage` (e.g.
 * `durableObjectStorage(ctx.storage)`) makes it durable. The wasm modules default to the ones this
 * entry imports; a host with its own pipeline passes `duckdbModule`, `trampolineModule`,
 * `tiktokenModule` and `vectorKernelModule`. A wrong module fails at once with ASSET_UNAVAILABLE naming the option.
 */
export async function openLedger(options: WorkerdLedgerOptions = {}): Promise<Ledger> {
  if (typeof options !== 'object' || options === null) throw new LedgerError('INVALID_OPTION', { field: 'options' });
  const {
    duckdbModule = defaultDuckdbModule,
    trampolineModule = defaultTrampolineModule,
    tiktokenModule = defaultTiktokenModule,
    vectorKernelModule = defaultVectorKernelModule,
    ranks,
    ...common
  } = options;
  checkWorkerdModules({ duckdbModule, trampolineModule, tiktokenModule, vectorKernelModule });
  return openLedgerWith(
    {
      openEngine: () => openWorkerdEngine({ duckdbModule, trampolineModule }),
      tokenCounter: (encoding) => createWorkerdTokenCounter(tiktokenModule, encoding, ranks),
      vectorKernel: vectorKernelModule,
    },
    common,
  );
}
