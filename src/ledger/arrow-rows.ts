import {
  type Data,
  Int32,
  makeData,
  makeTable,
  makeVector,
  type Table,
  tableToIPC,
  Utf8,
  type Vector,
} from 'apache-arrow';
import type { TableName } from '../schema/ddl.js';
import type { BodyRow, ClosureRow, EdgeRow, NodeRow, TransactionRow } from '../schema/rows.js';

type ColumnType = 'int' | 'text';
type Cell = number | string | null;
/** A column: name, Arrow type, and a reader with a literal property access (a `row[name]` read
 * with a varying name is a megamorphic keyed load, which cost more than the encoding). */
export type Column<R> = readonly [name: string, type: ColumnType, get: (row: R) => Cell];

const bodyColumns: ReadonlyArray<Column<BodyRow>> = [
  ['bkey', 'int', (r) => r.bkey],
  ['hash', 'text', (r) => r.hash],
  ['text', 'text', (r) => r.text],
  ['tokens', 'int', (r) => r.tokens],
  ['chars', 'int', (r) => r.chars],
  ['tx', 'int', (r) => r.tx],
];
const nodeColumns: ReadonlyArray<Column<NodeRow>> = [
  ['vkey', 'int', (r) => r.vkey],
  ['nid', 'int', (r) => r.nid],
  ['id', 'text', (r) => r.id],
  ['kind', 'text', (r) => r.kind],
  ['status', 'text', (r) => r.status],
  ['authority', 'text', (r) => r.authority],
  ['bkey', 'int', (r) => r.bkey],
  ['path', 'text', (r) => r.path],
  ['revision', 'text', (r) => r.revision],
  ['range_start', 'int', (r) => r.range_start],
  ['range_end', 'int', (r) => r.range_end],
  ['verifier', 'text', (r) => r.verifier],
  ['tool', 'text', (r) => r.tool],
  ['role', 'text', (r) => r.role],
  ['changed', 'text', (r) => r.changed],
  ['meta', 'text', (r) => r.meta],
  ['tx', 'int', (r) => r.tx],
  ['valid_from', 'int', (r) => r.valid_from],
  ['valid_to', 'int', (r) => r.valid_to],
];
const edgeColumns: ReadonlyArray<Column<EdgeRow>> = [
  ['ekey', 'int', (r) => r.ekey],
  ['src', 'int', (r) => r.src],
  ['dst', 'int', (r) => r.dst],
  ['kind', 'text', (r) => r.kind],
  ['tx', 'int', (r) => r.tx],
  ['valid_from', 'int', (r) => r.valid_from],
  ['valid_to', 'int', (r) => r.valid_to],
];
const closureColumns: ReadonlyArray<Column<ClosureRow>> = [
  ['ckey', 'int', (r) => r.ckey],
  ['tx', 'int', (r) => r.tx],
  ['epoch', 'int', (r) => r.epoch],
  ['target', 'text', (r) => r.target],
  ['key', 'int', (r) => r.key],
  ['reason', 'text', (r) => r.reason],
  ['by_nid', 'int', (r) => r.by_nid],
];
const transactionColumns: ReadonlyArray<Column<TransactionRow>> = [
  ['tx', 'int', (r) => r.tx],
  ['epoch', 'int', (r) => r.epoch],
  ['kind', 'text', (r) => r.kind],
  ['nodes', 'int', (r) => r.nodes],
  ['edges', 'int', (r) => r.edges],
  ['transitions', 'int', (r) => r.transitions],
  ['archived_tx', 'int', (r) => r.archived_tx],
];

/** Column order and Arrow type of each table, matching CREATE_TABLES. Plain Utf8 rather than
 * dictionary vectors: duckdb-wasm ingests them ~4× faster. */
