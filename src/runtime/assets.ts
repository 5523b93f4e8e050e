import { LedgerError } from '../errors.js';

/**
 * One asset as a host hands it over: a compiled `WebAssembly.Module`, a URL (or its string; a
 * file path in Node), or the file's bytes. Which forms each runtime can use is listed on
 * `LedgerAssets`; any other form fails `openLedger` with ASSET_UNAVAILABLE naming the field.
 */
export type AssetSource = WebAssembly.Module | URL | string | Uint8Array;

/** A field of `LedgerAssets`. */
export type AssetName = 'duckdbWasm' | 'duckdbWorker' | 'tiktokenWasm' | 'ranks' | 'trampolines' | 'vectorKernel';

/**
 * The files a ledger loads at `openLedger`, for hosts with their own asset pipeline; each
 * defaults to the installed package's file, so most hosts pass none. One option on every runtime;
 * what each runtime loads, and in which forms:
 *
 * | asset | Node | Workers | browser |
 * |---|---|---|---|
 * | `duckdbWasm` (`@duckdb/duckdb-wasm/dist/duckdb-eh.wasm`) | path, `file:` URL, bytes or Module | Module | URL or bytes |
 * | `duckdbWorker` (`duckdb-browser-eh.worker.js`) | – | – | URL or bytes |
 * | `tiktokenWasm` (`tiktoken/lite/tiktoken_bg.wasm`) | – | Module | URL or bytes |
 * | `ranks` (`tiktoken/encoders/<encoding>.json`) | – | bytes or the parsed JSON | URL or bytes |
 * | `trampolines` (`context-ledger/wasm/trampolines.wasm`) | – | Module | – |
 * | `vectorKernel` (`context-ledger/wasm/cosine-top.wasm`) | – (bundled bytes) | Module | – (bundled bytes) |
 *
 * Workers cannot compile WebAssembly at run time, hence modules there (the bundler's compiled
 * `.wasm` imports). Only `o200k_base`'s ranks are bundled: pass `ranks` for another encoding.
 */
export interface LedgerAssets {
  /** DuckDB-WASM's exception-handling build. */
  duckdbWasm?: AssetSource;
  /** DuckDB-WASM's browser worker script (browser only). */
  duckdbWorker?: AssetSource;
  /** tiktoken's lite wasm (Workers, browser; Node reads the installed package). */
  tiktokenWasm?: AssetSource;
  /** The ranks of the ledger's encoding: tiktoken's JSON, as bytes, a URL, or parsed (Workers). */
  ranks?: AssetSource | { pat_str: string; special_tokens: Record<string, number>; bpe_ranks: string };
  /** The Workers trampoline module (Workers only). */
  trampolines?: AssetSource;
  /** The vector channel's SIMD kernel (Workers only; elsewhere the bundled bytes are compiled). */
  vectorKernel?: AssetSource;
}

const NAMES: readonly AssetName[] = [
  'duckdbWasm',
  'duckdbWorker',
  'tiktokenWasm',
  'ranks',
  'trampolines',
  'vectorKernel',
];

/** The option's path as errors name it: `assets.duckdbWasm`. */
const assetField = (name: AssetName): string => `assets.${name}`;

/** ASSET_UNAVAILABLE naming `assets.<name>`. */
export const assetError = (name: AssetName, reason: string, cause?: unknown): LedgerError =>
  new LedgerError('ASSET_UNAVAILABLE', { field: assetField(name), reason }, cause);

/**
 * The `assets` option checked for a runtime: an object whose fields are asset names, and only
 * those the runtime loads (`used`); anything else is INVALID_OPTION naming the field.
 */
export function checkAssets(assets: unknown, used: readonly AssetName[], runtime: string): LedgerAssets {
  if (assets === undefined) return {};
  if (typeof assets !== 'object' || assets === null || Array.isArray(assets))
    throw new LedgerError('INVALID_OPTION', { field: 'assets', reason: 'an object of assets by name' });
  for (const [key, value] of Object.entries(assets)) {
    if (value === undefined) continue;
    if (!NAMES.includes(key as AssetName))
      throw new LedgerError('INVALID_OPTION', { field: `assets.${key}`, reason: `not an asset (${NAMES.join(', ')})` });
    if (!used.includes(key as AssetName))
      throw new LedgerError('INVALID_OPTION', {
        field: `assets.${key}`,
        reason: `${runtime} does not load this asset (it loads ${used.join(', ')})`,
      });
  }
  return assets as LedgerAssets;
}

/** What kind of value an asset is, for error messages. */
export function kindOfAsset(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object') return typeof value;
  return value.constructor?.name ?? 'an object';
}

/**
 * A browser asset as a URL string: a URL or its string as given, bytes as a `blob:` URL (typed
 * as `type`), so every later check fetches it the same way.
 */
export function browserAssetUrl(name: AssetName, value: unknown, type: string): string | URL {
  if (typeof value === 'string' || value instanceof URL) return value;
  if (value instanceof Uint8Array) return URL.createObjectURL(new Blob([value as Uint8Array<ArrayBuffer>], { type }));
  throw assetError(name, `the browser loads it by URL or from bytes, got ${kindOfAsset(value)}`);
}
