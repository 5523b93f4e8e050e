import type { Table } from 'apache-arrow';

/**
 * Reads an Arrow result into plain row objects. Column access is duck-typed (getChild/get), so
 * tables from any apache-arrow copy work. Int64 columns arrive as bigint: queries cast counts
 * to INTEGER instead of converting here, so a silent precision loss cannot hide.
 */
export function rowsOf<T extends object>(table: Table): T[] {
  const names = table.schema.fields.map((f) => f.name);
  const columns = names.map((n) => table.getChild(n));
  const out: T[] = new Array(table.numRows);
  for (let i = 0; i < table.numRows; i++) {
    const row: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) row[names[c]!] = columns[c]?.get(i) ?? null;
    out[i] = row as T;
  }
  return out;
}
