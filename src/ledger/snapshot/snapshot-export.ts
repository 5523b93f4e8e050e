import type { Data, Table } from 'apache-arrow';
import { type ArrowChunk, bitAt, columnOf, isType, validityOf } from '../../engine/arrow-columns.js';
import type { TableName } from '../../schema/ddl.js';
import { COLUMNS, dataToIPC, int32Data, utf8DataOf } from '../arrow-rows.js';

/**
 * Re-encodes one table's query result (DuckDB's Arrow: many 2048-row batches, arbitrary bytes
 * under null slots) as a single-batch IPC stream with zeros under nulls — the bytes `rowsToIPC`
 * writes for the same rows, so equal ledgers give equal snapshots. Works on the column buffers
 * (bulk copies of string bytes) instead of decoding every value into row objects, which took
 * ~6 s at 100k nodes. Returns null when a column is not the expected Int32/Utf8, and the caller
 * falls back to the row path.
 */
export function exportTableIPC(name: TableName, result: Table): Uint8Array | null {
  const n = result.numRows;
  const data: Data[] = [];
  for (const [column, type] of COLUMNS[name]) {
    const vector = columnOf(result, column);
    if (!vector) return null;
    const chunks = vector.data;
    if (chunks.some((c) => !isType(c, type === 'int' ? 'Int32' : 'Utf8'))) return null;
    data.push(type === 'int' ? intColumn(chunks, n) : utf8Column(chunks, n));
  }
  return dataToIPC(name, data);
}

/** Sets validity bits [from, to) of an output bitmap. */
function setValid(validity: Uint8Array, from: number, to: number): void {
  let i = from;
  for (; i < to && (i & 7) !== 0; i++) validity[i >> 3]! |= 1 << (i & 7);
  const wholeEnd = to & ~7;
  if (i < wholeEnd) {
    validity.fill(0xff, i >> 3, wholeEnd >> 3);
    i = wholeEnd;
  }
  for (; i < to; i++) validity[i >> 3]! |= 1 << (i & 7);
}

function intColumn(chunks: readonly ArrowChunk[], n: number): Data {
  const out = new Int32Array(n);
  const validity = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  let at = 0;
  for (const c of chunks) {
    const values = c.values as Int32Array;
    const length = c.length;
    const bitmap = validityOf(c);
    if (bitmap === null) {
      out.set(values.subarray(0, length), at);
      setValid(validity, at, at + length);
      at += length;
      continue;
    }
    const offset = c.offset;
    for (let i = 0; i < length; i++, at++) {
      if (bitAt(bitmap, offset + i)) {
        out[at] = values[i]!;
        validity[at >> 3]! |= 1 << (at & 7);
      } else nulls++;
    }
  }
  return int32Data(out, validity, nulls);
}

function utf8Column(chunks: readonly ArrowChunk[], n: number): Data {
  let total = 0;
  for (const c of chunks) {
    const o = c.valueOffsets!;
    const bitmap = validityOf(c);
    if (bitmap === null) total += o[c.length]! - o[0]!;
    else for (let i = 0; i < c.length; i++) if (bitAt(bitmap, c.offset + i)) total += o[i + 1]! - o[i]!;
  }
  const bytes = new Uint8Array(total);
  const offsets = new Int32Array(n + 1);
  const validity = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  let at = 0; // next byte of `bytes`
  let row = 0;
  for (const c of chunks) {
    const o = c.valueOffsets!;
    const values = c.values as Uint8Array;
    const length = c.length;
    const bitmap = validityOf(c);
    if (bitmap === null) {
      // Whole chunk valid: one copy, offsets rebased.
      bytes.set(values.subarray(o[0]!, o[length]!), at);
      const shift = at - o[0]!;
      for (let i = 1; i <= length; i++) offsets[row + i] = o[i]! + shift;
      setValid(validity, row, row + length);
      at += o[length]! - o[0]!;
      row += length;
      continue;
    }
    for (let i = 0; i < length; i++, row++) {
      if (bitAt(bitmap, c.offset + i)) {
        const start = o[i]!;
        const end = o[i + 1]!;
        if (end - start > 32) bytes.set(values.subarray(start, end), at);
        else for (let k = start; k < end; k++) bytes[at + k - start] = values[k]!; // no view per value
        at += end - start;
        validity[row >> 3]! |= 1 << (row & 7);
      } else nulls++;
      offsets[row + 1] = at;
    }
  }
  return utf8DataOf(offsets, bytes, validity, nulls);
}
