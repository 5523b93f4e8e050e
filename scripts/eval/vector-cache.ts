/**
 * An evaluation-only cache of a slow embedder's vectors for corpus texts, on disk under `.out/`
 * (never committed, never shipped): a real model takes minutes to embed every LoCoMo turn and
 * MuSiQue passage, and re-embedding identical texts on every run measures nothing new.
 *
 * What it may serve is limited on purpose: only the corpus texts it is given (`cacheable`). Query
 * texts are always embedded live, so query latencies (the ledger's `retrieve`, Orama hybrid)
 * include the model's time as a user pays it. Body-vector build times of a cached run are lower
 * than a cold run's; the report says how many vectors came from the cache.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Embedder } from '../../src/text/hashed-embedder.js';

export interface VectorCache {
  embedder: Embedder;
  stats(): { hits: number; misses: number; live: number };
  /** Writes the cache file if anything was added. */
  save(): Promise<void>;
}

const keyOf = (text: string) => createHash('sha256').update(text).digest('base64');

export async function cachedEmbedder(
  inner: Embedder,
  file: string,
  cacheable: ReadonlySet<string>,
): Promise<VectorCache> {
  const d = inner.dimensions;
  const store = new Map<string, Float32Array>();
  try {
    const bytes = await readFile(file);
    // Layout: per entry 44 bytes of base64 sha256, then d little-endian float32.
    const entry = 44 + 4 * d;
    for (let at = 0; at + entry <= bytes.length; at += entry) {
      const key = bytes.subarray(at, at + 44).toString('latin1');
      const v = new Float32Array(d);
      new Uint8Array(v.buffer).set(bytes.subarray(at + 44, at + entry));
      store.set(key, v);
    }
  } catch {
    // No cache yet.
  }
  let hits = 0;
  let misses = 0;
  let live = 0;
  let dirty = false;
  const embedder: Embedder = {
    dimensions: d,
    name: inner.name,
    ...(inner.lexical === undefined ? {} : { lexical: inner.lexical }),
    async embed(texts) {
      const out: Array<Float32Array | undefined> = texts.map((t) => {
        if (!cacheable.has(t)) return undefined;
        const v = store.get(keyOf(t));
        if (v) hits++;
        return v;
      });
      const todo = out.flatMap((v, i) => (v === undefined ? [i] : []));
      if (todo.length > 0) {
        const vectors = await inner.embed(todo.map((i) => texts[i]!));
        todo.forEach((i, j) => {
          out[i] = vectors[j]!;
          if (cacheable.has(texts[i]!)) {
            misses++;
            store.set(keyOf(texts[i]!), vectors[j]!);
            dirty = true;
          } else live++;
        });
      }
      return out as Float32Array[];
    },
  };
  return {
    embedder,
    stats: () => ({ hits, misses, live }),
    async save() {
      if (!dirty) return;
      const keys = [...store.keys()].sort();
      const entry = 44 + 4 * d;
      const bytes = Buffer.alloc(keys.length * entry);
      keys.forEach((k, i) => {
        bytes.write(k, i * entry, 'latin1');
        Buffer.from(store.get(k)!.buffer, store.get(k)!.byteOffset, 4 * d).copy(bytes, i * entry + 44);
      });
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, bytes);
      dirty = false;
    },
  };
}
