import { type Data, Int32, makeData, makeTable, makeVector, type Table, tableToIPC, Utf8, type Vector } from 'apache-arrow';
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

/**
 * Builds the Arrow table directly from typed buffers: apache-arrow's generic `vectorFromArray`
 * builders cost ~1 µs per value, which dominated commit time. Null slots hold zeros, so equal
 * rows always serialise to equal bytes.
 */
export function rowsToTable(table: TableName, rows: ReadonlyArray<object>): Table {
  const columns: Record<string, Vector> = {};
  for (const [name, type] of COLUMNS[table]) {
    const values = rows.map((r) => (r as Record<string, unknown>)[name] as number | string | null | undefined);
    columns[name] = (
      type === 'int' ? makeVector(intData(values as Array<number | null>)) : makeVector(utf8Data(values as Array<string | null>))
    ) as Vector;
  }
  return makeTable(columns as never) as unknown as Table;
}

function nullBitmap(values: ReadonlyArray<unknown>): { bitmap: Uint8Array | undefined; nulls: number } {
  let nulls = 0;
  const bitmap = new Uint8Array((values.length + 7) >> 3);
  for (let i = 0; i < values.length; i++) {
    if (values[i] === null || values[i] === undefined) nulls++;
    else bitmap[i >> 3]! |= 1 << (i & 7);
  }
  return { bitmap: nulls === 0 ? undefined : bitmap, nulls };
}

function intData(values: ReadonlyArray<number | null | undefined>): Data<Int32> {
  const data = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) data[i] = values[i] ?? 0;
  const { bitmap, nulls } = nullBitmap(values);
  return makeData({ type: new Int32(), length: values.length, nullCount: nulls, nullBitmap: bitmap, data });
}

const encoder = new TextEncoder();

function utf8Data(values: ReadonlyArray<string | null | undefined>): Data<Utf8> {
  let capacity = 0;
  for (const v of values) if (v) capacity += v.length * 3;
  const bytes = new Uint8Array(capacity);
  const offsets = new Int32Array(values.length + 1);
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v) at += encoder.encodeInto(v, bytes.subarray(at)).written;
    offsets[i + 1] = at;
  }
  const { bitmap, nulls } = nullBitmap(values);
  return makeData({ type: new Utf8(), length: values.length, nullCount: nulls, nullBitmap: bitmap, valueOffsets: offsets, data: bytes.subarray(0, at) });
}
