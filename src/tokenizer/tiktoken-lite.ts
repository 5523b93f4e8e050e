import { withPieceCache } from './piece-cache.js';
import type { Encoding, EncodingRanks, TokenCounter } from './token-counter.js';

/** The subset of tiktoken's lite bindings the counter needs (same across its CJS/ESM builds). */
export interface TiktokenLite {
  Tiktoken: new (
    ranks: string,
    special: Record<string, number>,
    pattern: string,
  ) => {
    encode_ordinary(text: string): Uint32Array;
  };
}

/**
 * The exact counter over an initialised tiktoken lite binding. `encode_ordinary` treats
 * special-token text such as `<|endoftext|>` as plain text: transcripts contain it, and the
 * default `encode` would throw on it.
 * @internal Exported for its unit tests.
 */
export function directTokenCounter(lite: TiktokenLite, encoding: Encoding, ranks: EncodingRanks): TokenCounter {
  const encoder = new lite.Tiktoken(ranks.bpe_ranks, ranks.special_tokens, ranks.pat_str);
  return { encoding, count: (text) => (text.length === 0 ? 0 : encoder.encode_ordinary(text).length) };
}

/** The counter the ledger uses: the exact counter behind a per-piece cache, with over-long
 * pieces merged in JS over the same ranks (heap-bpe.ts). */
export function tokenCounterFrom(lite: TiktokenLite, encoding: Encoding, ranks: EncodingRanks): TokenCounter {
  return withPieceCache(directTokenCounter(lite, encoding, ranks), ranks.pat_str, { bpeRanks: ranks.bpe_ranks });
}
