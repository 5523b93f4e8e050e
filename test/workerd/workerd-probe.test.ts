import { get_encoding } from 'tiktoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBE_TEXT } from '../../e2e/workerd/probe-input.js';
import { getJson, type ProbeWorker, startProbe } from '../../e2e/workerd/start-probe.js';

/**
 * Runs e2e/workerd/worker.ts in a local workerd on loopback, with nodejs_compat on and off, and
 * checks what DuckDB-WASM and tiktoken computed inside it.
 */

// Bundling takes ~5 s and workerd ~10 s to compile the 34 MB duckdb-eh.wasm when it loads the
// script; the bounds leave room for a loaded 2-core CI machine without ever waiting unbounded.
const START_TIMEOUT_MS = 90_000;
const COLD_REQUEST_TIMEOUT_MS = 30_000;
const WARM_REQUEST_TIMEOUT_MS = 10_000;

interface Probe {
  error?: string;
  runtime: { nodeCompat: boolean; processType: string | null };
  coldStart: boolean;
  similarity: { a: number; sim: number }[];
  reachable: { ids: string; depth: number }[];
  ingested: { id: string; n: number; w: number }[];
  tokens: { encoding: string; count: number };
}

async function getProbe(base: URL, timeoutMs: number): Promise<Probe> {
  const { status, body } = await getJson<Probe>(new URL('/probe', base), timeoutMs);
  // The Worker reports its failure (e.g. a missing trampoline signature) as `error`.
  expect(body.error, 'the Worker reported an error').toBeUndefined();
  expect(status).toBe(200);
  return body;
}

/** Token count from tiktoken's full (non-lite) Node build, independent of our counter code. */
function nodeTokenCount(text: string): number {
  const encoder = get_encoding('o200k_base');
  try {
    return encoder.encode_ordinary(text).length;
  } finally {
    encoder.free();
  }
}

const VARIANTS = [
  { label: 'nodejs_compat on', env: '', nodeCompat: true, processType: 'renderer' },
  { label: 'nodejs_compat off', env: 'no_nodejs_compat', nodeCompat: false, processType: null },
] as const;

describe.each(VARIANTS)('DuckDB-WASM and tiktoken in workerd ($label)', (variant) => {
  let worker: ProbeWorker | undefined;

  beforeAll(async () => {
    worker = await startProbe(variant.env, START_TIMEOUT_MS);
  }, START_TIMEOUT_MS * 2);

  afterAll(async () => {
    await worker?.dispose();
  }, START_TIMEOUT_MS);

  it(
    'answers /probe with the query results and the token count Node computes',
    async () => {
      if (!worker) throw new Error('the Worker did not start');
      const cold = await getProbe(worker.url, COLD_REQUEST_TIMEOUT_MS);
      expect(cold.runtime).toEqual({ nodeCompat: variant.nodeCompat, processType: variant.processType });
      expect(cold.coldStart).toBe(true);

      expect(cold.similarity.map((r) => r.a)).toEqual([1, 2, 3]);
      expect(cold.similarity[0]?.sim).toBeCloseTo(1, 6);
      expect(cold.similarity[1]?.sim).toBeCloseTo(Math.SQRT1_2, 6);
      expect(cold.similarity[2]?.sim).toBeCloseTo(0, 6);

      expect(cold.reachable).toEqual([{ ids: 'a,b,c,d', depth: 3 }]);
      expect(cold.ingested).toEqual([
        { id: 'p', n: 1, w: 0.25 },
        { id: 'q', n: 2, w: 0.5 },
        { id: 'ü🚀', n: 3, w: 0.75 },
      ]);

      const expectedTokens = nodeTokenCount(PROBE_TEXT);
      expect(expectedTokens).toBeGreaterThan(10);
      expect(cold.tokens).toEqual({ encoding: 'o200k_base', count: expectedTokens });

      // The second request reuses the isolate's engine and encoder.
      const warm = await getProbe(worker.url, WARM_REQUEST_TIMEOUT_MS);
      expect(warm.coldStart).toBe(false);
      expect(warm.similarity).toEqual(cold.similarity);
      expect(warm.reachable).toEqual(cold.reachable);
      expect(warm.ingested).toEqual(cold.ingested);
      expect(warm.tokens).toEqual(cold.tokens);
    },
    COLD_REQUEST_TIMEOUT_MS + WARM_REQUEST_TIMEOUT_MS,
  );
});
