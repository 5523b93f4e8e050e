import { init, Tiktoken } from 'tiktoken/lite/init';
import { absoluteUrl, assetUnavailable, fetchBytes } from '../runtime/browser-assets.js';
import { tokenCounterFrom } from './tiktoken-lite.js';
import type { Encoding, EncodingRanks, TokenCounter } from './token-counter.js';

export interface TiktokenAssets {
  /** `tiktoken/lite/tiktoken_bg.wasm`. */
  tiktokenWasmUrl: string | URL;
  /** The ranks JSON of the ledger's encoding (`tiktoken/encoders/<encoding>.json`); null when none is known. */
  ranksUrl: string | URL | null;
}

/**
 * Each encoding's `<|endoftext|>` id: ranks of another encoding would load fine and then count
 * every body wrong, so a ranks file must carry its encoding's id.
 */
const END_OF_TEXT: Record<Encoding, number> = { o200k_base: 199_999, cl100k_base: 100_257 };

/** Building an encoder costs ~0.2 s, so one per encoding and URLs lives as long as the page. */
const cache = new Map<string, Promise<TokenCounter>>();

/**
 * The page's counter: tiktoken's lite WASM compiled from its URL and the encoding's ranks fetched
 * from theirs. tiktoken initialises its wasm once per page; later calls reuse it.
 */
export function createBrowserTokenCounter(encoding: Encoding, assets: TiktokenAssets): Promise<TokenCounter> {
  if (assets.ranksUrl === null) {
    return Promise.reject(
      assetUnavailable(
        'assets.ranks',
        `tiktoken ${encoding}`,
        `no ranks for ${encoding} by default; pass assets.ranks`,
      ),
    );
  }
  const wasmUrl = absoluteUrl(assets.tiktokenWasmUrl, 'assets.tiktokenWasm');
  const ranksUrl = absoluteUrl(assets.ranksUrl, 'assets.ranks');
  const key = `${encoding} ${wasmUrl} ${ranksUrl}`;
  let counter = cache.get(key);
  if (!counter) {
    counter = build(encoding, wasmUrl, ranksUrl);
    cache.set(key, counter);
    counter.catch(() => cache.delete(key));
  }
  return counter;
}

async function build(encoding: Encoding, wasmUrl: string, ranksUrl: string): Promise<TokenCounter> {
  const [module, ranks] = await Promise.all([compileTiktoken(wasmUrl), loadRanks(encoding, ranksUrl)]);
  try {
    await initOnce(module);
  } catch (cause) {
    throw assetUnavailable('assets.tiktokenWasm', wasmUrl, `not tiktoken's lite module: ${String(cause)}`, cause);
  }
  return tokenCounterFrom({ Tiktoken }, encoding, ranks);
}

let initialised: Promise<void> | null = null;

/**
 * tiktoken binds one wasm instance per page. Two first builds at once (two encodings opened
 * together) would both instantiate, and the second would swap the instance under encoders
 * built on the first, so the first successful start is shared.
 */
function initOnce(module: WebAssembly.Module): Promise<void> {
  if (!initialised) {
    const starting = init((imports) => WebAssembly.instantiate(module, imports)).then(() => undefined);
    initialised = starting;
    starting.catch(() => {
      if (initialised === starting) initialised = null;
    });
  }
  return initialised;
}

async function compileTiktoken(url: string): Promise<WebAssembly.Module> {
  const bytes = await fetchBytes(url, 'assets.tiktokenWasm');
  try {
    return await WebAssembly.compile(bytes);
  } catch (cause) {
    throw assetUnavailable('assets.tiktokenWasm', url, `not a WebAssembly module: ${String(cause)}`, cause);
  }
}

async function loadRanks(encoding: Encoding, url: string): Promise<EncodingRanks> {
  const bytes = await fetchBytes(url, 'assets.ranks');
  let ranks: Partial<EncodingRanks>;
  try {
    ranks = JSON.parse(new TextDecoder().decode(bytes)) as Partial<EncodingRanks>;
  } catch (cause) {
    throw assetUnavailable('assets.ranks', url, 'not JSON', cause);
  }
  if (
    typeof ranks?.bpe_ranks !== 'string' ||
    typeof ranks.pat_str !== 'string' ||
    ranks.special_tokens?.['<|endoftext|>'] !== END_OF_TEXT[encoding]
  ) {
    throw assetUnavailable('assets.ranks', url, `not the ranks of ${encoding}`);
  }
  return ranks as EncodingRanks;
}
