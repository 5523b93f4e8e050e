import { type DataType, Int32, makeTable, type Table, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import type { TableName } from '../schema/ddl.js';

type ColumnType = 'int' | 'text';

/** Column order and Arrow type of each table, matching CREATE_TABLES. Plain Utf8 rather than
 * dictionary vectors: duckdb-wasm ingests them ~4× faster. */
export const COLUMNS: Readonly<Record<TableName, ReadonlyArray<readonly [string, ColumnType]>>> = {
  bodies: [
    ['bkey', 'int'],
    ['hash', 'text'],
    ['text', 'text'],
    ['tokens', 'int'],
    ['chars', 'int'],
    ['tx', 'int'],
  ],
  nodes: [
    ['vkey', 'int'],
    ['nid', 'int'],
    ['id', 'text'],
    ['kind', 'text'],
    ['status', 'text'],
    ['authority', 'text'],
    ['bkey', 'int'],
    ['path', 'text'],
    ['revision', 'text'],
    ['range_start', 'int'],
    ['range_end', 'int'],
    ['verifier', 'text'],
    ['tool', 'text'],
    ['role', 'text'],
    ['changed', 'text'],
    ['meta', 'text'],
    ['tx', 'int'],
    ['valid_from', 'int'],
    ['valid_to', 'int'],
  ],
  edges: [
    ['ekey', 'int'],
    ['src', 'int'],
    ['dst', 'int'],
    ['kind', 'text'],
    ['tx', 'int'],
    ['valid_from', 'int'],
    ['valid_to', 'int'],
  ],
  closures: [
    ['ckey', 'int'],
    ['tx', 'int'],
    ['epoch', 'int'],
    ['target', 'text'],
    ['key', 'int'],
    ['reason', 'text'],
    ['by_nid', 'int'],
  ],
  transactions: [
    ['tx', 'int'],
    ['epoch', 'int'],
    ['kind', 'text'],
    ['nodes', 'int'],
    ['edges', 'int'],
    ['transitions', 'int'],
    ['archived_tx', 'int'],
  ],
};

/** Serialises rows of a ledger table as an Arrow IPC stream (the only format duckdb-wasm
 * ingests reliably). */
export function rowsToIPC(table: TableName, rows: ReadonlyArray<object>): Uint8Array {
  return tableToIPC(rowsToTable(table, rows), 'stream');
}

export function rowsToTable(table: TableName, rows: ReadonlyArray<object>): Table {
  const columns: Record<string, ReturnType<typeof vectorFromArray>> = {};
  for (const [name, type] of COLUMNS[table]) {
    const values = rows.map((r) => (r as Record<string, unknown>)[name] ?? null);
    const arrowType: DataType = type === 'int' ? new Int32() : new Utf8();
    columns[name] = vectorFromArray(values, arrowType as never);
  }
  return makeTable(columns as never) as unknown as Table;
}
