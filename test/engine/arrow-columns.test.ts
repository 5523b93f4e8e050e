import { Int32, Table, tableFromArrays, tableFromIPC, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import {
  columnReader,
  int32sOf,
  nullableInt32sOf,
  sameUtf8,
  soleChunk,
  utf8At,
  utf8sOf,
} from '../../src/engine/arrow-columns.js';

/** A one-batch table with nulls and non-ASCII text, read back from an IPC stream as a section is. */
function section() {
  const table = new Table({
    n: vectorFromArray([1, null, 3, 4], new Int32()),
    k: vectorFromArray([7, 8, 9, 10], new Int32()),
    s: vectorFromArray(['a', null, 'é', 'a'], new Utf8()),
  });
  return tableFromIPC(tableToIPC(table, 'stream'));
}

describe('arrow column reader', () => {
  it('reads Int32 and Utf8 chunks by row, nulls as null', () => {
    const t = section();
    const n = nullableInt32sOf(soleChunk(t, 'n', 'Int32')!);
    expect([0, 1, 2, 3].map(n)).toEqual([1, null, 3, 4]);
    expect([...int32sOf(soleChunk(t, 'k', 'Int32')!, 'k')]).toEqual([7, 8, 9, 10]);
    const s = soleChunk(t, 's', 'Utf8')!;
    expect([0, 1, 2, 3].map(utf8sOf(s))).toEqual(['a', null, 'é', 'a']);
    expect(utf8At(s, 2)).toBe('é');
    expect(sameUtf8(s, 0, 3)).toBe(true);
    expect(sameUtf8(s, 0, 2)).toBe(false);
  });

  it('rejects a null in a non-null column and a column of another type', () => {
    const t = section();
    expect(() => int32sOf(soleChunk(t, 'n', 'Int32')!, 'n')).toThrow('column n has a null');
    expect(soleChunk(t, 's', 'Int32')).toBeNull();
    expect(soleChunk(t, 'missing', 'Int32')).toBeNull();
  });

  it('columnReader reads the buffers as Arrow get does, and falls back to get otherwise', () => {
    const t = section();
    for (const name of ['n', 'k', 's']) {
      const column = t.getChild(name)!;
      const read = columnReader(column);
      expect([0, 1, 2, 3].map((i) => read.get(i))).toEqual([0, 1, 2, 3].map((i) => column.get(i)));
    }
    const sliced = tableFromArrays({ x: Int32Array.from([1, 2, 3]) })
      .slice(1)
      .getChild('x')!;
    expect(columnReader(sliced)).toBe(sliced);
  });
});
