import o200kBase from 'tiktoken/encoders/o200k_base.json' with { type: 'json' };
import { init, Tiktoken } from 'tiktoken/lite/init';
import { LedgerError } from '../errors.js';
import { tokenCounterFrom } from './tiktoken-lite.js';
import type { Encoding, EncodingRanks, TokenCounter } from './token-counter.js';

/**
 * Only o200k_base is bundled (2.3 MB of ranks); a Worker that needs another encoding imports its
 * JSON itself and passes it as `ranks`, so no bundle carries encodings it never uses.
 */
const BUNDLED_RANKS: Partial<Record<Encoding, EncodingRanks>> = { o200k_base: o200kBase };

/** Building an encoder costs ~0.3 s in workerd, so one per encoding lives as long as the isolate. */
const cache = new Map<Encoding, Promise<TokenCounter>>();

/**
 * Workers: tiktoken's lite WASM from a module the bundle compiled (Workers cannot compile wasm
 * from bytes at run time). tiktoken initialises its wasm once per isolate; later calls reuse it.
 */
export function createWorkerdTokenCounter(
  wasmModule: WebAssembly.Module,
  encoding: Encoding,
  ranks: EncodingRanks | undefined = BUNDLED_RANKS[encoding],
): Promise<TokenCounter> {
  let counter = cache.get(encoding);
  if (!counter) {
    counter = build(wasmModule, encoding, ranks);
    cache.set(encoding, counter);
    counter.catch(() => cache.delete(encoding));
  }
  return counter;
}

async function build(wasmModule: WebAssembly.Module, encoding: Encoding, ranks: EncodingRanks | undefined) {
  if (!ranks) {
    throw new LedgerError('ASSET_UNAVAILABLE', {
      field: 'encoding',
      asset: `tiktoken ${encoding}`,
      reason: `not bundled; import tiktoken/encoders/${encoding}.json and pass it as ranks`,
    });
  }
  try {
    await init((imports) => WebAssembly.instantiate(wasmModule, imports));
    return tokenCounterFrom({ Tiktoken }, encoding, ranks);
  } catch (cause) {
    throw new LedgerError(
      'ASSET_UNAVAILABLE',
      { field: 'encoding', asset: `tiktoken ${encoding}`, reason: String(cause) },
      cause,
    );
  }
}
