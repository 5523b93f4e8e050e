/** Token encodings the ledger can count bodies in. One ledger uses one, fixed at creation. */
export const ENCODINGS = ['o200k_base', 'cl100k_base'] as const;
/** One of `ENCODINGS`: the tiktoken encoding bodies are counted in. */
export type Encoding = (typeof ENCODINGS)[number];
export const DEFAULT_ENCODING: Encoding = 'o200k_base';

export const isEncoding = (e: unknown): e is Encoding =>
  typeof e === 'string' && (ENCODINGS as readonly string[]).includes(e);

/** Counts tokens of a text in one encoding. Implementations wrap tiktoken's WASM per runtime. */
export interface TokenCounter {
  readonly encoding: Encoding;
  count(text: string): number;
}

/** The JSON shape of `tiktoken/encoders/<encoding>.json`. */
export interface EncodingRanks {
  bpe_ranks: string;
  special_tokens: Record<string, number>;
  pat_str: string;
}