export const COLUMNS: Readonly<Record<TableName, ReadonlyArray<Column<never>>>> = {
  bodies: bodyColumns,
  nodes: nodeColumns,
  edges: edgeColumns,
  closures: closureColumns,
  transactions: transactionColumns,
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
function rowsToTable(table: TableName, rows: ReadonlyArray<object>): Table {
  const columns: Record<string, Vector> = {};
  for (const [name, type, get] of COLUMNS[table] as ReadonlyArray<Column<object>>) {
    const data: Data =
      type === 'int'
        ? intData(rows, get as (r: object) => number | null)
        : utf8Data(rows, get as (r: object) => string | null);
    columns[name] = makeVector(data as Data<Int32>) as Vector;
  }
  return makeTable(columns as never) as unknown as Table;
}

/** Tables built column by column elsewhere (snapshot export) go through the same writer. */
export function dataToIPC(table: TableName, data: ReadonlyArray<Data>): Uint8Array {
  const columns: Record<string, Vector> = {};
  COLUMNS[table].forEach(([name], i) => {
    columns[name] = makeVector(data[i]! as Data<Int32>) as Vector;
  });
  return tableToIPC(makeTable(columns as never) as unknown as Table, 'stream');
}

export function int32Data(values: Int32Array, validity: Uint8Array | undefined, nullCount: number): Data<Int32> {
  return makeData({
    type: new Int32(),
    length: values.length,
    nullCount,
    nullBitmap: nullCount === 0 ? undefined : validity,
    data: values,
  });
}

export function utf8DataOf(
  offsets: Int32Array,
  bytes: Uint8Array,
  validity: Uint8Array | undefined,
  nullCount: number,
): Data<Utf8> {
  const length = offsets.length - 1;
  return makeData({
    type: new Utf8(),
    length,
    nullCount,
    nullBitmap: nullCount === 0 ? undefined : validity,
    valueOffsets: offsets,
    data: bytes,
  });
}

function intData<R>(rows: ReadonlyArray<R>, get: (r: R) => number | null): Data<Int32> {
  const n = rows.length;
  const data = new Int32Array(n);
  const validity = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = get(rows[i]!);
    if (v === null || v === undefined) nulls++;
    else {
      data[i] = v;
      validity[i >> 3]! |= 1 << (i & 7);
    }
  }
  return int32Data(data, validity, nulls);
}

const encoder = new TextEncoder();
/** Node's Buffer writes UTF-8 at an offset without the view `encodeInto` needs per string (a
 * few MB of garbage per bulk commit); elsewhere encodeInto it is. */
type NodeBufferLike = Uint8Array & { write(s: string, offset: number): number };
const NodeBuffer = (globalThis as { Buffer?: { alloc(n: number): NodeBufferLike } }).Buffer;
export const allocScratch = (n: number): Uint8Array => (NodeBuffer ? NodeBuffer.alloc(n) : new Uint8Array(n));
/** Reused encoding space: sized for the worst case (3 bytes per UTF-16 unit) without allocating
 * and zero-filling that much per column; the column gets an exact-size copy. */
let scratch = allocScratch(1 << 16);

function utf8Data<R>(rows: ReadonlyArray<R>, get: (r: R) => string | null): Data<Utf8> {
  const n = rows.length;
  const values: Array<string | null> = new Array(n);
  let capacity = 0;
  for (let i = 0; i < n; i++) {
    const v = get(rows[i]!) ?? null;
    values[i] = v;
    if (v !== null) capacity += v.length * 3;
  }
  if (scratch.length < capacity) scratch = allocScratch(Math.max(capacity, scratch.length * 2));
  const offsets = new Int32Array(n + 1);
  const validity = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  let at = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined) nulls++;
    else {
      at = writeUtf8(v, scratch, at);
      validity[i >> 3]! |= 1 << (i & 7);
    }
    offsets[i + 1] = at;
  }
  // A copy (Uint8Array's slice: Node's Buffer#slice would return a view of the reused scratch).
  return utf8DataOf(offsets, Uint8Array.prototype.slice.call(scratch, 0, at), validity, nulls);
}

/** UTF-8 of `v` at `at`; short ASCII strings are copied in JS (encodeInto costs a view per call). */
export function writeUtf8(v: string, out: Uint8Array, at: number): number {
  if (v.length <= 32) {
    let i = 0;
    for (; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c >= 0x80) break;
      out[at + i] = c;
    }
    if (i === v.length) return at + i;
  }
  if (NodeBuffer) return at + (out as NodeBufferLike).write(v, at);
  return at + encoder.encodeInto(v, out.subarray(at)).written;
}
