import type { TableName } from '../schema/ddl.js';
import { insertVocabularySql, type VocabularyCell } from '../sql/insert-values.js';
import { COLUMNS, type Column } from './arrow-rows.js';

/**
 * A few rows of a table whose text columns hold only the schema's own vocabulary (edge kinds,
 * closure targets and reasons, transaction kinds) go into the SQL batch that opens the engine
 * transaction: one Arrow IPC insert costs a round trip and ~0.7 ms of DuckDB planning, while a
 * VALUES statement in the batch costs ~0.45 ms plus ~60 µs a row (measured on step commits,
 * load ~1.5), so past ~4 rows Arrow is cheaper: a step's 12 edges as VALUES cost ~1.1 ms, as
 * Arrow ~0.7 (step p50 4.64 → 4.24 ms, interleaved in one process).
 *
 * Only integers and strings of `[a-z_-]` are ever written as literals, so no caller text can reach
 * SQL this way; anything else returns null and the caller uses Arrow.
 */
const LITERAL_TABLES: ReadonlySet<TableName> = new Set(['edges', 'closures', 'transactions']);
export const MAX_LITERAL_ROWS = 4;

export function literalInsertSql(table: TableName, rows: ReadonlyArray<object>): string | null {
  if (!LITERAL_TABLES.has(table) || rows.length === 0 || rows.length > MAX_LITERAL_ROWS) return null;
  const columns = COLUMNS[table] as ReadonlyArray<Column<object>>;
  return insertVocabularySql(
    table,
    rows.map((row) => columns.map(([, type, get]): VocabularyCell => [type, get(row)])),
  );
}
