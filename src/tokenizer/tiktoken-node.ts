import { createRequire } from 'node:module';
import { LedgerError } from '../errors.js';
import { type TiktokenLite, tokenCounterFrom } from './tiktoken-lite.js';
import type { Encoding, EncodingRanks, TokenCounter } from './token-counter.js';

const require = createRequire(import.meta.url);
const cache = new Map<Encoding, Promise<TokenCounter>>();

/** Node: tiktoken's lite WASM and the encoding's ranks read from the installed package. Building
 * an encoder costs ~0.2 s, so counters are cached per encoding for the process. */
export function createNodeTokenCounter(encoding: Encoding): Promise<TokenCounter> {
  let counter = cache.get(encoding);
  if (!counter) {
    counter = build(encoding);
    cache.set(encoding, counter);
    counter.catch(() => cache.delete(encoding));
  }
  return counter;
}

async function build(encoding: Encoding): Promise<TokenCounter> {
  const { lite, ranks } = await loadNodeTiktoken(encoding);
  return tokenCounterFrom(lite, encoding, ranks);
}

/** Loads tiktoken's lite WASM and an encoding's ranks from the installed package. @internal Exported for its unit tests. */
export async function loadNodeTiktoken(encoding: Encoding): Promise<{ lite: TiktokenLite; ranks: EncodingRanks }> {
  const fs = await import('node:fs/promises');
  const init = require('tiktoken/lite/init') as TiktokenLite & {
    init(cb: (imports: WebAssembly.Imports) => Promise<WebAssembly.WebAssemblyInstantiatedSource>): Promise<unknown>;
  };
  const wasmPath = require.resolve('tiktoken/lite/tiktoken_bg.wasm');
  const ranksPath = require.resolve(`tiktoken/encoders/${encoding}.json`);
  try {
    const bytes = await fs.readFile(wasmPath);
    await init.init((imports) => WebAssembly.instantiate(bytes, imports));
    const ranks = JSON.parse(await fs.readFile(ranksPath, 'utf8')) as EncodingRanks;
    return { lite: init, ranks };
  } catch (cause) {
    throw new LedgerError(
      'ASSET_UNAVAILABLE',
      { field: 'encoding', asset: `tiktoken ${encoding}`, reason: String(cause) },
      cause,
    );
  }
}
