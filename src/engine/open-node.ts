import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { LedgerError } from '../errors.js';
import { errorText } from './blocking-engine.js';
import type { BlockingConnection, Engine } from './engine.js';
import { INGEST_SETTINGS, NODE_MEMORY_LIMIT } from './settings.js';
import { SharedInstance, sharedInstanceCache } from './shared-instance.js';

const require = createRequire(import.meta.url);

interface NodeBlockingModule {
  createDuckDB(
    bundles: Record<string, { mainModule: string; mainWorker: string }>,
    logger: unknown,
    runtime: unknown,
  ): Promise<{
    instantiate(): Promise<unknown>;
    open(config: { path: string; query?: Record<string, boolean> }): void;
    connect(): BlockingConnection;
    reset?(): void;
    /** Emscripten's hook; the build's own version reads and compiles the wasm file every time. */
    instantiateWasm(
      imports: WebAssembly.Imports,
      success: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
    ): unknown;
  }>;
  VoidLogger: new () => unknown;
  NODE_RUNTIME: object;
}

/**
 * duckdb-eh.wasm (34 MB) compiled once per process and path: reading and compiling it took
 * ~0.3 s of every open (each ledger, each restore, each test pool slot); instances are cheap.
 */
const compiled = new Map<string, Promise<WebAssembly.Module>>();
function compiledModule(path: string, readFile: (path: string) => Promise<Uint8Array>): Promise<WebAssembly.Module> {
  let module = compiled.get(path);
  if (!module) {
    module = readFile(path).then((bytes) => WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>));
    compiled.set(path, module);
    module.catch(() => compiled.delete(path));
  }
  return module;
}

export interface NodeEngineOptions {
  /**
   * DuckDB's exception-handling wasm build: a path, a `file:` URL, its bytes or a compiled module;
   * defaults to the installed package's file.
   */
  duckdbWasm?: string | URL | Uint8Array | WebAssembly.Module;
}

const instances = sharedInstanceCache<string | object>();

/**
 * Opens an in-memory DuckDB-WASM database with the Node blocking build: a database of its own,
 * attached to the process's one DuckDB instance (see SharedInstance). Only `:memory:` is used:
 * opening a `.duckdb` file by path in Node loses data (the header is not written at checkpoint),
 * so durability comes from snapshots and the transaction log instead.
 */
export async function openNodeEngine(options: NodeEngineOptions = {}): Promise<Engine> {
  const source = wasmSource(options.duckdbWasm);
  // One instance per path, or per module or byte array handed over (by identity).
  const instance = await instances(source.key, () => startInstance(source));
  try {
    return instance.openEngine();
  } catch (cause) {
    throw new LedgerError('ENGINE_FAILED', { reason: errorText(cause) }, cause);
  }
}

interface WasmSource {
  key: string | object;
  /** The file to read, or null when the module or its bytes were handed over. */
  path: string | null;
  module: () => Promise<WebAssembly.Module>;
}

/** Where DuckDB's wasm comes from; ASSET_UNAVAILABLE naming `assets.duckdbWasm` for any other value. */
function wasmSource(value: NodeEngineOptions['duckdbWasm']): WasmSource {
  if (value instanceof WebAssembly.Module) return { key: value, path: null, module: async () => value };
  if (value instanceof Uint8Array)
    return { key: value, path: null, module: () => WebAssembly.compile(value as Uint8Array<ArrayBuffer>) };
  let path: string;
  if (value === undefined) path = require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm');
  else if (typeof value === 'string') path = value;
  else if (value instanceof URL && value.protocol === 'file:') path = fileURLToPath(value);
  else
    throw new LedgerError('ASSET_UNAVAILABLE', {
      field: 'assets.duckdbWasm',
      reason: 'Node loads it from a path, a file: URL, bytes or a WebAssembly.Module',
    });
  return {
    key: path,
    path,
    module: async () => compiledModule(path, (p) => import('node:fs').then((fs) => fs.promises.readFile(p))),
  };
}

