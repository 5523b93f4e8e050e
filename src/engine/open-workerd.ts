import { LedgerError } from '../errors.js';
import { installWorkerdShims } from '../runtime/workerd-shims.js';
import { errorText } from './blocking-engine.js';
import type { BlockingConnection, Engine } from './engine.js';
import { WORKERD_KEPT_PLANS } from './kept-plans.js';
import { WORKERD_MEMORY_LIMIT } from './settings.js';
import { SharedInstance, sharedInstanceCache } from './shared-instance.js';

/** The part of duckdb-wasm's browser-blocking build used here. */
interface BrowserBlockingModule {
  createDuckDB(
    bundles: Record<string, { mainModule: string; mainWorker: string | null }>,
    logger: unknown,
    runtime: unknown,
  ): Promise<BrowserBlockingDB>;
  getPlatformFeatures(): Promise<{ wasmExceptions: boolean }>;
  VoidLogger: new () => unknown;
  BROWSER_RUNTIME: unknown;
}

interface BrowserBlockingDB {
  /** Emscripten's hook; the build's own version fetches the wasm by URL. */
  instantiateWasm(
    imports: WebAssembly.Imports,
    success: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
  ): WebAssembly.Exports;
  instantiate(): Promise<unknown>;
  open(config: { path: string; query?: Record<string, boolean> }): void;
  connect(): BlockingConnection;
}

export interface WorkerdEngineAssets {
  /** `duckdb-eh.wasm`, imported as a compiled module (wrangler `CompiledWasm` rule). */
  duckdbModule: WebAssembly.Module;
  /** `wasm/trampolines/trampolines.wasm`, imported the same way. */
  trampolineModule: WebAssembly.Module;
}

/**
 * Opens an in-memory DuckDB-WASM database inside Cloudflare's workerd, with the browser-blocking
 * build. Workers may not fetch or compile wasm at run time, so both modules come precompiled from
 * the bundle. The build's path `@duckdb/duckdb-wasm/dist/duckdb-browser-blocking.mjs` is not in
 * the package's `exports`, so scripts/bundle-workerd.mjs inlines it into the shipped Workers entry.
 */
export async function openWorkerdEngine(assets: WorkerdEngineAssets): Promise<Engine> {
  const instance = await instances(assets.duckdbModule, () => startInstance(assets));
  try {
    return instance.openEngine();
  } catch (cause) {
    throw new LedgerError('ENGINE_FAILED', { reason: errorText(cause) }, cause);
  }
}

/** One instance per isolate (see SharedInstance): every Durable Object of the isolate shares it. */
const instances = sharedInstanceCache<WebAssembly.Module>();

async function startInstance(assets: WorkerdEngineAssets): Promise<SharedInstance> {
  installWorkerdShims(assets.trampolineModule);
  // Imported only now, after the shims: the build's sha256 and emscripten glue choose between
  // their Node and browser paths while the module is evaluated.
  // @ts-expect-error -- the path is outside the package's `exports`; the Workers pre-bundle inlines it
  const duck = (await import('@duckdb/duckdb-wasm/dist/duckdb-browser-blocking.mjs')) as BrowserBlockingModule;
  if (!(await duck.getPlatformFeatures()).wasmExceptions) {
    throw new LedgerError('ENGINE_FAILED', {
      reason: 'this runtime lacks wasm exception handling, which duckdb-eh.wasm needs',
    });
  }
  let db: BrowserBlockingDB;
  try {
    // Only the eh bundle is given: its module is the one we instantiate, whatever the URL says.
    db = await duck.createDuckDB(
      { eh: { mainModule: 'duckdb-eh.wasm', mainWorker: null } },
      new duck.VoidLogger(),
      duck.BROWSER_RUNTIME,
    );
    // Errors thrown inside emscripten's instantiation callback (e.g. a trampoline signature the
    // shim lacks) would otherwise vanish and leave `instantiate()` pending forever.
    let failInstantiation: (cause: unknown) => void = () => {};
    const instantiationFailed = new Promise<never>((_, reject) => {
      failInstantiation = reject;
    });
    db.instantiateWasm = (imports, success) => {
      // The build's own hook sets this global, which the wasm's file-system imports call into.
      (globalThis as Record<string, unknown>).DUCKDB_RUNTIME = duck.BROWSER_RUNTIME;
      WebAssembly.instantiate(assets.duckdbModule, imports)
        .then((instance) => success(instance, assets.duckdbModule))
        .catch(failInstantiation);
      return {}; // emscripten's convention for "instantiating asynchronously"
    };
    await Promise.race([db.instantiate(), instantiationFailed]);
    db.open({ path: ':memory:', query: { castBigIntToDouble: false } });
  } catch (cause) {
    throw new LedgerError('ASSET_UNAVAILABLE', { field: 'assets.duckdbWasm', reason: errorText(cause) }, cause);
  }
  return new SharedInstance(db, [], WORKERD_MEMORY_LIMIT, WORKERD_KEPT_PLANS);
}
