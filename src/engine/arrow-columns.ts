/**
 * Reading Arrow columns straight from their buffers. Query results and snapshot sections are
 * read column-wise because Arrow's own `get` dispatches through its visitor and checks the type
 * on every call, and row objects cost more again. Access is duck-typed (`getChild`, `data`):
 * a query result is built by duckdb-wasm's copy of apache-arrow, a snapshot section by the
 * library's, and the two need not be one class.
 */

/** The fields of one chunk (apache-arrow's `Data`) read here, present in every version. */
export interface ArrowChunk {
  readonly length: number;
  readonly offset: number;
  readonly nullCount?: number;
  readonly nullBitmap?: Uint8Array | null;
  readonly values: ArrayLike<number>;
  readonly valueOffsets?: Int32Array;
  readonly type: { toString(): string };
}

/** A column (apache-arrow's `Vector`): its chunks, and Arrow's own reader by row. */
export interface ArrowColumn {
  readonly data: readonly ArrowChunk[];
  readonly type: { toString(): string };
  get(i: number): unknown;
}

/** A table or record batch: what holds columns by name. */
export interface ArrowColumns {
  getChild(name: string): unknown;
}

/** A column read by row. */
export interface ColumnReader {
  get(i: number): unknown;
}

/** The Arrow types read from buffers; `toString` of apache-arrow's type names them. */
export type BufferType = 'Int32' | 'Utf8';

export const isType = (chunk: { type: { toString(): string } }, type: BufferType): boolean =>
  String(chunk.type) === type;

/** The column `name`, or null when there is none. */
export function columnOf(source: ArrowColumns, name: string): ArrowColumn | null {
  return (source.getChild(name) as ArrowColumn | null | undefined) ?? null;
}

/** The column's only chunk when it is one chunk of `type` (a snapshot section is written as
 * one batch), else null. */
export function soleChunk(source: ArrowColumns, name: string, type: BufferType): ArrowChunk | null {
  const column = columnOf(source, name);
  const data = column?.data;
  if (data?.length !== 1 || !isType(column!, type)) return null;
  return data[0]!;
}

/** The chunk's validity bitmap (indexed from the chunk's offset), or null when every slot is
 * valid. */
export const validityOf = (c: ArrowChunk): Uint8Array | null =>
  c.nullBitmap && c.nullBitmap.length > 0 ? c.nullBitmap : null;

/** Whether bit `i` of a validity bitmap is set. */
export const bitAt = (bitmap: Uint8Array, i: number): boolean => ((bitmap[i >> 3]! >> (i & 7)) & 1) === 1;

/** Whether slot `i` of the chunk holds a value. */
export function isValidAt(c: ArrowChunk, i: number): boolean {
  const bitmap = validityOf(c);
  return bitmap === null || bitAt(bitmap, c.offset + i);
}

/** The values of an Int32 chunk that holds no null. */
export function int32sOf(c: ArrowChunk, name: string): Int32Array {
  for (let i = 0; i < c.length; i++) if (!isValidAt(c, i)) throw new Error(`column ${name} has a null`);
  return (c.values as Int32Array).subarray(0, c.length);
}

/** An Int32 chunk read by row, null for a null slot. */
export function nullableInt32sOf(c: ArrowChunk): (i: number) => number | null {
  const values = c.values as Int32Array;
  const bitmap = validityOf(c);
  return (i) => (bitmap === null || bitAt(bitmap, c.offset + i) ? values[i]! : null);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder();

/**
 * A Utf8 chunk read by row, rejecting invalid UTF-8. When its bytes are all ASCII (ids, kinds,
 * hashes nearly always are), they are decoded once as one string and each value is a slice of
 * it, instead of one TextDecoder call per value.
 */
export function utf8sOf(c: ArrowChunk): (i: number) => string | null {
  const offsets = c.valueOffsets!;
  const bytes = c.values as Uint8Array;
  const start = offsets[0]!;
  const end = offsets[c.length]!;
  let ascii = true;
  for (let i = start; i < end; i++) {
    if (bytes[i]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  const bitmap = validityOf(c);
  const valid = (i: number) => bitmap === null || bitAt(bitmap, c.offset + i);
  if (ascii) {
    const all = strictUtf8.decode(bytes.subarray(start, end));
    return (i) => (valid(i) ? all.slice(offsets[i]! - start, offsets[i + 1]! - start) : null);
  }
  return (i) => (valid(i) ? strictUtf8.decode(bytes.subarray(offsets[i]!, offsets[i + 1]!)) : null);
}

/** The bytes of value `i` of a Utf8 chunk, decoded strictly. */
export const utf8At = (c: ArrowChunk, i: number): string =>
  strictUtf8.decode((c.values as Uint8Array).subarray(c.valueOffsets![i]!, c.valueOffsets![i + 1]!));

/** Whether values `a` and `b` of a Utf8 chunk hold the same bytes. */
export function sameUtf8(c: ArrowChunk, a: number, b: number): boolean {
  const offsets = c.valueOffsets!;
  const bytes = c.values as Uint8Array;
  const length = offsets[a + 1]! - offsets[a]!;
  if (offsets[b + 1]! - offsets[b]! !== length) return false;
  for (let k = 0; k < length; k++) if (bytes[offsets[a]! + k] !== bytes[offsets[b]! + k]) return false;
  return true;
}

/**
 * A column read by row, straight from its buffers when it is one unsliced chunk of Int32 or
 * Utf8 (what a query result's batch holds), else through Arrow's `get`. Values are decoded one
 * at a time: a query result's rows are mostly skipped, and its texts may be long bodies.
 */
export function columnReader(column: ColumnReader): ColumnReader {
  const c = column as Partial<ArrowColumn>;
  const d = c.data?.length === 1 ? c.data[0]! : undefined;
  if (d === undefined || d.offset !== 0) return column;
  // A chunk may carry a bitmap though no slot is null.
  const bitmap = d.nullCount === 0 ? null : validityOf(d);
  const valid = (i: number) => bitmap === null || bitAt(bitmap, i);
  if (isType(d, 'Utf8') && d.valueOffsets !== undefined && d.values instanceof Uint8Array) {
    const { valueOffsets: at, values } = d;
    return { get: (i) => (valid(i) ? lenientUtf8.decode(values.subarray(at[i], at[i + 1])) : null) };
  }
  if (isType(d, 'Int32') && d.values instanceof Int32Array) {
    const values = d.values;
    return { get: (i) => (valid(i) ? values[i] : null) };
  }
  return column;
}
