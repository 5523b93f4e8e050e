import type { EngineTable } from '../../schema/ddl.js';
import { allocScratch, COLUMNS, type Column, rowsToIPC, writeUtf8 } from '../arrow-rows.js';

/**
 * The Arrow IPC stream a commit hands to the engine, written directly: the table's schema
 * message (apache-arrow's own bytes, taken once per table), one record-batch message whose
 * flatbuffer is laid out here by hand, its body, and the end-of-stream marker. apache-arrow's
 * `tableToIPC` plus building the Table cost ~0.3 ms per step commit (three tables), ~7% of one;
 * this writes the same columns in a few µs. Only the engine reads these bytes (snapshots keep
 * apache-arrow's writer, `rowsToIPC`, so their bytes do not change); a test decodes them with
 * apache-arrow and compares every value with the rows.
 *
 * Columns are Int32 or Utf8 (see COLUMNS). Everything is written in place into one buffer
 * reused from call to call, so **the bytes returned are valid until the next call** (the commit
 * inserts each stream before it writes the next; the engines copy them as they insert). Why: a
 * fresh multi-megabyte buffer per bulk commit, written through once, was mostly page faults, and
 * the text went through a scratch buffer and a second copy (together ~10% of a bulk commit's
 * CPU). The text bytes go at the end of the body, after every column's fixed-size buffers, so
 * they can be encoded straight to their place before their total length is known (buffers are
 * located by offset, which the format lets lie in any order). Every buffer starts 8-byte
 * aligned in the body, as the format asks; a column without nulls gets an empty validity buffer;
 * the bytes between buffers are zeroed, so the same rows give the same bytes.
 */
export function commitRowsIPC(table: EngineTable, rows: ReadonlyArray<object>): Uint8Array {
  const columns = COLUMNS[table] as ReadonlyArray<Column<object>>;
  const n = rows.length;
  const schema = schemaMessage(table);
  const validityBytes = pad8((n + 7) >> 3);

  // Sizes: the fixed buffers (validity, then offsets or values, per column), then text at most
  // 3 bytes per UTF-16 unit per column, each column's run padded to 8.
  let fixedBytes = 0;
  let textCapacity = 0;
  let bufferCount = 0;
  for (const [, type, get] of columns) {
    fixedBytes += validityBytes + pad8(4 * (type === 'int' ? n : n + 1));
    bufferCount += type === 'int' ? 2 : 3;
    if (type !== 'text') continue;
    textCapacity += 8;
    for (let i = 0; i < n; i++) {
      const v = get(rows[i]!) as string | null;
      if (v !== null && v !== undefined) textCapacity += v.length * 3;
    }
  }
  const e = 80 + 16 * columns.length;
  const metaLength = e + 8 + 16 * bufferCount;
  const fb = schema.length + 8;
  const bodyAt = fb + metaLength; // a multiple of 8: the schema message and metaLength are
  ensureCapacity(bodyAt + fixedBytes + textCapacity + 8);
  const b = out;
  const i32 = outInt32;
  const view = outView;

  // Per buffer: offset in the body and length, in the order the format lists them.
  const buffers: number[] = [];
  const nullCounts: number[] = [];
  let fixedAt = bodyAt;
  let textAt = bodyAt + fixedBytes;
  for (const [, type, get] of columns) {
    const validityAt = fixedAt;
    const mainAt = validityAt + validityBytes;
    b.fill(0, validityAt, mainAt);
    let nulls = 0;
    if (type === 'int') {
      const values = mainAt >> 2;
      for (let i = 0; i < n; i++) {
        const v = get(rows[i]!) as number | null;
        if (v === null || v === undefined) {
          nulls++;
          i32[values + i] = 0;
        } else {
          i32[values + i] = v;
          b[validityAt + (i >> 3)]! |= 1 << (i & 7);
        }
      }
      fixedAt = mainAt + pad8(4 * n);
      b.fill(0, mainAt + 4 * n, fixedAt);
      buffers.push(validityAt - bodyAt, nulls === 0 ? 0 : (n + 7) >> 3, mainAt - bodyAt, 4 * n);
    } else {
      const offsets = mainAt >> 2;
      const start = textAt;
      i32[offsets] = 0;
      for (let i = 0; i < n; i++) {
        const v = get(rows[i]!) as string | null;
        if (v === null || v === undefined) nulls++;
        else {
          textAt = writeUtf8(v, b, textAt);
          b[validityAt + (i >> 3)]! |= 1 << (i & 7);
        }
        i32[offsets + i + 1] = textAt - start;
      }
      fixedAt = mainAt + pad8(4 * (n + 1));
      b.fill(0, mainAt + 4 * (n + 1), fixedAt);
      buffers.push(validityAt - bodyAt, nulls === 0 ? 0 : (n + 7) >> 3, mainAt - bodyAt, 4 * (n + 1));
      buffers.push(start - bodyAt, textAt - start);
      const padded = bodyAt + pad8(textAt - bodyAt);
      b.fill(0, textAt, padded);
      textAt = padded;
    }
    nullCounts.push(nulls);
  }
  const bodyLength = textAt - bodyAt;

  // The schema, the record batch's flatbuffer (see the layout below), then end-of-stream.
  b.set(schema, 0);
  view.setUint32(schema.length, 0xffffffff, true);
  view.setInt32(schema.length + 4, metaLength, true);
  b.fill(0, fb, bodyAt);
  writeRecordBatchHeader(view, fb, n, bodyLength, e);
  for (let c = 0; c < columns.length; c++) {
    view.setBigInt64(fb + 80 + 16 * c, BigInt(n), true);
    view.setBigInt64(fb + 80 + 16 * c + 8, BigInt(nullCounts[c]!), true);
  }
  view.setUint32(fb + e + 4, bufferCount, true);
  for (let k = 0; k < bufferCount; k++) {
    view.setBigInt64(fb + e + 8 + 16 * k, BigInt(buffers[2 * k]!), true);
    view.setBigInt64(fb + e + 8 + 16 * k + 8, BigInt(buffers[2 * k + 1]!), true);
  }
  const end = bodyAt + bodyLength;
  view.setUint32(end, 0xffffffff, true); // end of stream: continuation, then a zero length
  view.setUint32(end + 4, 0, true);
  // A plain Uint8Array view (Node's Buffer#slice would return a view, not the copy callers
  // such as the browser engine take).
  return new Uint8Array(b.buffer, b.byteOffset, end + 8);
}

