import { LedgerError } from '../errors.js';
import type { BlockingConnection, Engine, EngineStats } from './engine.js';
import type { KeptPlans } from './kept-plans.js';

/**
 * Adapts a duckdb-wasm blocking connection (Node build, or the browser-blocking build Workers
 * use) to the async Engine interface, mapping engine exceptions to ENGINE_FAILED.
 */
export function wrapBlockingConnection(
  conn: BlockingConnection,
  onClose: () => void = () => {},
  wasmBytes: () => number | null = () => null,
  plans?: KeptPlans,
  /** Runs after each query (the shared instance reclaims memory the query left behind). */
  afterQuery: () => void = () => {},
): Engine {
  let closed = false;
  const runForEffect = effectOnly(conn);
  const guard = <T>(fn: () => T, sql: string): T => {
    if (closed) throw new LedgerError('LEDGER_CLOSED');
    try {
      return fn();
    } catch (cause) {
      throw new LedgerError('ENGINE_FAILED', { reason: errorText(cause), sql: sql.slice(0, 400) }, cause);
    }
  };
  const engine: Engine = {
    ...(plans === undefined ? {} : { plans }),
    async query(sql) {
      const table = guard(() => conn.query(sql), sql);
      guard(afterQuery, 'after query');
      return table;
    },
    async run(sql) {
      guard(() => runForEffect(sql), sql);
    },
    async insertIPC(table, ipcStream) {
      guard(() => conn.insertArrowFromIPCStream(ipcStream, { name: table, create: false }), `insert into ${table}`);
    },
    async stats(): Promise<EngineStats> {
      const row = guard(
        () =>
          conn.query(
            "SELECT (SELECT sum(memory_usage_bytes) FROM duckdb_memory())::DOUBLE AS used, current_setting('memory_limit') AS lim",
          ),
        'stats',
      );
      return {
        wasmBytes: wasmBytes(),
        duckdbBytes: Number(row.getChild('used')?.get(0) ?? 0),
        memoryLimit: String(row.getChild('lim')?.get(0) ?? ''),
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      // Closing the connection frees its prepared statements.
      plans?.forget(engine);
      conn.close();
      onClose();
    },
  };
  return engine;
}

/** The connection's own fields in duckdb-wasm 1.32 (bindings/connection.ts); not in its types. */
interface ConnectionInternals {
  _bindings?: { runQuery?: (conn: number, text: string) => Uint8Array };
  _conn?: number;
}

/**
 * Runs a statement whose result is not needed. `query()` parses DuckDB's reply (an Arrow IPC
 * file) into an apache-arrow Table even for BEGIN or INSERT, a large share of a short
 * statement's cost, and a commit runs several. The bindings' `runQuery` returns the same reply unparsed
 * (errors still throw). Falls back to `query()` if a duckdb-wasm version lacks those fields.
 */
export function effectOnly(conn: BlockingConnection): (sql: string) => void {
  const { _bindings: bindings, _conn: handle } = conn as BlockingConnection & ConnectionInternals;
  const runQuery = bindings?.runQuery;
  if (typeof runQuery !== 'function' || typeof handle !== 'number') return (sql) => void conn.query(sql);
  return (sql) => void runQuery.call(bindings, handle, sql);
}

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
