import { LedgerError } from '../errors.js';

/** The browser entry's asset options, each naming one URL (see `BrowserAssetUrls`). */
export type AssetField = 'assets.duckdbWasm' | 'assets.duckdbWorker' | 'assets.tiktokenWasm' | 'assets.ranks';

/**
 * Backstops, not the usual way a bad asset fails: missing or wrong assets are caught at once by
 * the fetch checks and the worker shim (see open-browser.ts). These bound what is left — a
 * server that never answers, a worker that falls silent — while leaving room to download
 * DuckDB's 34 MB module over a slow link and compile it on a busy device.
 */
const FETCH_TIMEOUT_MS = 30_000;
export const START_TIMEOUT_MS = 120_000;

export const assetUnavailable = (field: AssetField, asset: string, reason: string, cause?: unknown): LedgerError =>
  new LedgerError('ASSET_UNAVAILABLE', { field, asset, reason }, cause);

/** An absolute URL: the DuckDB worker resolves URLs against its own (possibly blob:) location. */
export function absoluteUrl(url: string | URL, field: AssetField): string {
  try {
    return new URL(url, globalThis.location?.href).href;
  } catch (cause) {
    throw assetUnavailable(field, String(url), 'not a URL', cause);
  }
}

/**
 * Fetches an asset: ASSET_UNAVAILABLE naming the option when the request fails, times out or
 * answers an error status — or answers HTML, which is what dev servers and SPA hosts send with
 * status 200 for a path they do not have.
 */
async function fetchAsset(url: string, field: AssetField): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (cause) {
    throw assetUnavailable(field, url, `fetch failed: ${String(cause)}`, cause);
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || type.includes('text/html')) {
    await response.body?.cancel();
    throw assetUnavailable(field, url, response.ok ? `served as ${type}` : `HTTP ${response.status}`);
  }
  return response;
}

/** Fetches an asset's whole body within the fetch bound. */
export async function fetchBytes(url: string, field: AssetField): Promise<ArrayBuffer> {
  const response = await fetchAsset(url, field);
  try {
    return await response.arrayBuffer();
  } catch (cause) {
    throw assetUnavailable(field, url, `reading failed: ${String(cause)}`, cause);
  }
}

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

/** Checks that `url` serves a WebAssembly module, reading only its first bytes. */
export async function checkWasm(url: string, field: AssetField): Promise<void> {
  const response = await fetchAsset(url, field);
  const reader = response.body?.getReader();
  const head: number[] = [];
  try {
    while (reader && head.length < WASM_MAGIC.length) {
      const { done, value } = await reader.read();
      if (done) break;
      head.push(...value.subarray(0, WASM_MAGIC.length - head.length));
    }
  } catch (cause) {
    throw assetUnavailable(field, url, `reading failed: ${String(cause)}`, cause);
  } finally {
    await reader?.cancel().catch(() => undefined);
  }
  if (!WASM_MAGIC.every((b, i) => head[i] === b)) throw assetUnavailable(field, url, 'not a WebAssembly module');
}

/** Checks that `url` serves a script, as browsers insist for workers (by MIME type). */
export async function checkScript(url: string, field: AssetField): Promise<void> {
  const response = await fetchAsset(url, field);
  await response.body?.cancel();
  const type = response.headers.get('content-type') ?? '';
  if (!/javascript|ecmascript/.test(type)) throw assetUnavailable(field, url, `served as ${type || 'no type'}`);
}

/** Settles with `promise`, or rejects with `onTimeout()` once `ms` have passed. */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