async function startInstance(source: WasmSource): Promise<SharedInstance> {
  const duck = require('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs') as NodeBlockingModule;
  const fs = await import('node:fs');
  const ehWasm = source.path ?? '(handed over)';
  if (source.path !== null && !fs.existsSync(source.path))
    throw new LedgerError('ASSET_UNAVAILABLE', { field: 'assets.duckdbWasm', asset: ehWasm });
  // The bundle's path is only read by the build's own instantiate hook, which is replaced below.
  const mainModule = source.path ?? require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm');
  const worker = require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-eh.worker.cjs');
  let db: Awaited<ReturnType<NodeBlockingModule['createDuckDB']>>;
  try {
    db = await duck.createDuckDB({ eh: { mainModule, mainWorker: worker } }, new duck.VoidLogger(), duck.NODE_RUNTIME);
    const module = await source.module();
    // As the build's own hook does, minus the read and compile; a failure inside emscripten's
    // callback would otherwise leave `instantiate()` pending forever.
    let failInstantiation: (cause: unknown) => void = () => {};
    const instantiationFailed = new Promise<never>((_, reject) => {
      failInstantiation = reject;
    });
    const runtime = duck.NODE_RUNTIME as Record<string, unknown>;
    db.instantiateWasm = (imports, success) => {
      const table: Record<string, unknown> = {};
      for (const name of Object.getOwnPropertyNames(runtime)) {
        if (name !== 'constructor') table[name] = Object.getOwnPropertyDescriptor(runtime, name)!.value;
      }
      (globalThis as Record<string, unknown>).DUCKDB_RUNTIME = table;
      pooledRandom(imports);
      WebAssembly.instantiate(module, imports)
        .then((instance) => success(instance, module))
        .catch(failInstantiation);
      return [];
    };
    await Promise.race([db.instantiate(), instantiationFailed]);
    db.open({ path: ':memory:', query: { castBigIntToDouble: false } });
    return new SharedInstance(db, INGEST_SETTINGS, NODE_MEMORY_LIMIT);
  } catch (cause) {
    throw new LedgerError(
      'ASSET_UNAVAILABLE',
      { field: 'assets.duckdbWasm', asset: ehWasm, reason: String(cause) },
      cause,
    );
  }
}

/**
 * DuckDB draws 32 four-byte random words per committed transaction (measured: 32 `random_get`
 * calls on every INSERT, none on a read), and emscripten answers each with its own
 * `crypto.getRandomValues` call — about a tenth of a millisecond of a step commit under load.
 * The same CSPRNG bytes are handed out from a 4 KiB pool instead. Emscripten's loader needs the
 * import's `sig`, so the wrapper carries it over.
 */
function pooledRandom(imports: WebAssembly.Imports): void {
  const memory = (imports as { env?: { memory?: unknown } }).env?.memory;
  if (!(memory instanceof WebAssembly.Memory) || typeof globalThis.crypto?.getRandomValues !== 'function') return;
  // `env` and `wasi_snapshot_preview1` are the same object in this build: wrap each function once.
  for (const ns of new Set(Object.values(imports))) {
    const original = (ns as Record<string, unknown>).random_get as
      | (((ptr: number, len: number) => number) & { sig?: string })
      | undefined;
    if (typeof original !== 'function') continue;
    const pool = new Uint8Array(4096);
    let left = 0;
    const pooled = (ptr: number, len: number): number => {
      if (len > pool.length) return original(ptr, len);
      if (left < len) {
        globalThis.crypto.getRandomValues(pool);
        left = pool.length;
      }
      new Uint8Array(memory.buffer, ptr >>> 0, len).set(pool.subarray(left - len, left));
      left -= len;
      return 0;
    };
    pooled.sig = original.sig;
    (ns as Record<string, unknown>).random_get = pooled;
  }
}
