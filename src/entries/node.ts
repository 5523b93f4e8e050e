/**
 * Node entry (package `exports` condition `node`): DuckDB-WASM's Node blocking build and
 * tiktoken's lite WASM, both read from the installed packages.
 */
import * as nodeCrypto from 'node:crypto';
import { openNodeEngine } from '../engine/open-node.js';
import { LedgerError } from '../errors.js';
import type { Ledger } from '../ledger/ledger.js';
import { type OpenLedgerOptions, openLedgerWith } from '../ledger/open-ledger.js';
import { createNodeTokenCounter } from '../tokenizer/tiktoken-node.js';

export * from '../index.js';
export type { CompactableStorage } from '../ledger/storage.js';
export {
  type NodeDirectoryOptions,
  type NodeDirectoryStorage,
  nodeDirectoryStorage,
} from '../storage/node-directory.js';

export interface NodeLedgerOptions extends OpenLedgerOptions {
  /** Path of DuckDB's `duckdb-eh.wasm`; defaults to the installed `@duckdb/duckdb-wasm`'s. */
  duckdbWasmPath?: string;
}

/** One-shot `crypto.hash` (Node >= 20.12) is ~2× faster than a Hash object per body and leaves
 * no native object for the garbage collector to finalise (10k of them per bulk commit). */
const oneShot = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
const nodeHashTexts = async (texts: readonly string[]): Promise<string[]> =>
  oneShot
    ? texts.map((t) => oneShot('sha256', t, 'hex'))
    : texts.map((t) => nodeCrypto.createHash('sha256').update(t, 'utf8').digest('hex'));

/** Opens a ledger: in memory by default; `snapshot` restores; `storage` makes it durable. */
export async function openLedger(options: NodeLedgerOptions = {}): Promise<Ledger> {
  if (typeof options !== 'object' || options === null) throw new LedgerError('INVALID_OPTION', { field: 'options' });
  const { duckdbWasmPath, ...common } = options;
  return openLedgerWith(
    {
      openEngine: () => openNodeEngine(duckdbWasmPath === undefined ? {} : { duckdbWasmPath }),
      tokenCounter: createNodeTokenCounter,
      hashTexts: nodeHashTexts,
    },
    common,
  );
}
