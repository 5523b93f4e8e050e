import type { Engine } from '../engine/engine.js';
import { type Embedder, hashedTrigramEmbedder } from '../text/hashed-embedder.js';
import type { TokenCounter } from '../tokenizer/token-counter.js';
import { type HashTexts, webCryptoHashTexts } from './content-hash.js';
import type { StorageAdapter } from './storage.js';

/** What a ledger is built from; everything but the engine and the counter has a default. */
export interface LedgerSetup {
  engine: Engine;
  counter: TokenCounter;
  /** Durable log; `null` (the default) keeps the ledger in memory only. */
  storage?: StorageAdapter | null;
  /** Body hashing; WebCrypto SHA-256 unless the runtime has something faster. */
  hashTexts?: HashTexts;
  /** The vector channel's embedder; the built-in hashed-trigram stand-in by default. */
  embedder?: Embedder;
  /**
   * The vector channel's SIMD kernel (wasm/vector-kernel/cosine-top.wasm, compiled); by default
   * compiled from the bytes bundled with the library where the runtime allows; `null` scores in
   * JS. Both give the same scores bit for bit.
   */
  vectorKernel?: WebAssembly.Module | null;
  /** How body vectors are stored and scored; exact `float32` by default. */
  vectorPrecision?: 'float32' | 'int8';
}

/** The setup with every default filled in, resolved once: the modules never re-check options. */
export interface LedgerConfig {
  readonly engine: Engine;
  readonly counter: TokenCounter;
  readonly storage: StorageAdapter | null;
  readonly hashTexts: HashTexts;
  readonly embedder: Embedder;
  /** Undefined: the bundled kernel, compiled where the runtime allows (the facade resolves it). */
  readonly vectorKernel: WebAssembly.Module | null | undefined;
  readonly vectorPrecision: 'float32' | 'int8';
}

export function expandLedgerConfig(setup: LedgerSetup): LedgerConfig {
  return Object.freeze({
    engine: setup.engine,
    counter: setup.counter,
    storage: setup.storage ?? null,
    hashTexts: setup.hashTexts ?? webCryptoHashTexts,
    embedder: setup.embedder ?? hashedTrigramEmbedder(),
    vectorKernel: setup.vectorKernel,
    vectorPrecision: setup.vectorPrecision ?? 'float32',
  });
}
