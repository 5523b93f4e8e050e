import { createRequire } from 'node:module';
import { LedgerError } from '../errors.js';
import { wrapBlockingConnection } from './blocking-engine.js';
import type { BlockingConnection, Engine } from './engine.js';
import { HANG_SAFE_SETTINGS } from './settings.js';

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
  }>;
  VoidLogger: new () => unknown;
  NODE_RUNTIME: unknown;
}

export interface NodeEngineOptions {
  /** Path to DuckDB's exception-handling wasm build; defaults to the installed package's. */
  duckdbWasmPath?: string;
}

/**
 * Opens an in-memory DuckDB-WASM database with the Node blocking build. Only `:memory:` is
 * used: opening a `.duckdb` file by path in Node loses data (the header is not written at
 * checkpoint), so durability comes from snapshots and the transaction log instead.
 */
export async function openNodeEngine(options: NodeEngineOptions = {}): Promise<Engine> {
  const duck = require('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs') as NodeBlockingModule;
  const ehWasm = options.duckdbWasmPath ?? require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm');
  const fs = await import('node:fs');
  if (!fs.existsSync(ehWasm)) throw new LedgerError('ASSET_UNAVAILABLE', { field: 'duckdbWasmPath', asset: ehWasm });
  const worker = require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-eh.worker.cjs');
  let db: Awaited<ReturnType<NodeBlockingModule['createDuckDB']>>;
  try {
    db = await duck.createDuckDB({ eh: { mainModule: ehWasm, mainWorker: worker } }, new duck.VoidLogger(), duck.NODE_RUNTIME);
    await db.instantiate();
    db.open({ path: ':memory:', query: { castBigIntToDouble: false } });
  } catch (cause) {
    throw new LedgerError('ASSET_UNAVAILABLE', { field: 'duckdbWasmPath', asset: ehWasm, reason: String(cause) }, cause);
  }
  const conn = db.connect();
  for (const sql of HANG_SAFE_SETTINGS) conn.query(sql);
  return wrapBlockingConnection(conn, () => db.reset?.());
}
