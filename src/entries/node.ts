/**
 * Node entry (package `exports` condition `node`): DuckDB-WASM's Node blocking build and
 * tiktoken's lite WASM, both read from the installed packages.
 */
import * as nodeCrypto from 'node:crypto';
import { type NodeEngineOptions, openNodeEngine } from '../engine/open-node.js';
import { LedgerError } from '../errors.js';
import type { Ledger } from '../ledger/ledger.js';
import { type OpenLedgerOptions, openLedgerWith } from '../ledger/open-ledger.js';
import { checkAssets } from '../runtime/assets.js';
import { createNodeTokenCounter } from '../tokenizer/tiktoken-node.js';

type NodeWasm = NonNullable<NodeEngineOptions['duckdbWasm']>;

export * from '../index.js';
export type { CompactableStorage } from '../ledger/storage.js';
export {
  type NodeDirectoryOptions,
  type NodeDirectoryStorage,
  nodeDirectoryStorage,
} from '../storage/node-directory.js';

/** Options of the Node entry's `openLedger`: the common ones; `assets` may hold `duckdbWasm`. */
export interface NodeLedgerOptions extends OpenLedgerOptions {}

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
  const { assets, ...common } = options;
  const { duckdbWasm } = checkAssets(assets, ['duckdbWasm'], 'Node');
  return openLedgerWith(
    {
      openEngine: () => openNodeEngine(duckdbWasm === undefined ? {} : { duckdbWasm: duckdbWasm as NodeWasm }),
      tokenCounter: createNodeTokenCounter,
      hashTexts: nodeHashTexts,
    },
    common,
  );
}
