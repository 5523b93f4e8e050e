import { fnv1a } from './fnv1a.js';

/** Turns texts into fixed-dimension vectors. Hosts plug in real embedding models through it. */
export interface Embedder {
  readonly dimensions: number;
  /** A name recorded with the vectors: vectors from different embedders are never compared. */
  readonly name: string;
  /**
   * True when the vectors capture spelling, not meaning (the built-in hashed trigrams): retrieval
   * then embeds no query text, since such vectors only repeat the lexical channel noisily
   * (measured: fusing them cost 2.7 points of LoCoMo recall@10 and 5.5 of MuSiQue recall@5). A
   * query `vector` or host `scores` still run the vector channel.
   */
  readonly lexical?: boolean;
  /** One vector of `dimensions` floats per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/**
 * The built-in embedder: hashed character trigrams of the lower-cased words, L2-normalised. It
 * needs no download and runs anywhere, but it is a *lexical stand-in* for real embeddings:
 * it captures spelling overlap (parse_status vs parseStatus2), not meaning.
 */
export function hashedTrigramEmbedder(dimensions = 256): Embedder {
  return {
    dimensions,
    name: `hashed-trigram-${dimensions}`,
    lexical: true,
    async embed(texts) {
      return texts.map((t) => embedOne(t, dimensions));
    },
  };
}

function embedOne(text: string, dimensions: number): Float32Array {
  const v = new Float32Array(dimensions);
  for (const word of text.toLowerCase().match(/[a-z0-9_]+/g) ?? []) {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const h = fnv1a(padded, i, i + 3);
      v[h % dimensions]! += (h & 0x80000000) === 0 ? 1 : -1;
    }
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < dimensions; i++) v[i]! *= inv;
  }
  return v;
}