/** The buffer every stream is written into, with views for int32 and header writes. */
let out: Uint8Array = allocScratch(1 << 16);
let outInt32 = new Int32Array(out.buffer, out.byteOffset, out.length >> 2);
let outView = new DataView(out.buffer, out.byteOffset, out.length);
function ensureCapacity(bytes: number): void {
  if (out.length >= bytes) return;
  out = allocScratch(Math.max(bytes, out.length * 2));
  outInt32 = new Int32Array(out.buffer, out.byteOffset, out.length >> 2);
  outView = new DataView(out.buffer, out.byteOffset, out.length);
}

const pad8 = (n: number): number => (n + 7) & ~7;

/**
 * The fixed part of a record-batch Message flatbuffer at `fb` (offsets relative to it; every
 * 8-byte field 8-aligned, as flatbuffers verifiers check):
 *   0  root offset → the Message table at 16
 *   4  Message vtable: 12 bytes, table 20 bytes; version @16, header_type @18, header @4, bodyLength @8
 *  16  Message table: soffset 12 (vtable at 4); header → 56; bodyLength; version V5 (4); RecordBatch (3)
 *  40  RecordBatch vtable: 10 bytes, table 20 bytes; length @8, nodes @4, buffers @16
 *  56  RecordBatch table: soffset 16 (vtable at 40); nodes → 76; length; buffers → e + 4
 *  76  nodes vector: count, then 16-byte FieldNodes (length, null count) from 80
 * e+4  buffers vector: count, then 16-byte Buffers (offset, length) from e + 8
 */
function writeRecordBatchHeader(view: DataView, fb: number, rows: number, bodyLength: number, e: number): void {
  view.setUint32(fb, 16, true);
  for (const [k, v] of [12, 20, 16, 18, 4, 8].entries()) view.setUint16(fb + 4 + 2 * k, v, true);
  view.setInt32(fb + 16, 12, true);
  view.setUint32(fb + 20, 56 - 20, true);
  view.setBigInt64(fb + 24, BigInt(bodyLength), true);
  view.setInt16(fb + 32, 4, true); // MetadataVersion V5
  view.setUint8(fb + 34, 3); // MessageHeader RecordBatch
  for (const [k, v] of [10, 20, 8, 4, 16].entries()) view.setUint16(fb + 40 + 2 * k, v, true);
  view.setInt32(fb + 56, 56 - 40, true);
  view.setUint32(fb + 60, 76 - 60, true);
  view.setBigInt64(fb + 64, BigInt(rows), true);
  view.setUint32(fb + 72, e + 4 - 72, true);
  view.setUint32(fb + 76, (e - 80) / 16, true);
}

/** The schema message apache-arrow writes for a table (the same whatever the rows). */
const schemas = new Map<EngineTable, Uint8Array>();
function schemaMessage(table: EngineTable): Uint8Array {
  let schema = schemas.get(table);
  if (schema === undefined) {
    const stream = rowsToIPC(table, []);
    const length = new DataView(stream.buffer, stream.byteOffset, stream.byteLength).getInt32(4, true);
    schema = stream.slice(0, 8 + length);
    schemas.set(table, schema);
  }
  return schema;
}
