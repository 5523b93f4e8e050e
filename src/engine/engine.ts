import type { Table } from 'apache-arrow';
import type { KeptPlans } from './kept-plans.js';

/**
 * The narrow surface the rest of the library uses to reach DuckDB. Only files under
 * `src/engine/` import duckdb-wasm; callers see this async interface, so the Node and Workers
 * blocking builds and the browser's worker-backed async build plug in without changing them.
 */
export interface Engine {
  /** Runs one statement and returns its result as an Arrow table. */
  query(sql: string): Promise<Table>;
  /** Runs statements for their effect. */
  run(sql: string): Promise<void>;
  /**
   * Appends an Arrow IPC *stream* to an existing table. (duckdb-wasm silently ignores the IPC
   * file format and tables built by another apache-arrow copy; streams are the safe path.)
   */
  insertIPC(table: string, ipcStream: Uint8Array): Promise<void>;
  close(): Promise<void>;
  /**
   * The prepared plans kept on the DuckDB instance this engine's database lives in, shared by
   * every engine of that instance (src/sql/prepared.ts keeps and evicts them).
   */
  readonly plans?: KeptPlans;
  /**
   * The engine this one wraps, if any (the ledger's read-through engine wraps its raw one). Kept
   * plans are filed under it and freed through it: closing it forgets them, and freeing one (a
   * DEALLOCATE) is no read, so it never writes the wrapper's waiting commits.
   */
  readonly wrapped?: Engine;
  /** Memory figures, where the build exposes them (blocking builds do). */
  stats?(): Promise<EngineStats>;
}

/** What DuckDB holds, measured apart from the JavaScript heap. */
export interface EngineStats {
  /** Size of DuckDB's wasm linear memory (shared by every database of the instance; never shrinks). */
  wasmBytes: number | null;
  /** DuckDB's own accounting of its memory in use (`duckdb_memory()`), instance-wide. */
  duckdbBytes: number;
  /** The memory limit DuckDB enforces (`memory_limit`), as it reports it. */
  memoryLimit: string;
}

/**
 * The synchronous connection shape shared by duckdb-wasm's blocking builds (Node and
 * browser-blocking, which Workers use).
 */
export interface BlockingConnection {
  query(text: string): Table;
  insertArrowFromIPCStream(buffer: Uint8Array, options: { name: string; create?: boolean }): void;
  close(): void;
}
