import type { TableName } from '../schema/ddl.js';
import { insertVocabularySql, type VocabularyCell } from '../sql/insert-values.js';
import { COLUMNS, type Column } from './arrow-rows.js';

/**
 * A few rows of a table whose text columns hold only the schema's own vocabulary (edge kinds,
 * closure targets and reasons, transaction kinds) go into the SQL batch that opens the engine
 * transaction: one Arrow IPC insert costs a round trip and ~0.7 ms of DuckDB planning, while a
 * small VALUES list rides along for ~0.1 ms a row. Beyond a few dozen rows VALUES binding
 * overtakes Arrow (measured ~80 µs a row), so larger sets stay on the Arrow path.
 *
 * Only integers and strings of `[a-z_-]` are ever written as literals, so no caller text can reach
 * SQL this way; anything else returns null and the caller uses Arrow.
 */
const LITERAL_TABLES: ReadonlySet<TableName> = new Set(['edges', 'closures', 'transactions']);
export const MAX_LITERAL_ROWS = 16;

export function literalInsertSql(table: TableName, rows: ReadonlyArray<object>): string | null {
  if (!LITERAL_TABLES.has(table) || rows.length === 0 || rows.length > MAX_LITERAL_ROWS) return null;
  const columns = COLUMNS[table] as ReadonlyArray<Column<object>>;
  return insertVocabularySql(
    table,
    rows.map((row) => columns.map(([, type, get]): VocabularyCell => [type, get(row)])),
  );
}
