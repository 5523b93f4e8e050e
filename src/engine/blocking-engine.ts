import { LedgerError } from '../errors.js';
import type { BlockingConnection, Engine } from './engine.js';

/**
 * Adapts a duckdb-wasm blocking connection (Node build, or the browser-blocking build Workers
 * use) to the async Engine interface, mapping engine exceptions to ENGINE_FAILED.
 */
export function wrapBlockingConnection(conn: BlockingConnection, onClose: () => void = () => {}): Engine {
  let closed = false;
  const guard = <T>(fn: () => T, sql: string): T => {
    if (closed) throw new LedgerError('LEDGER_CLOSED');
    try {
      return fn();
    } catch (cause) {
      throw new LedgerError('ENGINE_FAILED', { reason: errorText(cause), sql: sql.slice(0, 400) }, cause);
    }
  };
  return {
    async query(sql) {
      return guard(() => conn.query(sql), sql);
    },
    async run(sql) {
      guard(() => conn.query(sql), sql);
    },
    async insertIPC(table, ipcStream) {
      guard(() => conn.insertArrowFromIPCStream(ipcStream, { name: table, create: false }), `insert into ${table}`);
    },
    async close() {
      if (closed) return;
      closed = true;
      conn.close();
      onClose();
    },
  };
}

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
